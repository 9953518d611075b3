// SPDX-License-Identifier: MIT
// HistogramStatistics: order statistics over counted values by a binary search
// in the cumulative counts, so a million samples cost as much as their buckets.
#include "stats/nan.hpp"
#include "stats/histogram_statistics.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace cmh::stats {
namespace {
}  // namespace

HistogramStatistics::HistogramStatistics(const SampleHistogram& histogram, double nanos_per_unit) {
  add(histogram, nanos_per_unit);
}

HistogramStatistics::HistogramStatistics(std::vector<std::pair<double, std::uint64_t>> counted)
    : counted_(std::move(counted)), normalised_(false) {
  for (const auto& [value, count] : counted_) total_ += count;
}

void HistogramStatistics::add(const SampleHistogram& histogram, double nanos_per_unit) {
  histogram.for_each([&](double value, std::uint64_t count) {
    counted_.emplace_back(value / nanos_per_unit, count);
    total_ += count;
  });
  normalised_ = false;
}

void HistogramStatistics::normalise() const {
  if (normalised_) return;
  std::sort(counted_.begin(), counted_.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  // Merge equal values (several histograms pooled) and drop empty entries.
  std::size_t out = 0;
  for (std::size_t i = 0; i < counted_.size(); ++i) {
    if (counted_[i].second == 0) continue;
    if (out > 0 && counted_[out - 1].first == counted_[i].first) {
      counted_[out - 1].second += counted_[i].second;
    } else {
      counted_[out++] = counted_[i];
    }
  }
  counted_.resize(out);
  cumulative_.resize(out);
  std::uint64_t running = 0;
  for (std::size_t i = 0; i < out; ++i) cumulative_[i] = running += counted_[i].second;
  normalised_ = true;
}

const std::vector<std::pair<double, std::uint64_t>>& HistogramStatistics::counted() const {
  normalise();
  return counted_;
}

double HistogramStatistics::sum() const {
  double s = 0;
  for (const auto& [value, count] : counted()) s += value * static_cast<double>(count);
  return s;
}

double HistogramStatistics::min() const { return total_ == 0 ? kNaN : counted().front().first; }
double HistogramStatistics::max() const { return total_ == 0 ? kNaN : counted().back().first; }

double HistogramStatistics::variance() const {
  if (total_ == 0) return kNaN;
  if (total_ == 1) return 0.0;
  const double m = mean();
  double squares = 0;
  for (const auto& [value, count] : counted()) squares += static_cast<double>(count) * (value - m) * (value - m);
  return squares / static_cast<double>(total_ - 1);
}

void HistogramStatistics::for_each(const std::function<void(double, std::uint64_t)>& f) const {
  for (const auto& [value, count] : counted()) f(value, count);
}

double HistogramStatistics::value_at(std::uint64_t index) const {
  normalise();
  // The first entry whose cumulative count exceeds the index holds it.
  const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), index);
  return counted_[static_cast<std::size_t>(it - cumulative_.begin())].first;
}

std::vector<ScalarResult> derived_percentiles(const Statistics& stats, std::string_view unit) {
  std::vector<ScalarResult> out;
  out.reserve(kDerivedPercentiles.size());
  for (const auto& d : kDerivedPercentiles)
    out.push_back({std::string(d.label), stats.percentile(d.percentile), std::string(unit),
                   AggregationPolicy::average});
  return out;
}

}  // namespace cmh::stats
