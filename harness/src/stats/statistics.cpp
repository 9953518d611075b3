// SPDX-License-Identifier: MIT
// The parts of Statistics shared by lists and histograms: mean, the legacy
// percentile estimator, the Student t error and interval, distribution bins.
#include "stats/nan.hpp"
#include "stats/statistics.hpp"

#include "stats/student_t.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cmh::stats {
namespace {
}  // namespace

double Statistics::mean() const {
  const auto count = n();
  return count == 0 ? kNaN : sum() / static_cast<double>(count);
}

double Statistics::stdev() const { return std::sqrt(variance()); }

double Statistics::percentile(double p) const {
  const std::uint64_t count = n();
  if (count == 0 || !(p >= 0.0 && p <= 100.0)) return kNaN;
  if (p == 0.0) return min();
  const double pos = p * (static_cast<double>(count) + 1.0) / 100.0;
  if (pos < 1.0) return value_at(0);
  if (pos >= static_cast<double>(count)) return value_at(count - 1);
  const double floor_pos = std::floor(pos);
  const auto upper_index = static_cast<std::uint64_t>(floor_pos);  // 1-based lower == 0-based upper
  const double lower = value_at(upper_index - 1);
  const double upper = value_at(upper_index);
  return lower + (pos - floor_pos) * (upper - lower);
}

double Statistics::mean_error_at(double confidence) const {
  const std::uint64_t count = n();
  if (count <= 2) return kNaN;
  const double t = student_t_critical(confidence, count - 1);
  return t * stdev() / std::sqrt(static_cast<double>(count));
}

std::pair<double, double> Statistics::confidence_interval_at(double confidence) const {
  const double error = mean_error_at(confidence);
  if (std::isnan(error)) return {kNaN, kNaN};
  const double m = mean();
  return {m - error, m + error};
}

std::vector<DistributionBin> Statistics::histogram(int min_bins) const {
  std::vector<DistributionBin> bins;
  if (n() == 0) return bins;
  const double lo = min();
  const double hi = max();
  if (!std::isfinite(lo) || !std::isfinite(hi)) return bins;
  if (!(hi > lo)) {
    bins.push_back({lo, std::nextafter(lo, std::numeric_limits<double>::infinity()), n()});
    return bins;
  }
  // A round width: the power of ten below the range, halved until the bins are fine enough.
  double width = std::pow(10.0, std::floor(std::log10(hi - lo)));
  const double start = std::floor(lo / width) * width;
  const double end = std::ceil(hi / width) * width;
  while ((end - start) / width < static_cast<double>(std::max(min_bins, 1))) width /= 2.0;
  auto bin_count = static_cast<std::size_t>(std::ceil((end - start) / width));
  // The top bin must hold the maximum itself ([lo, hi) is half-open).
  while (start + static_cast<double>(bin_count) * width <= hi) ++bin_count;
  bins.resize(bin_count);
  for (std::size_t i = 0; i < bin_count; ++i) {
    bins[i].lo = start + static_cast<double>(i) * width;
    bins[i].hi = start + static_cast<double>(i + 1) * width;
  }
  for_each([&](double value, std::uint64_t count) {
    auto index = static_cast<std::ptrdiff_t>(std::floor((value - start) / width));
    // Rounding at a bin edge can be off by one either way; the edges decide.
    index = std::clamp<std::ptrdiff_t>(index, 0, static_cast<std::ptrdiff_t>(bin_count) - 1);
    while (index > 0 && value < bins[static_cast<std::size_t>(index)].lo) --index;
    while (index + 1 < static_cast<std::ptrdiff_t>(bin_count) &&
           value >= bins[static_cast<std::size_t>(index)].hi)
      ++index;
    bins[static_cast<std::size_t>(index)].count += count;
  });
  return bins;
}

}  // namespace cmh::stats
