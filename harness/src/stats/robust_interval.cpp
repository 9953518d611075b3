// SPDX-License-Identifier: MIT
// fork_interval() and median_of(): see robust_interval.hpp.
#include "stats/robust_interval.hpp"

#include "stats/list_statistics.hpp"
#include "stats/statistics.hpp"
#include "stats/student_t.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cmh::stats {

ForkInterval fork_interval(const std::vector<std::vector<double>>& scores_by_fork) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  ListStatistics means;
  for (const auto& fork : scores_by_fork) {
    if (fork.empty()) continue;
    double sum = 0;
    for (double v : fork) sum += v;
    means.add(sum / static_cast<double>(fork.size()));
  }
  ForkInterval out;
  out.forks = static_cast<int>(means.n());
  out.score = means.n() > 0 ? means.mean() : kNaN;
  if (means.n() < 2) {
    out.error = kNaN;
    out.confidence = {kNaN, kNaN};
    return out;
  }
  out.error = student_t_critical(kConfidence, means.n() - 1) * means.stdev() / std::sqrt(static_cast<double>(means.n()));
  out.confidence = {out.score - out.error, out.score + out.error};
  return out;
}

double median_in_place(double* first, double* last) {
  const std::ptrdiff_t n = last - first;
  if (n <= 0) return std::numeric_limits<double>::quiet_NaN();
  double* mid = first + n / 2;
  std::nth_element(first, mid, last);
  if (n % 2 == 1) return *mid;
  return (*std::max_element(first, mid) + *mid) / 2.0;
}

double mean_of(const double* first, const double* last) {
  const std::ptrdiff_t n = last - first;
  if (n <= 0) return std::numeric_limits<double>::quiet_NaN();
  double sum = 0;
  for (const double* p = first; p != last; ++p) sum += *p;
  return sum / static_cast<double>(n);
}

std::optional<SubwindowMedian> subwindow_median(const BenchmarkParams& params,
                                                const std::vector<const ForkResult*>& forks) {
  std::vector<double> medians;
  SubwindowMedian out;
  for (const ForkResult* fork : forks)
    for (const auto& it : fork->measurement) {
      if (std::isnan(it.subwindow_median) || it.subwindows <= 0) continue;
      medians.push_back(it.subwindow_median);
      out.subwindows += it.subwindows;
      out.target_ns = std::max(out.target_ns, it.subwindow_length_ns);  // -subwin auto: as resolved
    }
  if (medians.empty()) return std::nullopt;
  out.iterations = static_cast<int>(medians.size());
  out.score = median_in_place(medians.data(), medians.data() + medians.size());
  if (out.target_ns == 0) out.target_ns = params.subwindow.count();
  return out;
}

double median_of(const std::vector<std::vector<double>>& scores_by_fork) {
  std::vector<double> all;
  for (const auto& fork : scores_by_fork) all.insert(all.end(), fork.begin(), fork.end());
  if (all.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(all.begin(), all.end());
  const std::size_t mid = all.size() / 2;
  return all.size() % 2 == 1 ? all[mid] : (all[mid - 1] + all[mid]) / 2.0;
}

}  // namespace cmh::stats
