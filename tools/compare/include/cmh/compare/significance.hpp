// SPDX-License-Identifier: MIT
// The tests cmh-compare runs on two samples: Welch's t, Mann-Whitney U, and a
// confidence interval for the ratio of means (Fieller's theorem). Distributions
// (Student t, normal) come from Boost.Math; the exact null distribution of U is a
// count of rank arrangements, computed here.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cmh::compare {

/// What a test needs of one side: its mean, variance and size.
struct Moments {
  double mean = 0;
  double variance = 0;  ///< sample variance (n - 1 denominator)
  double n = 0;
};
Moments moments_of(const std::vector<double>& values);

struct WelchResult {
  double t = 0;
  double df = 0;
  double p = 1;  ///< two-sided
};
/// Welch's unequal-variances t test of mean(b) - mean(a); nullopt when a side has n < 2.
/// Zero variance on both sides: p = 1 for equal means, 0 otherwise.
std::optional<WelchResult> welch_t_test(const Moments& a, const Moments& b);

struct MannWhitneyResult {
  double u = 0;         ///< U of the first sample (scipy's U1)
  double p = 1;         ///< two-sided
  std::string method;   ///< "exact" or "normal"
};
/// Two-sided Mann-Whitney U. Exact null distribution when there are no ties and
/// n1 * n2 <= kExactLimit; otherwise the normal approximation with the tie
/// correction and a continuity correction (scipy.stats.mannwhitneyu's "asymptotic").
std::optional<MannWhitneyResult> mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);
inline constexpr double kExactLimit = 400;

struct RatioInterval {
  double ratio = 0;       ///< mean(b) / mean(a)
  double lo = 0, hi = 0;  ///< valid when bounded
  bool bounded = false;   ///< false when mean(a) is not distinguishable from 0 at this level
  double df = 0;
};
/// Fieller's interval for mean(b) / mean(a) from independent samples, at confidence
/// `level`, with Welch-Satterthwaite degrees of freedom for b - ratio * a.
std::optional<RatioInterval> fieller_ratio(const Moments& a, const Moments& b, double level);

}  // namespace cmh::compare
