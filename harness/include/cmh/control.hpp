// SPDX-License-Identifier: MIT
// cmh::Control: lets a benchmark see where the measurement stands (JMH's
// Control). A benchmark that can block on another thread (ping-pong between
// group members) checks stop_measurement() to escape once the iteration is
// over, because its partner may already have stopped calling.
#pragma once

#include <atomic>

namespace cmh {

namespace detail {
struct ControlAccess;
}

class Control {
 public:
  Control() = default;
  Control(const Control&) = delete;
  Control& operator=(const Control&) = delete;

  /// True once this thread has entered the measured part of the iteration.
  bool start_measurement() const noexcept { return started_.load(std::memory_order_acquire); }
  /// True once the harness has ended the measured part of the iteration
  /// (every thread sees the same flag).
  bool stop_measurement() const noexcept {
    return stop_ != nullptr && stop_->load(std::memory_order_acquire);
  }

 private:
  friend struct detail::ControlAccess;
  std::atomic<bool> started_{false};
  const std::atomic<bool>* stop_ = nullptr;
};

namespace detail {
/// The engine's handle on a Control's flags.
struct ControlAccess {
  static void bind(Control& c, const std::atomic<bool>* stop) noexcept { c.stop_ = stop; }
  static void set_started(Control& c, bool on) noexcept {
    c.started_.store(on, std::memory_order_release);
  }
};
}  // namespace detail

}  // namespace cmh
