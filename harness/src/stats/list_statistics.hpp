// SPDX-License-Identifier: MIT
// ListStatistics: statistics over a plain list of observations, one value each
// (per-iteration scores of all forks, pooled; a secondary metric's values).
#pragma once

#include "stats/statistics.hpp"

#include <vector>

namespace cmh::stats {

class ListStatistics final : public Statistics {
 public:
  ListStatistics() = default;
  explicit ListStatistics(std::vector<double> values);

  void add(double value);

  std::uint64_t n() const override { return values_.size(); }
  double sum() const override;
  double min() const override;
  double max() const override;
  double variance() const override;
  void for_each(const std::function<void(double, std::uint64_t)>& f) const override;

  /// The observations in the order they were added.
  const std::vector<double>& values() const { return values_; }

 protected:
  double value_at(std::uint64_t index) const override;

 private:
  const std::vector<double>& sorted() const;

  std::vector<double> values_;
  mutable std::vector<double> sorted_;  // built on first use, dropped by add()
  mutable bool sorted_valid_ = false;
};

}  // namespace cmh::stats
