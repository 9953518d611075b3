// SPDX-License-Identifier: MIT
// HistogramStatistics: statistics over counted values (JMH's MultisetStatistics),
// built from a cmh::SampleHistogram of nanoseconds scaled into the output unit.
// Also the derived percentile metrics of sample-time mode (p0.00 ... p1.00).
#pragma once

#include <cmh/histogram.hpp>
#include <cmh/result.hpp>

#include "stats/statistics.hpp"

#include <array>
#include <string_view>
#include <utility>
#include <vector>

namespace cmh::stats {

class HistogramStatistics final : public Statistics {
 public:
  HistogramStatistics() = default;
  /// Each bucket's representative value divided by `nanos_per_unit`.
  HistogramStatistics(const SampleHistogram& histogram, double nanos_per_unit);
  /// (value, count) pairs in any order; zero counts are ignored.
  explicit HistogramStatistics(std::vector<std::pair<double, std::uint64_t>> counted);

  /// Adds every non-empty bucket of `histogram` (scaled) to the pool.
  void add(const SampleHistogram& histogram, double nanos_per_unit);

  std::uint64_t n() const override { return total_; }
  double sum() const override;
  double min() const override;
  double max() const override;
  double variance() const override;
  void for_each(const std::function<void(double, std::uint64_t)>& f) const override;

  /// The distinct values with their counts, ascending.
  const std::vector<std::pair<double, std::uint64_t>>& counted() const;

 protected:
  double value_at(std::uint64_t index) const override;

 private:
  void normalise() const;

  mutable std::vector<std::pair<double, std::uint64_t>> counted_;
  mutable std::vector<std::uint64_t> cumulative_;  // cumulative_[i] = counts up to and including i
  mutable bool normalised_ = true;
  std::uint64_t total_ = 0;
};

/// (label, percentile) of sample-time mode's derived metrics, in label order.
struct DerivedPercentile {
  std::string_view label;
  double percentile;
};
inline constexpr std::array<DerivedPercentile, 8> kDerivedPercentiles = {{{"p0.00", 0.0},
                                                                          {"p0.50", 50.0},
                                                                          {"p0.90", 90.0},
                                                                          {"p0.95", 95.0},
                                                                          {"p0.99", 99.0},
                                                                          {"p0.999", 99.9},
                                                                          {"p0.9999", 99.99},
                                                                          {"p1.00", 100.0}}};

/// Sample-time mode's derived secondaries of one pool: p0.00 ... p1.00 in `unit`.
std::vector<ScalarResult> derived_percentiles(const Statistics& stats, std::string_view unit);

}  // namespace cmh::stats
