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
//    preempted iterations cannot drag.
#pragma once

#include <cmh/result.hpp>

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

}  // namespace cmh::stats
