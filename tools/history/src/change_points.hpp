// SPDX-License-Identifier: MIT
// Change points of one series: candidates from a deterministic E-divisive-means split
// of the runs' scores, each confirmed on the raw samples of the runs on either side
// with cmh-compare's own comparison (Mann-Whitney U decides, Welch's t is reported,
// Fieller's interval for the ratio) and a minimum effect size (docs/history.md).
#pragma once

#include "store.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cmh::history {

struct DetectOptions {
  double alpha = 0.001;      ///< Mann-Whitney U must be below it (Hunter's level)
  double min_effect = 0.05;  ///< |new/old - 1| below it is not a change (Hunter's 5 %)
};

struct ChangePoint {
  std::size_t index = 0;        ///< the first point after the change
  std::string direction;        ///< "regression" or "improvement" (following the metric: higher throughput is better)
  double effect = 0;            ///< new/old - 1 of the segments' means
  double lo = 0, hi = 0;        ///< its interval at 1 - alpha (Fieller), equal to effect for exact metrics
  bool bounded = false;
  std::optional<double> p_welch, p_mann_whitney;  ///< absent for exact metrics (no test: any change is one)
  std::string samples;          ///< what the tests ran on: forks, iterations, repetitions, exact
  std::size_t runs_before = 0, runs_after = 0;
  /// Environment fields outside the fingerprint that changed at this point (kernel,
  /// governor, tool version): candidate explanations.
  std::vector<std::string> environment_changes;
  /// What decided: Mann-Whitney U's p (Welch's when U has no samples to run on).
  std::optional<double> p() const;
};

/// The change points of `series`, in order. Deterministic: the same store gives the same answer.
std::vector<ChangePoint> detect_changes(const Series& series, const DetectOptions& options);

/// E-divisive means: the split of values[begin, end) with the largest energy
/// statistic, among the positions `allowed` marks; nullopt when none is allowed.
struct Split {
  std::size_t at = 0;
  double q = 0;
};
std::optional<Split> best_split(const std::vector<double>& values, std::size_t begin, std::size_t end,
                                const std::vector<bool>& allowed);

/// "kernel: 6.1.0-18 -> 6.1.0-21" for each field outside the fingerprint that differs.
std::vector<std::string> environment_differences(const std::map<std::string, std::string>& before,
                                                 const std::map<std::string, std::string>& after);

}  // namespace cmh::history
