// SPDX-License-Identifier: MIT
// -prec's within-fork stopping rule (stats/precision.hpp): a pure function over the
// iteration scores so far, the elapsed time and the fork's budget.
#include <doctest/doctest.h>

#include "stats/precision.hpp"

#include <cmath>
#include <vector>

using namespace std::chrono_literals;
using cmh::stats::IterationStop;
using cmh::stats::next_iteration;
using cmh::stats::relative_error;
using cmh::stats::why_fork_stopped;

namespace {
/// n scores alternating mean*(1-d) and mean*(1+d): relative error shrinks as 1/sqrt(n).
std::vector<double> alternating(int n, double mean, double d) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(mean * (i % 2 ? 1 + d : 1 - d));
  return v;
}
}  // namespace

TEST_CASE("precision: relative error is JMH's 99.9 % error over the mean") {
  CHECK(std::isnan(relative_error({1.0, 2.0})));
  CHECK(std::isnan(relative_error({0.0, 0.0, 0.0})));
  CHECK(relative_error({5.0, 5.0, 5.0}) == 0.0);
  // 3 values 9, 10, 11: s = 1, t(0.9995, 2 df) = 31.599, error = 31.599 / sqrt(3) = 18.24
  CHECK(relative_error({9.0, 10.0, 11.0}) == doctest::Approx(31.5991 / std::sqrt(3.0) / 10).epsilon(1e-3));
  // the sign of the mean does not matter (throughput scores are positive, but the rule is general)
  CHECK(relative_error({-9.0, -10.0, -11.0}) == doctest::Approx(relative_error({9.0, 10.0, 11.0})));
}

TEST_CASE("precision: never stops before the planned iterations") {
  const auto exact = std::vector<double>{10, 10};
  CHECK(next_iteration(exact, 0.02, 3, 100s, 1s, 1s) == IterationStop::keep_going);
  CHECK(next_iteration({}, 0.02, 1, 100s, 0s, 1s) == IterationStop::keep_going);
}

TEST_CASE("precision: the target stops it first") {
  const auto v = alternating(10, 100, 0.001);
  REQUIRE(relative_error(v) < 0.02);
  CHECK(next_iteration(v, 0.02, 5, 0s, 0s, 60s) == IterationStop::target);
  // even when the budget is gone and the cap reached: reaching the target is what is reported
  CHECK(next_iteration(alternating(50, 100, 0.001), 0.02, 5, 100s, 10s, 1s) == IterationStop::target);
  CHECK(why_fork_stopped(v, 0.02, 5) == IterationStop::target);
}

TEST_CASE("precision: noisy scores keep going until the cap or the budget") {
  const auto v = alternating(10, 100, 0.5);
  REQUIRE(relative_error(v) > 0.02);
  CHECK(next_iteration(v, 0.02, 5, 2s, 1s, 60s) == IterationStop::keep_going);
  // the next iteration (taken as the mean so far, 0.1 s) would overrun the budget
  CHECK(next_iteration(v, 0.02, 5, 59950ms, 1s, 60s) == IterationStop::time_budget);
  CHECK(next_iteration(v, 0.02, 5, 59850ms, 1s, 60s) == IterationStop::keep_going);
  const auto capped = alternating(cmh::stats::iteration_cap(5), 100, 0.5);
  CHECK(next_iteration(capped, 0.02, 5, 2s, 1s, 60s) == IterationStop::iteration_cap);
  CHECK(why_fork_stopped(capped, 0.02, 5) == IterationStop::iteration_cap);
  CHECK(why_fork_stopped(v, 0.02, 5) == IterationStop::time_budget);
}

TEST_CASE("precision: the cap is 4 x -i, at least 50") {
  CHECK(cmh::stats::iteration_cap(1) == 50);
  CHECK(cmh::stats::iteration_cap(5) == 50);
  CHECK(cmh::stats::iteration_cap(20) == 80);
}

TEST_CASE("precision: the iteration count grows until the rule stops it") {
  // A simulated fork: scores converge, so the target is reached after some growth.
  std::vector<double> scores;
  int ran = 0;
  for (;;) {
    if (next_iteration(scores, 0.02, 3, std::chrono::milliseconds(100 * ran), std::chrono::milliseconds(100 * ran),
                       60s) != IterationStop::keep_going)
      break;
    scores.push_back(100 + (ran % 2 ? 3.0 : -3.0));
    ++ran;
  }
  CHECK(ran > 3);
  CHECK(ran < 50);
  CHECK(relative_error(scores) <= 0.02);
}
