// SPDX-License-Identifier: MIT
// Error bars that account for the noise a busy machine adds, beside JMH's
// interval (which pools every iteration of every fork as if they were
// independent, so fork-to-fork variance is invisible to it):
//  - the fork-aware interval: hierarchical, over fork means. Each completed fork's
//    mean score is one observation; the interval is the two-sided Student t
//    interval over those F means at JMH's 99.9 %, F-1 degrees of freedom. The
//    variance of fork means contains both the within-fork and the between-fork
//    variance, so a slow fork widens it as it should. It needs two forks.
//  - a robust score: the median of the pooled iteration scores, which a few
//    preempted iterations cannot drag;
//  - with -subwin, the sub-window median: each iteration is also timed in short
//    sub-windows (about the -subwin length), the iteration's score is their median
//    per op, and the benchmark's is the median over iterations. Preemption hits a few
//    sub-windows hard rather than every iteration a little, so the median skips it.
#pragma once

#include <cmh/result.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cmh::stats {

inline constexpr const char* kForkIntervalMethod = "t over fork means (99.9 %, forks-1 df)";

struct ForkInterval {
  int forks = 0;           ///< fork means it is computed from
  double score = 0;        ///< mean of the fork means (NaN without forks)
  double error = 0;        ///< half-width; NaN with fewer than 2 forks
  std::pair<double, double> confidence{0, 0};
};

/// From the per-fork iteration scores (AggregatedMetric::raw_by_fork); empty forks are skipped.
ForkInterval fork_interval(const std::vector<std::vector<double>>& scores_by_fork);

/// Median of all values (the mean of the middle two for an even count); NaN when empty.
double median_of(const std::vector<std::vector<double>>& scores_by_fork);

/// The same over [first, last), reordering it; no allocation (the fork runs it between
/// the profilers' iteration edges). NaN when empty.
double median_in_place(double* first, double* last);

/// The arithmetic mean of [first, last); NaN when empty.
double mean_of(const double* first, const double* last);

inline constexpr const char* kSubwindowMethod = "median over iterations of each iteration's median sub-window";

/// -subwin's figure over the aggregated forks' measurement iterations.
struct SubwindowMedian {
  double score = 0;             ///< median over iterations; in the primary's unit
  std::int64_t subwindows = 0;  ///< recorded over all iterations and threads
  int iterations = 0;           ///< iterations with a sub-window median
  std::int64_t target_ns = 0;   ///< the -subwin length
};

/// nullopt when no iteration has a sub-window median (-subwin off, or not applicable).
std::optional<SubwindowMedian> subwindow_median(const BenchmarkParams& params,
                                                const std::vector<const ForkResult*>& forks);

}  // namespace cmh::stats
