// SPDX-License-Identifier: MIT
// Preemption detection: was a measured iteration disturbed by other work on the
// machine? The evidence, over each worker's timed window: its CPU time against the
// window's wall time, its run-queue wait (time it was ready to run but had no CPU),
// its context switches; and per iteration the share of the process's allowed CPUs
// that other processes used, and the share that was idle.
//
// What the flag means: "for part of this window a worker that wanted to run was
// not running, because of other work". The rule:
//  - Own threads only: when other processes used less than kMinOthersShare of the
//    process's CPUs, nothing is flagged. A body running more threads than there are
//    CPUs, or starting and joining threads of its own, waits for itself.
//  - A worker that does not block is flagged when it waited more than kMaxWaitShare
//    of its runnable time (CPU time plus run-queue wait), or when it ran less than
//    kMinCpuWallRatio of its window (windows of at least kMinRatioWindowNs: below it
//    the clock reads themselves skew the ratio). Where the wait is unknown, its
//    involuntary switches above switch_bound() flag it instead.
//  - A body that blocks of its own accord (more voluntary switches than the bound and
//    than involuntary ones: sleep, a lock, joining a thread) is off the CPU by design,
//    and its waits and involuntary switches mix foreign load with hand-offs between
//    its own threads. It is judged by its CPUs: flagged when they were crowded, less
//    than kMaxCrowdedIdle idle while other processes used at least kMinOthersShare.
//    Where the shares are unknown (iterations shorter than kMinShareTicks ticks per
//    CPU) it is judged like a worker that does not block: its wait, else its switches.
// Host steal and load are recorded beside the flag; steal counts as other work.
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
inline constexpr double kMaxWaitShare = 0.10;
inline constexpr double kMinOthersShare = 0.10;
inline constexpr double kMaxCrowdedIdle = 0.10;

/// One measured iteration's evidence, over its workers.
struct IterationDisturbance {
  bool measured = false;          ///< the workers recorded CPU time and switches
  double cpu_wall = 0;            ///< the lowest CPU/wall ratio of a worker
  std::int64_t involuntary = 0;   ///< the most involuntary switches of a worker
  std::int64_t voluntary = 0;     ///< the most voluntary switches of a worker
  std::int64_t cpu_ns = 0;        ///< CPU time and window of the worker with the lowest ratio
  std::int64_t window_ns = 0;
  double wait_share = -1;         ///< the highest run-queue wait / runnable time of a worker; < 0 unknown
  double others_share = -1;       ///< others' share of the process's CPUs; < 0 unknown
  double idle_share = -1;         ///< idle share of the process's CPUs; < 0 unknown
  bool preempted = false;         ///< a worker without a known wait had too many involuntary switches
  bool off_cpu = false;           ///< a non-blocking worker ran < kMinCpuWallRatio of its window
  bool waited = false;            ///< a worker judged on its wait waited > kMaxWaitShare of its runnable time
  bool crowded = false;           ///< a blocking worker's CPUs were crowded by other processes
  bool blocking = false;          ///< a worker blocked of its own accord (its ratio is no evidence)
  bool own_threads_only = false;  ///< others used < kMinOthersShare of the CPUs: nothing is flagged
  bool disturbed() const { return !own_threads_only && (preempted || off_cpu || waited || crowded); }
};

/// The switch bound for a window of `window_ns`.
std::int64_t switch_bound(std::int64_t window_ns);

IterationDisturbance assess(const IterationResult& it);

/// The rule in one sentence, for the JSON's `rule` and docs/statistics.md.
std::string rule_text();

/// "CPU/wall 0.45, waited 48 % of its runnable time, others used 51 % of its CPUs, 12
/// involuntary context switches": one disturbed iteration's evidence, unknown parts left out.
std::string describe(const IterationDisturbance& d);

/// One benchmark's measurement iterations (the forks that are aggregated).
struct DisturbanceSummary {
  int measured = 0;    ///< iterations with the evidence recorded
  int disturbed = 0;
  double lowest_cpu_wall = 1;
  double mean_cpu_wall = 1;   ///< over iterations of non-blocking workers' lowest ratio, others present
  double most_wait = -1;      ///< highest wait share of an iteration; < 0 unknown
  double most_others = -1;    ///< highest others' share of an iteration; < 0 unknown
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
/// context switches in a thread's window, waited up to 48 % of its runnable time, others used
/// up to 51 % of its CPUs, host steal up to 0.0 %, load average up to 11.20)".
std::string describe(const DisturbanceSummary& s);

}  // namespace cmh::stats
