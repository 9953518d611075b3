// SPDX-License-Identifier: MIT
// Preemption detection: was a measured iteration disturbed by other work on the
// machine? The evidence is per worker thread, over its timed window: its CPU
// time against the window's wall time, and its involuntary context switches.
//
// What the flag means: "for part of this window a worker that wanted to run was
// not running". A worker is flagged when
//  - the scheduler took its CPU away more than a few times (involuntary switches
//    above kMaxSwitchesPerSecond of window, at least kMinSwitches), or
//  - it ran for less than kMinCpuWallRatio of its window and it did not block of
//    its own accord.
// A body that blocks (sleep, a lock, I/O: voluntary switches) is off the CPU by
// design, so for it a low CPU/wall ratio is no evidence and only involuntary
// switches count. Very short windows (single shot, below kMinRatioWindowNs) are
// judged by switches only: there the clock reads themselves skew the ratio.
// Host steal and load are recorded beside the flag, not part of it.
#pragma once

#include <cmh/result.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace cmh::stats {

inline constexpr double kMinCpuWallRatio = 0.9;
inline constexpr std::int64_t kMinSwitches = 2;
inline constexpr double kMaxSwitchesPerSecond = 10.0;
inline constexpr std::int64_t kMinRatioWindowNs = 1'000'000;

/// One measured iteration's evidence, over its workers.
struct IterationDisturbance {
  bool measured = false;          ///< the workers recorded CPU time and switches
  double cpu_wall = 0;            ///< the lowest CPU/wall ratio of a worker
  std::int64_t involuntary = 0;   ///< the most involuntary switches of a worker
  std::int64_t voluntary = 0;     ///< the most voluntary switches of a worker
  bool preempted = false;         ///< a worker had too many involuntary switches
  bool off_cpu = false;           ///< a non-blocking worker ran < kMinCpuWallRatio of its window
  bool blocking = false;          ///< a worker blocked of its own accord (its ratio is no evidence)
  bool disturbed() const { return preempted || off_cpu; }
};

/// The switch bound for a window of `window_ns`.
std::int64_t switch_bound(std::int64_t window_ns);

IterationDisturbance assess(const IterationResult& it);

/// One benchmark's measurement iterations (the forks that are aggregated).
struct DisturbanceSummary {
  int measured = 0;    ///< iterations with the evidence recorded
  int disturbed = 0;
  double lowest_cpu_wall = 1;
  double mean_cpu_wall = 1;   ///< over iterations of non-blocking workers' lowest ratio
  std::int64_t most_involuntary = 0;
  double most_steal = -1;     ///< highest host steal share of an iteration; < 0 unknown
  double most_load = -1;      ///< highest 1-minute load average seen; < 0 unknown
  /// Per fork, per measurement iteration (empty rows for forks without evidence).
  std::vector<std::vector<IterationDisturbance>> by_fork;
  /// The score is likely inflated by other work: at least a fifth of the iterations
  /// were disturbed, or the CPU/wall ratio averaged below kMinCpuWallRatio.
  bool likely_inflated() const;
};

DisturbanceSummary summarise_disturbance(const std::vector<const ForkResult*>& forks);

/// "3 of 10 measurement iterations disturbed (lowest CPU/wall 0.45, up to 312 involuntary
/// context switches, host steal up to 0.0 %, load up to 11.2)".
std::string describe(const DisturbanceSummary& s);

}  // namespace cmh::stats
