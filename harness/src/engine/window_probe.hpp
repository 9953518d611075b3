// SPDX-License-Identifier: MIT
// -subwin auto: the sub-window length this process can afford, from what a window's
// clock read and descheduling check cost here (subwindow_log.hpp).
#pragma once

#include <cstdint>

namespace cmh::engine {

/// What one sub-window's bookkeeping costs on this machine, measured (best of a few
/// rounds, so that a preemption during calibration does not inflate it).
struct WindowCost {
  double clock_ns = 0;  ///< one steady-clock read
  double probe_ns = 0;  ///< one descheduling check (rseq word, or getrusage)
  std::uint8_t evidence = 0;  ///< detail::WindowEvidence of the calling thread
};
WindowCost measure_window_cost() noexcept;

/// The auto length: kAutoCostRatio times the cost of a window's bookkeeping, so that it
/// is at most 0.1 % of each window, within [kAutoMinNs, kAutoMaxNs], rounded up to 1 µs.
inline constexpr double kAutoCostRatio = 1000;
inline constexpr std::int64_t kAutoMinNs = 10'000;
inline constexpr std::int64_t kAutoMaxNs = 1'000'000;
std::int64_t auto_subwindow_ns(const WindowCost& cost) noexcept;

}  // namespace cmh::engine
