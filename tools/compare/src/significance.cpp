// SPDX-License-Identifier: MIT
#include <cmh/compare/significance.hpp>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace cmh::compare {

Moments moments_of(const std::vector<double>& values) {
  Moments m;
  m.n = static_cast<double>(values.size());
  if (values.empty()) return m;
  m.mean = std::accumulate(values.begin(), values.end(), 0.0) / m.n;
  double sq = 0;
  for (const double v : values) sq += (v - m.mean) * (v - m.mean);
  m.variance = values.size() > 1 ? sq / (m.n - 1) : 0.0;
  return m;
}

namespace {

bool finite(const Moments& m) { return std::isfinite(m.mean) && std::isfinite(m.variance); }

/// Welch-Satterthwaite can come out 0/0 when one side's variance term vanishes or
/// underflows; the smaller side's n - 1 is then the conservative choice.
double usable_df(double df, const Moments& a, const Moments& b) {
  return std::isfinite(df) && df > 0 ? df : std::min(a.n, b.n) - 1;
}

}  // namespace

std::optional<WelchResult> welch_t_test(const Moments& a, const Moments& b) {
  if (a.n < 2 || b.n < 2 || !finite(a) || !finite(b)) return std::nullopt;
  const double va = a.variance / a.n, vb = b.variance / b.n;
  WelchResult r;
  if (va + vb == 0) {
    r.t = a.mean == b.mean ? 0.0 : std::copysign(INFINITY, b.mean - a.mean);
    r.df = a.n + b.n - 2;
    r.p = a.mean == b.mean ? 1.0 : 0.0;
    return r;
  }
  r.t = (b.mean - a.mean) / std::sqrt(va + vb);
  r.df = usable_df((va + vb) * (va + vb) / (va * va / (a.n - 1) + vb * vb / (b.n - 1)), a, b);
  const boost::math::students_t dist(r.df);
  r.p = 2 * boost::math::cdf(boost::math::complement(dist, std::fabs(r.t)));
  return r;
}

namespace {

/// Number of arrangements giving each U for sizes (m, n), as doubles (they can exceed 2^64):
/// f(m, n, u) = f(m - 1, n, u - n) + f(m, n - 1, u), the recurrence of Mann and Whitney (1947).
std::vector<double> u_counts(int m, int n) {
  // table[j][u] for the current i (first-sample size), j = 0..n.
  std::vector<std::vector<double>> prev(n + 1), cur(n + 1);
  for (int j = 0; j <= n; ++j) prev[j] = {1.0};  // i = 0: one arrangement, U = 0
  for (int i = 1; i <= m; ++i) {
    cur[0] = {1.0};
    for (int j = 1; j <= n; ++j) {
      std::vector<double> f(static_cast<std::size_t>(i * j + 1), 0.0);
      // The largest observation belongs to the first sample (it beats all j of the second) or not.
      for (std::size_t u = 0; u < prev[j].size(); ++u) f[u + j] += prev[j][u];
      for (std::size_t u = 0; u < cur[j - 1].size(); ++u) f[u] += cur[j - 1][u];
      cur[j] = std::move(f);
    }
    std::swap(prev, cur);
  }
  return prev[n];
}

}  // namespace

std::optional<MannWhitneyResult> mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t n1 = a.size(), n2 = b.size();
  if (n1 == 0 || n2 == 0) return std::nullopt;
  // Mid-ranks of the pooled sample; tie groups feed the variance correction.
  std::vector<std::pair<double, int>> pooled;
  for (const double v : a) pooled.emplace_back(v, 0);
  for (const double v : b) pooled.emplace_back(v, 1);
  std::sort(pooled.begin(), pooled.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  const double n = static_cast<double>(n1 + n2);
  double rank_sum_a = 0, tie_term = 0;
  bool ties = false;
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    const double mid = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    const double t = static_cast<double>(j - i);
    if (t > 1) ties = true;
    tie_term += t * t * t - t;
    for (std::size_t k = i; k < j; ++k)
      if (pooled[k].second == 0) rank_sum_a += mid;
    i = j;
  }
  MannWhitneyResult r;
  const double nn1 = static_cast<double>(n1), nn2 = static_cast<double>(n2);
  r.u = rank_sum_a - nn1 * (nn1 + 1) / 2;
  const double u_big = std::max(r.u, nn1 * nn2 - r.u);
  if (!ties && nn1 * nn2 <= kExactLimit) {
    const auto counts = u_counts(static_cast<int>(n1), static_cast<int>(n2));
    const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
    double upper = 0;  // P(U >= u_big)
    for (std::size_t u = static_cast<std::size_t>(u_big); u < counts.size(); ++u) upper += counts[u];
    r.p = std::min(1.0, 2 * upper / total);
    r.method = "exact";
    return r;
  }
  const double mu = nn1 * nn2 / 2;
  const double sigma = std::sqrt(nn1 * nn2 / 12 * ((n + 1) - tie_term / (n * (n - 1))));
  r.method = "normal";
  if (sigma == 0) {  // every value equal
    r.p = 1;
    return r;
  }
  const double z = (u_big - mu - 0.5) / sigma;
  r.p = std::min(1.0, 2 * boost::math::cdf(boost::math::complement(boost::math::normal(), z)));
  return r;
}

std::optional<RatioInterval> fieller_ratio(const Moments& a, const Moments& b, double level) {
  if (a.n < 2 || b.n < 2 || a.mean == 0 || !finite(a) || !finite(b)) return std::nullopt;
  RatioInterval r;
  r.ratio = b.mean / a.mean;
  const double va = a.variance / a.n, vb = b.variance / b.n;
  if (va + vb == 0) {
    r.lo = r.hi = r.ratio;
    r.bounded = true;
    r.df = a.n + b.n - 2;
    return r;
  }
  // Welch-Satterthwaite for the pivot b - ratio * a, evaluated at the point estimate.
  const double wa = r.ratio * r.ratio * va;
  r.df = usable_df((vb + wa) * (vb + wa) / (vb * vb / (b.n - 1) + wa * wa / (a.n - 1)), a, b);
  const double t = boost::math::quantile(boost::math::students_t(r.df), 0.5 + level / 2);
  // (b - q a)^2 <= t^2 (vb + q^2 va)  <=>  A q^2 - 2 B q + C <= 0
  const double A = a.mean * a.mean - t * t * va;
  const double B = a.mean * b.mean;
  const double C = b.mean * b.mean - t * t * vb;
  const double disc = B * B - A * C;
  if (A <= 0 || disc < 0) return r;  // unbounded: the base mean is not clearly away from 0
  const double root = std::sqrt(disc);
  r.lo = (B - root) / A;
  r.hi = (B + root) / A;
  r.bounded = true;
  return r;
}

}  // namespace cmh::compare
