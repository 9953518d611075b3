// SPDX-License-Identifier: MIT
// Change points on series made in memory: the energy split, a step found at its
// commit and nowhere else, a flat noisy series left alone, the direction following
// the metric, exact metrics, and the effect-size floor.
#include "change_points.hpp"

#include <doctest/doctest.h>

#include <random>

using namespace cmh::history;

namespace {

/// n runs of 3 forks x 5 iterations around level(k), with 1 % noise from a fixed seed.
Series make_series(std::size_t n, double (*level)(std::size_t), bool higher_is_better = false, double noise = 0.01,
                   unsigned seed = 42) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-noise, noise);
  Series s;
  s.benchmark = "B.x";
  s.mode = higher_is_better ? "thrpt" : "avgt";
  s.metric = "score";
  s.unit = higher_is_better ? "ops/us" : "ns/op";
  s.higher_is_better = higher_is_better;
  for (std::size_t k = 0; k < n; ++k) {
    Point p;
    p.commit = "c" + std::to_string(k);
    p.run_id = "r" + std::to_string(k);
    p.seq = static_cast<std::int64_t>(k);
    p.metric.key = "score";
    p.metric.unit = s.unit;
    p.metric.higher_is_better = higher_is_better;
    double sum = 0;
    for (int f = 0; f < 3; ++f) {
      auto& fork = p.metric.raw.emplace_back();
      for (int i = 0; i < 5; ++i) {
        fork.push_back(level(k) * (1 + u(rng)));
        sum += fork.back();
      }
    }
    p.metric.score = sum / 15;
    p.metric.error = std::nan("");
    s.points.push_back(std::move(p));
  }
  return s;
}

}  // namespace

TEST_CASE("history: the energy split lands on a step") {
  const std::vector<double> x = {1, 1.01, 0.99, 1, 1.2, 1.21, 1.19, 1.2};
  const std::vector<bool> allowed(x.size(), true);
  const auto split = best_split(x, 0, x.size(), allowed);
  REQUIRE(split);
  CHECK(split->at == 4);
  CHECK(split->q > 0);
  std::vector<bool> none(x.size(), false);
  CHECK_FALSE(best_split(x, 0, x.size(), none));
}

TEST_CASE("history: a 12 % step is found at its commit and only there") {
  const Series s = make_series(20, [](std::size_t k) { return k >= 11 ? 112.0 : 100.0; });
  const auto changes = detect_changes(s, DetectOptions{});
  REQUIRE(changes.size() == 1);
  CHECK(changes[0].index == 11);
  CHECK(changes[0].direction == "regression");
  CHECK(changes[0].effect == doctest::Approx(0.12).epsilon(0.02));
  CHECK(changes[0].bounded);
  CHECK(changes[0].lo < changes[0].effect);
  CHECK(changes[0].hi > changes[0].effect);
  REQUIRE(changes[0].p());
  CHECK(*changes[0].p() < 0.001);
  CHECK(changes[0].samples == "forks");
}

TEST_CASE("history: the newest run alone can start a change (the CI gate's case)") {
  const Series s = make_series(12, [](std::size_t k) { return k == 11 ? 115.0 : 100.0; });
  const auto changes = detect_changes(s, DetectOptions{});
  REQUIRE(changes.size() == 1);
  CHECK(changes[0].index == 11);
  CHECK(changes[0].runs_after == 1);
}

TEST_CASE("history: a flat noisy series has no change point") {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const Series s = make_series(30, [](std::size_t) { return 100.0; }, false, 0.03, seed);
    CHECK(detect_changes(s, DetectOptions{}).empty());
  }
}

TEST_CASE("history: a throughput drop is a regression, a throughput gain an improvement") {
  const Series down = make_series(16, [](std::size_t k) { return k >= 8 ? 88.0 : 100.0; }, true);
  const auto d = detect_changes(down, DetectOptions{});
  REQUIRE(d.size() == 1);
  CHECK(d[0].direction == "regression");
  const Series up = make_series(16, [](std::size_t k) { return k >= 8 ? 112.0 : 100.0; }, true);
  const auto u = detect_changes(up, DetectOptions{});
  REQUIRE(u.size() == 1);
  CHECK(u[0].direction == "improvement");
}

TEST_CASE("history: a significant change smaller than the floor is not reported") {
  const Series s = make_series(20, [](std::size_t k) { return k >= 10 ? 103.0 : 100.0; }, false, 0.002);
  CHECK(detect_changes(s, DetectOptions{}).empty());
  DetectOptions fine;
  fine.min_effect = 0.01;
  const auto found = detect_changes(s, fine);
  REQUIRE(found.size() == 1);
  CHECK(found[0].index == 10);
}

TEST_CASE("history: re-runs of one commit are one level, never split") {
  Series s = make_series(10, [](std::size_t k) { return k >= 5 ? 120.0 : 100.0; });
  for (auto& p : s.points) p.commit = "same";
  CHECK(detect_changes(s, DetectOptions{}).empty());
}

TEST_CASE("history: two steps give two change points") {
  const Series s = make_series(30, [](std::size_t k) { return k >= 20 ? 130.0 : k >= 10 ? 115.0 : 100.0; });
  const auto changes = detect_changes(s, DetectOptions{});
  REQUIRE(changes.size() == 2);
  CHECK(changes[0].index == 10);
  CHECK(changes[1].index == 20);
}

TEST_CASE("history: environment differences name the fields that changed") {
  const auto d = environment_differences({{"kernel", "6.1.0-18"}, {"governor", "'powersave'"}},
                                         {{"kernel", "6.1.0-21"}, {"governor", "'powersave'"}, {"toolVersion", "cmh 0.2"}});
  REQUIRE(d.size() == 2);
  CHECK(d[0] == "kernel: 6.1.0-18 -> 6.1.0-21");
  CHECK(d[1] == "toolVersion: (none) -> cmh 0.2");
}
