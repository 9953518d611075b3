// SPDX-License-Identifier: MIT
// Registration: names and sorting, group and per-benchmark options stored
// where the planner expects them, @Group members merged, and the registry's
// own checks (duplicates, options naming no benchmark).
#include <cmh/cmh.hpp>
#include <cmh/detail/benchmark_code.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>

#include "engine/registry_build.hpp"
#include "engine_support.hpp"

using namespace std::chrono_literals;

CMH_OPTIONS(ApiRegistration, cmh::warmup{5, 1s}, cmh::measurement{4, 2s, 3},
            cmh::fork{1, {"-Xmx1g", "-Xms1g", "-XX:+AlwaysPreTouch"}}, cmh::mode::throughput,
            cmh::output_unit{1ms}, cmh::threads{cmh::threads::half_max});
CMH_BENCHMARK(ApiRegistration, inline, cmh::Blackhole& bh) { bh.consume(1); }
CMH_BENCHMARK(ApiRegistration, alpha) {}
CMH_BENCHMARK_OPTIONS(ApiRegistration, alpha, cmh::mode::average_time, cmh::ops_per_invocation{10},
                      cmh::timeout{5s});
CMH_BENCHMARK(ApiRegistration, zeta, const cmh::BenchmarkParams&, const cmh::IterationParams&,
              const cmh::ThreadParams&, cmh::Control&) {}

namespace user_code::nested {
struct Local : cmh::ThreadState {
  int n = 3;
};
CMH_OPTIONS(ApiNamespaced, cmh::threads{2});
CMH_BENCHMARK(ApiNamespaced, inside, Local& l) { return l.n; }
}  // namespace user_code::nested

using cmh::testing::definition;

TEST_CASE("api: the macros work inside a user's namespace") {
  const auto& def = definition("ApiNamespaced.inside");
  CHECK(def.group_options.threads == 2);
  auto obs = cmh::testing::run(def, cmh::testing::quick_plan(def, cmh::BenchmarkMode::throughput, 1, 1));
  CHECK(obs.results.size() == 2);
}

TEST_CASE("api: benchmarks are registered as Group.name, sorted by full name") {
  const auto& all = cmh::registered_benchmarks();
  CHECK(std::is_sorted(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.full_name() < b.full_name(); }));
  const auto& def = definition("ApiRegistration.inline");
  CHECK(def.group == "ApiRegistration");
  CHECK(def.name == "inline");
  CHECK(std::string(def.file).find("api_registration.cpp") != std::string::npos);
  CHECK(def.line > 0);
  CHECK(def.group_members.empty());
  CHECK(cmh::find_benchmark("ApiRegistration.nosuch") == nullptr);
}

TEST_CASE("api: group options and benchmark options are stored separately") {
  const auto& def = definition("ApiRegistration.inline");
  const auto& g = def.group_options;
  CHECK(g.warmup.iterations == 5);
  CHECK(g.warmup.time == std::chrono::seconds(1));
  CHECK(g.measurement.iterations == 4);
  CHECK(g.measurement.time == std::chrono::seconds(2));
  CHECK(g.measurement.batch_size == 3);
  CHECK(g.fork.count == 1);
  REQUIRE(g.fork.args.has_value());
  CHECK(*g.fork.args == std::vector<std::string>{"-Xmx1g", "-Xms1g", "-XX:+AlwaysPreTouch"});
  CHECK(g.modes == std::vector<cmh::BenchmarkMode>{cmh::BenchmarkMode::throughput});
  CHECK(g.output_unit == cmh::TimeUnit::ms);
  CHECK(g.threads == cmh::kThreadsHalfMax);
  CHECK_FALSE(def.benchmark_options.ops_per_invocation.has_value());

  const auto& alpha = definition("ApiRegistration.alpha");
  CHECK(alpha.group_options.warmup.iterations == 5);  // every benchmark of the group
  CHECK(alpha.benchmark_options.modes == std::vector<cmh::BenchmarkMode>{cmh::BenchmarkMode::average_time});
  CHECK(alpha.benchmark_options.ops_per_invocation == 10);
  CHECK(alpha.benchmark_options.timeout == std::chrono::seconds(5));
}

TEST_CASE("api: infrastructure objects are injected by type") {
  const auto& def = definition("ApiRegistration.zeta");
  auto obs = cmh::testing::run(def, cmh::testing::quick_plan(def, cmh::BenchmarkMode::throughput, 1, 1));
  CHECK(obs.results.size() == 2);
}

namespace {
cmh::BenchmarkDefinition fake(std::string group, std::string name, std::string member = "", int threads = 1) {
  cmh::BenchmarkDefinition d;
  d.group = std::move(group);
  d.name = std::move(name);
  d.file = "fake.cpp";
  d.line = 7;
  auto code = std::make_shared<cmh::detail::BenchmarkCode>();
  code->members.push_back({});
  code->members.back().name = member.empty() ? d.name : member;
  if (!member.empty()) {
    d.group_members = {member};
    d.group_threads = {threads};
  }
  d.code = code;
  return d;
}
}  // namespace

TEST_CASE("api: the registry merges group members and reports programming errors") {
  cmh::engine::RegistryInput in;
  in.definitions.push_back(fake("Q", "pp", "pong", 2));
  in.definitions.push_back(fake("Q", "pp", "ping", 1));
  in.definitions.push_back(fake("A", "x"));
  in.group_options.emplace_back("Q", cmh::make_options(cmh::threads{4}));
  in.benchmark_options.push_back({"Q", "pp", cmh::make_options(cmh::ops_per_invocation{2}), "f.cpp", 1});
  auto built = cmh::engine::build_registry(std::move(in));
  CHECK(built.problems.empty());
  REQUIRE(built.benchmarks.size() == 2);
  CHECK(built.benchmarks[0].full_name() == "A.x");
  const auto& pp = built.benchmarks[1];
  CHECK(pp.group_members == std::vector<std::string>{"ping", "pong"});
  CHECK(pp.group_threads == std::vector<int>{1, 2});
  REQUIRE(pp.code->members.size() == 2);
  CHECK(pp.code->members[0].name == "ping");
  CHECK(pp.group_options.threads == 4);
  CHECK(pp.benchmark_options.ops_per_invocation == 2);

  cmh::engine::RegistryInput bad;
  bad.definitions.push_back(fake("A", "x"));
  bad.definitions.push_back(fake("A", "x"));
  bad.definitions.push_back(fake("Q", "pp", "ping"));
  bad.definitions.push_back(fake("Q", "pp", "ping"));
  bad.benchmark_options.push_back({"A", "nosuch", {}, "f.cpp", 3});
  auto broken = cmh::engine::build_registry(std::move(bad));
  REQUIRE(broken.problems.size() == 3);
  CHECK(broken.problems[0] == "benchmark A.x is defined more than once (fake.cpp:7, fake.cpp:7)");
  CHECK(broken.problems[1] == "group member Q.pp/ping is defined twice (fake.cpp:7, fake.cpp:7)");
  CHECK(broken.problems[2] == "CMH_BENCHMARK_OPTIONS(A, nosuch) names no benchmark (f.cpp:3)");
}
