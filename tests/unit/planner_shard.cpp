// SPDX-License-Identifier: MIT
// Unit tests of -shard: the I/N grammar, the expected time of a run, and the split:
// disjoint parts whose union is the plan, balanced by expected time, the same on
// every call.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "host/sharding.hpp"
#include "planner_fixture.hpp"

using namespace planner_test;
using cmh::Nanos;
using namespace std::chrono_literals;

TEST_CASE("-shard I/N: 0-based index below N") {
  const auto s = cmh::cli::parse_shard("2/4", "-shard");
  CHECK(s.index == 2);
  CHECK(s.total == 4);
  for (const char* bad : {"4/4", "-1/4", "1/0", "1", "a/b", "1/2/3", "", "1/ 2"})
    CHECK_THROWS_WITH_AS(cmh::cli::parse_shard(bad, "-shard"), doctest::Contains("expected I/N"),
                         cmh::cli::CommandLineError);
}

TEST_CASE("-shard is parsed from the command line") {
  const auto cl = command_line({"-shard", "1/3"});
  REQUIRE(cl.shard);
  CHECK(cl.shard->index == 1);
  CHECK(cl.shard->total == 3);
  CHECK(cmh::host::requested_shard(cl)->total == 3);
}

TEST_CASE("expected time: forks x (start + warmup + measurement)") {
  cmh::BenchmarkParams p;  // 3 forks, 3 x 1 s warmup, 5 x 1 s measurement
  CHECK(cmh::host::expected_time(p) == 3 * (50ms + 8s));
  p.forks = 0;  // in-process still takes one trial
  p.warmup_forks = 1;
  CHECK(cmh::host::expected_time(p) == 2 * (50ms + 8s));
  p.mode = cmh::BenchmarkMode::single_shot;
  CHECK(cmh::host::expected_time(p) == 2 * (50ms + 8ms));
}

TEST_CASE("the parts are disjoint, cover the plan, and are balanced by expected time") {
  // Uneven runs, in plan order: the split may not follow names or positions.
  std::vector<Nanos> expected;
  for (int i = 0; i < 23; ++i) expected.push_back(Nanos{(i * 7919 % 13 + 1) * 1'000'000});
  for (int total : {1, 2, 3, 5, 23, 30}) {
    const auto part = cmh::host::shard_assignment(expected, total);
    REQUIRE(part.size() == expected.size());
    std::vector<Nanos> load(static_cast<std::size_t>(total), Nanos{0});
    for (std::size_t i = 0; i < part.size(); ++i) {
      REQUIRE(part[i] >= 0);
      REQUIRE(part[i] < total);
      load[static_cast<std::size_t>(part[i])] += expected[i];
    }
    const Nanos longest = *std::max_element(expected.begin(), expected.end());
    const auto [lo, hi] = std::minmax_element(load.begin(), load.end());
    if (total <= static_cast<int>(expected.size())) CHECK(*hi - *lo <= longest);
    CHECK(std::accumulate(load.begin(), load.end(), Nanos{0}) ==
          std::accumulate(expected.begin(), expected.end(), Nanos{0}));
    CHECK(cmh::host::shard_assignment(expected, total) == part);  // deterministic
  }
}

TEST_CASE("shard_runs keeps plan order and every run exactly once over all parts") {
  const auto reg = std::vector<cmh::BenchmarkDefinition>{bench("A", "x"), bench("B", "y"), bench("C", "z")};
  const auto runs = cmh::host::plan_runs(command_line({"-bm", "avgt,thrpt"}), reg);
  REQUIRE(runs.size() == 6);
  const auto key = [](const cmh::host::PlannedRun& r) {
    return r.params.benchmark + "/" + std::to_string(static_cast<int>(r.params.mode));
  };
  std::vector<std::string> plan;
  for (const auto& r : runs) plan.push_back(key(r));
  std::multiset<std::string> seen;
  for (int i = 0; i < 4; ++i) {
    std::size_t last = 0;
    for (const auto& r : cmh::host::shard_runs(runs, cmh::cli::Shard{i, 4})) {
      const auto at = static_cast<std::size_t>(std::find(plan.begin(), plan.end(), key(r)) - plan.begin());
      CHECK(at >= last);  // plan order
      last = at;
      seen.insert(key(r));
    }
  }
  CHECK(seen == std::multiset<std::string>(plan.begin(), plan.end()));
}
