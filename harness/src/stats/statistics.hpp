// SPDX-License-Identifier: MIT
// Statistics over a pool of observations, as JMH's Statistics interface: count,
// sum, mean, extremes, sample variance, percentiles with commons-math's legacy
// estimator, the 99.9 % Student t error and confidence interval, and the
// histogram bins of the distribution block. Two implementations: ListStatistics
// (one value per observation) and HistogramStatistics (values with counts).
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace cmh::stats {

/// JMH's confidence level for every score error and interval.
inline constexpr double kConfidence = 0.999;

/// One bin of a distribution: observations in [lo, hi).
struct DistributionBin {
  double lo = 0;
  double hi = 0;
  std::uint64_t count = 0;
};

class Statistics {
 public:
  virtual ~Statistics() = default;

  virtual std::uint64_t n() const = 0;
  virtual double sum() const = 0;
  /// NaN when empty.
  virtual double min() const = 0;
  virtual double max() const = 0;
  /// Sample variance (N-1 denominator); 0 for one observation, NaN for none.
  virtual double variance() const = 0;

  /// NaN when empty.
  double mean() const;
  double stdev() const;

  /// Commons-math's legacy estimator over the sorted observations: pos = p(n+1)/100,
  /// linear interpolation between neighbours, clamped to min/max; p = 0 gives min.
  /// `p` is in [0, 100]. NaN when empty.
  double percentile(double p) const;

  /// Half-width of the two-sided Student t interval at `confidence` with n-1 degrees
  /// of freedom: t * s / sqrt(n). NaN for n <= 2, as JMH.
  double mean_error_at(double confidence) const;
  /// [mean - error, mean + error]; both NaN for n <= 2.
  std::pair<double, double> confidence_interval_at(double confidence) const;

  /// Bins for the distribution block: a round bin width (a power of ten, halved until
  /// there are at least `min_bins` bins) spanning [min, max]. Every observation falls
  /// into exactly one bin. A single bin when all observations are equal; empty if none.
  std::vector<DistributionBin> histogram(int min_bins = 10) const;

  /// Calls f(value, count) for every distinct value, ascending.
  virtual void for_each(const std::function<void(double, std::uint64_t)>& f) const = 0;

 protected:
  /// The observation at 0-based `index` of the sorted pool (index < n()).
  virtual double value_at(std::uint64_t index) const = 0;
};

}  // namespace cmh::stats
