// SPDX-License-Identifier: MIT
// Stack overflow in a benchmark thread, told apart from any other SIGSEGV. Each
// thread that runs benchmark code holds a StackGuard: an alternate signal stack
// and its own stack's bounds. A SIGSEGV whose address is just below those bounds
// (the guard page) calls the reporter the fork worker set, then the signal takes
// its default action as before: the process still dies of signal 11, but the host
// has been told why. Not used in sanitizer builds, whose own report says it.
#pragma once

namespace cmh::engine {

/// Async-signal-safe: it runs inside the SIGSEGV handler.
using StackOverflowReporter = void (*)() noexcept;

/// Installs the SIGSEGV handler (once) with `report` as what it calls on an overflow.
void set_stack_overflow_reporter(StackOverflowReporter report);

class StackGuard {
 public:
  StackGuard();
  ~StackGuard();
  StackGuard(const StackGuard&) = delete;
  StackGuard& operator=(const StackGuard&) = delete;

 private:
  void* alt_stack_ = nullptr;
};

}  // namespace cmh::engine
