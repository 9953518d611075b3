// SPDX-License-Identifier: MIT
// The fork-aware interval (t over fork means) and the median score, on known data.
#include <doctest/doctest.h>

#include "stats/robust_interval.hpp"
#include "stats/student_t.hpp"

#include <chrono>
#include <cmath>
#include <vector>

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

TEST_CASE("median in place: odd and even counts, NaN when empty") {
  std::vector<double> odd{5, 1, 4, 2, 3};
  CHECK(cmh::stats::median_in_place(odd.data(), odd.data() + odd.size()) == 3);
  std::vector<double> even{10, 1, 7, 3};
  CHECK(cmh::stats::median_in_place(even.data(), even.data() + even.size()) == 5);
  CHECK(std::isnan(cmh::stats::median_in_place(even.data(), even.data())));
}

TEST_CASE("sub-window median: the median over iterations, skipping iterations without one") {
  cmh::BenchmarkParams p;
  p.subwindow = std::chrono::milliseconds(1);
  cmh::ForkResult a;
  cmh::ForkResult b;
  // A preempted iteration (300) cannot drag it; an iteration without sub-windows is skipped.
  for (double v : {70.0, 300.0, 72.0}) {
    cmh::IterationResult it;
    it.subwindow_median = v;
    it.subwindows = 100;
    a.measurement.push_back(it);
  }
  cmh::IterationResult none;
  b.measurement.push_back(none);
  cmh::IterationResult last;
  last.subwindow_median = 71;
  last.subwindows = 90;
  b.measurement.push_back(last);
  const auto sw = cmh::stats::subwindow_median(p, {&a, &b});
  REQUIRE(sw.has_value());
  CHECK(sw->score == doctest::Approx(71.5));
  CHECK(sw->iterations == 4);
  CHECK(sw->subwindows == 390);
  CHECK(sw->target_ns == 1'000'000);
  CHECK(cmh::stats::subwindow_median(p, {&b})->score == 71);
  cmh::ForkResult empty;
  empty.measurement.push_back(none);
  CHECK_FALSE(cmh::stats::subwindow_median(p, {&empty}).has_value());
}
