// SPDX-License-Identifier: MIT
// The robust estimate: what the benchmark's code costs per op when nothing else runs,
// beside JMH's score (which is what the machine gave it), with an interval meant to
// hold that undisturbed value at kRobustConfidence (docs/statistics.md).
//
// Its values, one per measurement iteration, come from the best evidence the run has:
//  - clean sub-windows (-subwin): the mean, per iteration, of the sub-windows in which
//    no worker was switched out, nor in the window before (detail/subwindow_log.hpp).
//    Used when at least half the iterations have one;
//  - otherwise, when the disturbance rule did not call the score likely inflated: the
//    iteration scores themselves (JMH's data);
//  - otherwise, for a body that does not block: its CPU time per op (cpu.time.norm, in
//    the primary's unit and mode): other work lengthens wall time, not CPU time;
//  - otherwise: the iterations the rule did not flag, if two or more; else the scores,
//    with a note that they are likely inflated.
// The estimate and interval are cluster_bootstrap()'s over those values, clustered by
// fork (one fork: by iteration, which cannot see fork-to-fork variance, and says so).
// From clean sub-windows, the interval is then widened on each side by the stall margin:
// the share of the clean time spent in stalls no evidence sees (timer ticks, hypervisor
// exits), measured as how far the clean windows' mean sits above their median. A quiet
// machine's value includes those stalls, and a load moves them in ways the evidence cannot
// tell: a tick that switches the thread out takes its stall out of the clean windows with
// it (the estimate falls), and other CPUs' work adds slow windows that look clean (it rises).
#pragma once

#include <cmh/result.hpp>

#include "stats/cluster_bootstrap.hpp"
#include "stats/disturbance.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cmh::stats {

/// The level of the robust interval. Not JMH's 99.9 %: with 3 forks, t(2) at 99.9 % is
/// 31.6, an interval too wide to say anything; at 95 % it is 4.30.
inline constexpr double kRobustConfidence = 0.95;

/// At least this share of the measurement iterations need a clean sub-window mean.
inline constexpr double kMinCleanIterationShare = 0.5;

enum class RobustMethod { clean_subwindows, iteration_scores, cpu_time, undisturbed_iterations };

/// "cleanSubwindows", "iterationScores", "cpuTime", "undisturbedIterations".
const char* json_name(RobustMethod m);
/// "clean sub-windows (mean)", "iteration scores", "CPU time per op", "undisturbed iterations".
const char* describe(RobustMethod m);

/// What chose the method, and what the estimate is made of.
struct RobustEvidence {
  int iterations = 0;              ///< measurement iterations of the aggregated forks
  int iterations_used = 0;         ///< with a value of the chosen method
  int clean_iterations = 0;        ///< with a clean sub-window mean
  std::int64_t subwindows = 0;     ///< recorded, all iterations and threads
  std::int64_t rejected = 0;       ///< of those, left out (switched out, or the window after)
  std::int64_t corrected = 0;      ///< kept, though switched out: without their run-queue wait
  std::int64_t length_ns = 0;      ///< the sub-window target length (-subwin auto as resolved)
  std::uint8_t window_evidence = 0;  ///< detail::WindowEvidence
  int disturbed = 0;               ///< iterations the disturbance rule flagged
  int measured = 0;                ///< iterations with its evidence
  bool likely_inflated = false;    ///< the rule's warning
  bool blocking = false;           ///< a worker blocked of its own accord
};

struct RobustEstimate {
  bool available = false;  ///< false: no measurement iterations
  RobustMethod method = RobustMethod::iteration_scores;
  double confidence = kRobustConfidence;
  double score = 0;        ///< in the primary's unit and mode
  double low = 0, high = 0;  ///< NaN with fewer than 2 clusters
  int clusters = 0;
  bool by_fork = true;     ///< clustered by fork; false: by iteration (one fork)
  /// Relative spread of the clusters' medians (by fork: the drift between forks).
  double cluster_spread = 0;
  /// The stall margin, relative to |score|: the median over iterations of the clean
  /// windows' (mean - median) / median, in time; already in low and high. 0 unless the
  /// method is clean_subwindows.
  double stall_share = 0;
  /// The values it is made of: per fork, per iteration (rawData for cmh-compare).
  std::vector<std::vector<double>> raw_by_fork;
  RobustEvidence evidence;
  std::string note;  ///< why this method, and what the interval cannot see; may be empty
  /// Half the interval's width over |score|; NaN without an interval.
  double relative_half_width() const;
  /// The same without the stall margin: the part more forks can narrow (-prec X:robust).
  double relative_statistical_half_width() const;
};

/// From the measurement iterations of `forks` (the aggregated ones, in order), the
/// primary's per-iteration scores `primary_by_fork` (AggregatedMetric::raw_by_fork) and
/// the disturbance summary of the same forks.
RobustEstimate robust_estimate(const BenchmarkParams& params, const std::vector<const ForkResult*>& forks,
                               const std::vector<std::vector<double>>& primary_by_fork, const DisturbanceSummary& d);

/// The interval part on values already chosen: estimate and interval clustered by fork,
/// or by iteration when only one fork has values. Fills score, low, high, clusters,
/// by_fork, cluster_spread and raw_by_fork.
void interval_over(std::vector<std::vector<double>> values_by_fork, RobustEstimate& out);

/// The stall share of clean sub-windows from each iteration's clean mean and median (both
/// scores in `mode`): the median over iterations of mean/median - 1 in time, at least 0;
/// 0 when no iteration has both.
double stall_share(BenchmarkMode mode, const std::vector<const ForkResult*>& forks);

/// Widens an interval made by interval_over() by `share` of |score| on each side.
void add_stall_margin(double share, RobustEstimate& out);

}  // namespace cmh::stats
