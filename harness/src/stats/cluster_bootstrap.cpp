// SPDX-License-Identifier: MIT
// cluster_bootstrap(): see cluster_bootstrap.hpp.
#include "stats/cluster_bootstrap.hpp"

#include "stats/nan.hpp"
#include "stats/robust_interval.hpp"
#include "stats/student_t.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace cmh::stats {
namespace {

std::vector<double> cluster_medians(const std::vector<std::vector<double>>& clusters) {
  std::vector<double> medians;
  std::vector<double> scratch;
  for (const auto& c : clusters) {
    if (c.empty()) continue;
    scratch.assign(c.begin(), c.end());
    medians.push_back(median_in_place(scratch.data(), scratch.data() + scratch.size()));
  }
  return medians;
}

double mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? kNaN : sum / static_cast<double>(v.size());
}

double sample_sd(const std::vector<double>& v, double centre) {
  if (v.size() < 2) return kNaN;
  double ss = 0;
  for (double x : v) ss += (x - centre) * (x - centre);
  return std::sqrt(ss / static_cast<double>(v.size() - 1));
}

/// The resamples' q-quantile, linear between order statistics (q in [0, 1]).
double quantile_sorted(const std::vector<double>& sorted, double q) {
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

/// The least standard error the clusters' own members allow: a cluster's median of n
/// members varies at least as a median of n draws with the pooled within-cluster SD (about
/// pi/2 times the variance of their mean), whatever the spread between clusters happens to
/// be. 0 when no cluster has two members.
struct Floor {
  double standard_error = 0;
  double df = 0;  ///< degrees of freedom of the pooled within-cluster variance
};

Floor within_floor(const std::vector<std::vector<double>>& clusters, std::size_t g) {
  double ss = 0, df = 0, inverse_n = 0;
  for (const auto& c : clusters) {
    if (c.empty()) continue;
    inverse_n += 1.0 / static_cast<double>(c.size());
    if (c.size() < 2) continue;
    double m = 0;
    for (double x : c) m += x;
    m /= static_cast<double>(c.size());
    for (double x : c) ss += (x - m) * (x - m);
    df += static_cast<double>(c.size() - 1);
  }
  if (df == 0) return {};
  const double harmonic_n = static_cast<double>(g) / inverse_n;
  constexpr double kHalfPi = 1.5707963267948966;
  return {std::sqrt(kHalfPi * (ss / df) / harmonic_n / static_cast<double>(g)), df};
}

}  // namespace

double mean_of_medians(const std::vector<std::vector<double>>& clusters) { return mean(cluster_medians(clusters)); }

ClusterInterval cluster_bootstrap(const std::vector<std::vector<double>>& clusters, double confidence, int resamples,
                                  std::uint64_t seed) {
  ClusterInterval out;
  // The statistic is a mean of per-cluster values, so resampling clusters is resampling
  // their medians: computed once.
  const std::vector<double> medians = cluster_medians(clusters);
  const auto g = medians.size();
  out.clusters = static_cast<int>(g);
  out.estimate = mean(medians);
  out.standard_error = out.critical = out.low = out.high = kNaN;
  out.percentile_low = out.percentile_high = out.cluster_spread = kNaN;
  if (g < 2 || resamples < 2 || !(confidence > 0 && confidence < 1)) return out;
  out.cluster_spread = out.estimate != 0 ? sample_sd(medians, out.estimate) / std::fabs(out.estimate) : kNaN;

  std::mt19937_64 rng(seed);
  std::vector<double> estimates(static_cast<std::size_t>(resamples));
  for (auto& e : estimates) {
    double sum = 0;
    for (std::size_t k = 0; k < g; ++k) {
      // Multiply-shift: an index in [0, g) from 64 random bits, the same on every library.
      const auto pick = static_cast<std::size_t>((static_cast<unsigned __int128>(rng()) * g) >> 64);
      sum += medians[pick];
    }
    e = sum / static_cast<double>(g);
  }
  const double centre = mean(estimates);
  const double gd = static_cast<double>(g);
  const double between = sample_sd(estimates, centre) * std::sqrt(gd / (gd - 1));
  const double t_between = student_t_critical(confidence, g - 1);
  const Floor floor = within_floor(clusters, g);
  // Each term is an interval in its own right; the floor's variance has its own
  // (many more) degrees of freedom, so it gets its own t.
  const double t_floor = floor.df >= 1 ? student_t_critical(confidence, static_cast<std::uint64_t>(floor.df)) : 0;
  if (t_floor * floor.standard_error > t_between * between) {
    out.standard_error = floor.standard_error;
    out.critical = t_floor;
  } else {
    out.standard_error = between;
    out.critical = t_between;
  }
  out.low = out.estimate - out.critical * out.standard_error;
  out.high = out.estimate + out.critical * out.standard_error;
  std::sort(estimates.begin(), estimates.end());
  out.percentile_low = quantile_sorted(estimates, (1 - confidence) / 2);
  out.percentile_high = quantile_sorted(estimates, 1 - (1 - confidence) / 2);
  return out;
}

}  // namespace cmh::stats
