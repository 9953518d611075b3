// SPDX-License-Identifier: MIT
// A stackful coroutine on the calling thread (ucontext), so that a Google
// Benchmark function can be suspended at the start and at the end of its loop:
// the code before the loop then runs in the iteration's setup, the loop inside
// the measured window, and the code after it in the iteration's teardown, all
// on the worker thread that owns the State. Only the loop is timed and profiled.
#pragma once

#include <ucontext.h>

#include <cstddef>

namespace benchmark::internal {

class Coroutine {
 public:
  /// Maps a stack of `stack_bytes` (plus a guard page) with mmap, outside the
  /// bundled allocator's heap, so -Xmx limits only what the benchmark allocates.
  explicit Coroutine(std::size_t stack_bytes);
  ~Coroutine();
  Coroutine(const Coroutine&) = delete;
  Coroutine& operator=(const Coroutine&) = delete;

  /// Prepares a fresh call of fn(arg) on the coroutine's stack; the previous
  /// call must have returned. fn must not let an exception escape.
  void start(void (*fn)(void*), void* arg);
  /// Runs the coroutine until it yields or fn returns.
  void resume();
  /// From inside fn: back to whoever resumed it.
  void yield();
  bool finished() const { return finished_; }

 private:
  static void trampoline(unsigned hi, unsigned lo);
  ucontext_t caller_{};
  ucontext_t callee_{};
  void* stack_ = nullptr;
  std::size_t size_ = 0;
  void (*fn_)(void*) = nullptr;
  void* arg_ = nullptr;
  bool finished_ = true;
};

}  // namespace benchmark::internal
