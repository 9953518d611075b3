// SPDX-License-Identifier: MIT
// The fork-aware interval (t over fork means) and the median score, on known data.
#include <doctest/doctest.h>

#include "stats/robust_interval.hpp"
#include "stats/student_t.hpp"

#include <cmath>

TEST_CASE("fork-aware interval: t over fork means, forks-1 degrees of freedom") {
  // Fork means 10, 12, 14: mean 12, sd 2, t(0.999, 2) * 2 / sqrt(3).
  const auto fi = cmh::stats::fork_interval({{9, 11}, {12, 12, 12}, {13, 15}});
  CHECK(fi.forks == 3);
  CHECK(fi.score == doctest::Approx(12));
  const double t = cmh::stats::student_t_critical(0.999, 2);
  CHECK(t == doctest::Approx(31.5991).epsilon(1e-4));
  CHECK(fi.error == doctest::Approx(t * 2 / std::sqrt(3.0)));
  CHECK(fi.confidence.first == doctest::Approx(12 - fi.error));
  CHECK(fi.confidence.second == doctest::Approx(12 + fi.error));
}

TEST_CASE("fork-aware interval: a slow fork widens it, where pooling iterations hides it") {
  // Tight iterations in each fork, one fork 30 % slower: the spread of fork means shows it.
  const auto fi = cmh::stats::fork_interval({{100, 100.1, 99.9}, {100, 100.2, 99.8}, {130, 130.1, 129.9}});
  CHECK(fi.confidence.first < 100);
  CHECK(fi.confidence.second > 130);
}

TEST_CASE("fork-aware interval needs two forks; empty forks are skipped") {
  const auto one = cmh::stats::fork_interval({{1, 2, 3}, {}});
  CHECK(one.forks == 1);
  CHECK(one.score == doctest::Approx(2));
  CHECK(std::isnan(one.error));
  CHECK(std::isnan(cmh::stats::fork_interval({}).score));
}

TEST_CASE("median of the pooled iteration scores resists a few inflated iterations") {
  CHECK(cmh::stats::median_of({{73, 74, 72}, {75, 300}}) == doctest::Approx(74));
  CHECK(cmh::stats::median_of({{1, 4}, {3, 2}}) == doctest::Approx(2.5));
  CHECK(std::isnan(cmh::stats::median_of({})));
}
