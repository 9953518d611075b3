// SPDX-License-Identifier: MIT
// ListStatistics: sums in insertion order (as JMH does, so the last bits of a
// mean match), two-pass variance, and a sorted copy for order statistics.
#include "stats/nan.hpp"
#include "stats/list_statistics.hpp"

#include <algorithm>
#include <limits>
#include <utility>

namespace cmh::stats {
namespace {
}  // namespace

ListStatistics::ListStatistics(std::vector<double> values) : values_(std::move(values)) {}

void ListStatistics::add(double value) {
  values_.push_back(value);
  sorted_valid_ = false;
}

double ListStatistics::sum() const {
  double s = 0;
  for (double v : values_) s += v;
  return s;
}

double ListStatistics::min() const { return values_.empty() ? kNaN : sorted().front(); }
double ListStatistics::max() const { return values_.empty() ? kNaN : sorted().back(); }

double ListStatistics::variance() const {
  if (values_.empty()) return kNaN;
  if (values_.size() == 1) return 0.0;
  const double m = mean();
  double squares = 0;
  for (double v : values_) squares += (v - m) * (v - m);
  return squares / static_cast<double>(values_.size() - 1);
}

void ListStatistics::for_each(const std::function<void(double, std::uint64_t)>& f) const {
  const auto& s = sorted();
  for (std::size_t i = 0; i < s.size();) {
    std::size_t j = i;
    while (j < s.size() && s[j] == s[i]) ++j;
    f(s[i], j - i);
    i = j;
  }
}

double ListStatistics::value_at(std::uint64_t index) const { return sorted()[index]; }

const std::vector<double>& ListStatistics::sorted() const {
  if (!sorted_valid_) {
    sorted_ = values_;
    std::sort(sorted_.begin(), sorted_.end());
    sorted_valid_ = true;
  }
  return sorted_;
}

}  // namespace cmh::stats
