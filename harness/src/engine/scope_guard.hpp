// SPDX-License-Identifier: MIT
// ScopeGuard: calls its function once when the scope that holds it is left, by a
// return or by an exception. Trial destroys a trial's states with one, so that no
// way out of a trial can forget them. (std::experimental::scope_exit is not in
// Debian 12's libstdc++ 12, and the harness needs only this much of it.)
#pragma once

#include <utility>

namespace cmh::engine {

template <class OnExit>
class ScopeGuard {
 public:
  explicit ScopeGuard(OnExit on_exit) : on_exit_(std::move(on_exit)) {}
  ScopeGuard(const ScopeGuard&) = delete;
  ScopeGuard& operator=(const ScopeGuard&) = delete;
  /// A destructor is noexcept: `on_exit` that throws ends the process.
  ~ScopeGuard() { on_exit_(); }

 private:
  OnExit on_exit_;
};

}  // namespace cmh::engine
