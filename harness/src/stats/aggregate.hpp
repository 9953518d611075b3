// SPDX-License-Identifier: MIT
// Aggregation of a benchmark's results into JMH's scores: pooled iterations of
// all forks, score by aggregation policy, 99.9 % Student t error, percentiles.
// Shared by the console report (report/) and the result files (formats/).
#pragma once

#include <cmh/result.hpp>

#include "stats/disturbance.hpp"
#include "stats/robust_estimate.hpp"
#include "stats/robust_interval.hpp"
#include "stats/statistics.hpp"

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cmh::stats {

/// JMH's JSON percentile keys, in order: 0, 50, 90, 95, 99, 99.9, 99.99, 99.999, 99.9999, 100.
inline constexpr std::array<double, 10> kJsonPercentiles = {0.0,  50.0,   90.0,    95.0,     99.0,
                                                            99.9, 99.99, 99.999, 99.9999, 100.0};

struct AggregatedMetric {
  std::string label;  ///< primary: the benchmark's full name; secondary: "alloc.rate.norm"
  std::string unit;
  AggregationPolicy policy = AggregationPolicy::average;
  std::uint64_t n = 0;  ///< samples pooled (iterations, or histogram counts in sample mode)
  double score = 0;
  double error = 0;     ///< NaN unless policy is average and n > 2
  std::pair<double, double> confidence{0, 0};
  double min = 0, mean = 0, max = 0, stdev = 0;
  std::array<double, 10> percentiles{};  ///< at kJsonPercentiles
  /// One inner vector per fork, one value per measurement iteration.
  std::vector<std::vector<double>> raw_by_fork;
  /// Sample mode only: per fork, per iteration, (value in unit, count) pairs.
  std::vector<std::vector<std::vector<std::pair<double, std::uint64_t>>>> raw_histograms;
  /// Sample/single-shot distribution block: histogram bins (lo, hi, count) in the unit.
  bool has_distribution = false;
  /// The bins of that block (empty unless has_distribution), at least 10 when the values differ.
  std::vector<DistributionBin> distribution;
};

struct AggregatedBenchmark {
  const BenchmarkRunResult* run = nullptr;
  AggregatedMetric primary;
  std::vector<AggregatedMetric> secondaries;  ///< sorted by label
  /// cmh's own figures beside JMH's (stats/time_per_op.hpp, stats/disturbance.hpp):
  /// CPU time per op, whole-process time per op, and the preemption evidence.
  std::optional<AggregatedMetric> cpu_time;
  std::optional<AggregatedMetric> total_time;
  DisturbanceSummary disturbance;
  /// The primary's fork-aware interval and robust score (stats/robust_interval.hpp).
  ForkInterval fork_interval;
  double median = 0;
  std::optional<SubwindowMedian> subwindow;  ///< -subwin's median of sub-windows
  RobustEstimate robust;  ///< the undisturbed cost per op and its interval (stats/robust_estimate.hpp)
  bool has_results() const { return primary.n > 0; }
};

/// Pools the measurement iterations of every completed measurement fork of `run`
/// (warmup iterations, warmup forks and forks that failed are left out) into JMH's
/// primary and secondary results. Sample-time mode pools all samples (N = samples)
/// and adds the derived secondaries p0.00 ... p1.00.
AggregatedBenchmark aggregate(const BenchmarkRunResult& run);

/// Fills n, score (by `metric.policy`), error, confidence, min/mean/max/stdev and the
/// percentiles of `metric` from `stats`; NaN throughout when `stats` is empty.
void summarise(const Statistics& stats, AggregatedMetric& metric);

}  // namespace cmh::stats
