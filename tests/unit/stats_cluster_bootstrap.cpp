// SPDX-License-Identifier: MIT
// The clustered bootstrap behind the robust interval, on synthetic data with a known
// truth (tests/unit/synthetic_runs.hpp; no clock is read): its standard error against
// the closed form, clustering (values inside a fork do not narrow it), determinism, and
// coverage at the stated 95 % over many simulated runs, where the bootstrap's own
// percentile interval falls short with 3 forks.
#include <doctest/doctest.h>

#include "stats/cluster_bootstrap.hpp"
#include "stats/robust_estimate.hpp"
#include "stats/student_t.hpp"
#include "synthetic_runs.hpp"

#include <cmath>
#include <vector>

using cmh::stats::cluster_bootstrap;
using cmh::stats::mean_of_medians;

namespace {

double sd(const std::vector<double>& v) {
  double mean = 0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  double ss = 0;
  for (double x : v) ss += (x - mean) * (x - mean);
  return std::sqrt(ss / static_cast<double>(v.size() - 1));
}

struct BootstrapCoverage {
  int runs = 0, held = 0, percentile_held = 0;
  std::vector<double> half_widths;  ///< relative to the truth
  double share() const { return static_cast<double>(held) / runs; }
  double percentile_share() const { return static_cast<double>(percentile_held) / runs; }
  double median_half_width() {
    return cmh::stats::median_in_place(half_widths.data(), half_widths.data() + half_widths.size());
  }
};

BootstrapCoverage bootstrap_cover(const synthetic::Model& m, int runs, std::uint64_t seed) {
  synthetic::Random rng(seed);
  BootstrapCoverage c;
  for (int r = 0; r < runs; ++r) {
    const auto run = synthetic::run(m, rng);
    const auto ci = cluster_bootstrap(run.clean, cmh::stats::kRobustConfidence);
    ++c.runs;
    c.held += ci.low <= m.truth && m.truth <= ci.high ? 1 : 0;
    c.percentile_held += ci.percentile_low <= m.truth && m.truth <= ci.percentile_high ? 1 : 0;
    c.half_widths.push_back((ci.high - ci.low) / 2 / m.truth);
  }
  return c;
}

}  // namespace

TEST_CASE("cluster bootstrap: the estimate is the mean of the clusters' medians") {
  CHECK(mean_of_medians({{1, 2, 30}, {4}, {}, {5, 7}}) == doctest::Approx((2.0 + 4 + 6) / 3));
  CHECK(std::isnan(mean_of_medians({})));
  const auto ci = cluster_bootstrap({{1, 2, 30}, {4}, {5, 7}}, 0.95);
  CHECK(ci.clusters == 3);
  CHECK(ci.estimate == doctest::Approx(4));
}

TEST_CASE("cluster bootstrap: its standard error is the closed form s/sqrt(G) of the cluster medians") {
  // For a mean over clusters, resampling clusters gives SD (G-1)/G * s^2/G; corrected by
  // G/(G-1) it is s/sqrt(G), up to the resampling's own noise (2000 resamples: ~2 %).
  const std::vector<std::vector<double>> forks = {{10, 10.2, 9.9}, {12, 11.8}, {11, 11.1, 10.9, 11}, {13}, {9.5, 9.6}};
  const std::vector<double> medians = {10, 11.9, 11, 13, 9.55};
  const auto ci = cluster_bootstrap(forks, 0.95);
  const double closed = sd(medians) / std::sqrt(5.0);
  CHECK(ci.standard_error == doctest::Approx(closed).epsilon(0.05));
  CHECK(ci.critical == doctest::Approx(cmh::stats::student_t_critical(0.95, 4)));
  CHECK(ci.low == doctest::Approx(ci.estimate - ci.critical * ci.standard_error));
  CHECK(ci.high == doctest::Approx(ci.estimate + ci.critical * ci.standard_error));
  CHECK(ci.cluster_spread == doctest::Approx(sd(medians) / ci.estimate));
}

TEST_CASE("cluster bootstrap: more values inside the same forks do not narrow it") {
  // Three forks whose medians are 100, 103 and 98: ten times the values per fork, with
  // the same medians, is the same evidence about the fork-to-fork spread.
  std::vector<std::vector<double>> few = {{99, 100, 101}, {102, 103, 104}, {97, 98, 99}};
  std::vector<std::vector<double>> many(3);
  for (int f = 0; f < 3; ++f)
    for (int k = 0; k < 10; ++k)
      for (double v : few[f]) many[f].push_back(v);
  const auto a = cluster_bootstrap(few, 0.95);
  const auto b = cluster_bootstrap(many, 0.95);
  CHECK(a.high - a.low == doctest::Approx(b.high - b.low));
  // Pooled as if independent, the 90 values would give a far narrower t interval.
  CHECK((a.high - a.low) / 2 > 5 * cmh::stats::student_t_critical(0.95, 89) * 2.2 / std::sqrt(90.0));
}

TEST_CASE("cluster bootstrap: forks that agree by chance still leave their own spread in the interval") {
  // Three forks with the same median 10 but iterations spread by 1: the between-fork SD
  // estimate is 0, the floor is sqrt(pi/2 * 1 / 3 / 3), with t at 6 degrees of freedom.
  const auto ci = cluster_bootstrap({{9, 10, 11}, {9, 10, 11}, {11, 10, 9}}, 0.95);
  CHECK(ci.cluster_spread == 0);
  CHECK(ci.standard_error == doctest::Approx(std::sqrt(1.5707963267948966 / 9)));
  CHECK(ci.critical == doctest::Approx(cmh::stats::student_t_critical(0.95, 6)));
  CHECK(ci.high - ci.low > 1);
}

TEST_CASE("cluster bootstrap: deterministic, and no interval below two clusters") {
  const std::vector<std::vector<double>> data = {{1, 2}, {2, 3}, {4}};
  const auto a = cluster_bootstrap(data, 0.95);
  const auto b = cluster_bootstrap(data, 0.95);
  CHECK(a.low == b.low);
  CHECK(a.high == b.high);
  const auto one = cluster_bootstrap({{1, 2, 3}, {}}, 0.95);
  CHECK(one.clusters == 1);
  CHECK(one.estimate == doctest::Approx(2));
  CHECK(std::isnan(one.low));
  CHECK(std::isnan(one.high));
  CHECK(std::isnan(cluster_bootstrap({}, 0.95).estimate));
}

TEST_CASE("cluster bootstrap: 95 % coverage of the known truth with 3 forks; the percentile interval falls short") {
  synthetic::Model m;
  m.fork_sd = 0.02;
  m.iteration_sd = 0.005;
  auto c = bootstrap_cover(m, 400, 31);
  INFO("coverage " << c.share() << ", percentile " << c.percentile_share());
  CHECK(c.share() >= 0.92);
  CHECK(c.share() <= 0.98);
  CHECK(c.percentile_share() < 0.85);
  // Half-width: t(2) at 95 % (4.30) x 2 % / sqrt(3), about 5 %.
  CHECK(c.median_half_width() < 0.07);
}

TEST_CASE("cluster bootstrap: coverage holds with more forks, and without fork-to-fork variance it errs wide") {
  synthetic::Model many;
  many.forks = 10;
  many.fork_sd = 0.03;
  auto a = bootstrap_cover(many, 300, 32);
  INFO("10 forks: " << a.share());
  CHECK(a.share() >= 0.91);
  CHECK(a.share() <= 0.99);
  // Forks that do not differ: the within-fork floor takes over where three fork medians
  // happen to agree, so the interval is conservative here (about 99 %), and still narrow.
  synthetic::Model same;
  same.fork_sd = 0;
  same.iteration_sd = 0.01;
  auto b = bootstrap_cover(same, 300, 33);
  INFO("no fork offsets: " << b.share() << ", median half-width " << b.median_half_width());
  CHECK(b.share() >= 0.95);
  CHECK(b.median_half_width() < 0.02);
}
