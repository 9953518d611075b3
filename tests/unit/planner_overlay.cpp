// SPDX-License-Identifier: MIT
// Unit tests of OptionSet::overlay, the step under JMH's resolution order, and
// of the labels of modes and units.
#include <cmh/options.hpp>
#include <doctest/doctest.h>

using namespace std::chrono_literals;
using cmh::BenchmarkMode;
using cmh::OptionSet;
using cmh::TimeUnit;

TEST_CASE("overlay takes every setting the higher level has and keeps the rest") {
  OptionSet low = cmh::make_options(cmh::warmup{5, 2s, 3}, cmh::measurement{7, 3s}, cmh::threads{2},
                                    cmh::timeout{1min}, cmh::ops_per_invocation{4}, cmh::output_unit{1ms},
                                    cmh::mode::average_time);
  low.gc_between_iterations = true;
  OptionSet high;
  high.measurement.iterations = 9;
  high.warmup.time = 100ms;
  high.threads = cmh::kThreadsMax;
  low.overlay(high);
  CHECK(low.measurement.iterations == 9);
  CHECK(low.measurement.time == 3s);
  CHECK(low.warmup.iterations == 5);
  CHECK(low.warmup.time == 100ms);
  CHECK(low.warmup.batch_size == 3);
  CHECK(low.threads == cmh::kThreadsMax);
  CHECK(low.timeout == 1min);
  CHECK(low.ops_per_invocation == 4);
  CHECK(low.output_unit == TimeUnit::ms);
  CHECK(low.gc_between_iterations == true);
  CHECK(low.modes == std::vector<BenchmarkMode>{BenchmarkMode::average_time});
}

TEST_CASE("overlay of an empty set changes nothing") {
  OptionSet low = cmh::make_options(cmh::fork{2, {"-Xmx1g"}, 1}, cmh::fork_args_append{{"-XX:+AlwaysPreTouch"}},
                                    cmh::sync_iterations{false}, cmh::mode::all);
  low.params["size"] = {"1", "2"};
  low.thread_groups = std::vector<int>{3, 1};
  const OptionSet before = low;
  low.overlay(OptionSet{});
  CHECK(low.fork.count == before.fork.count);
  CHECK(low.fork.warmups == before.fork.warmups);
  CHECK(low.fork.args == before.fork.args);
  CHECK(low.fork.args_append == before.fork.args_append);
  CHECK(low.sync_iterations == before.sync_iterations);
  CHECK(low.modes == before.modes);
  CHECK(low.params == before.params);
  CHECK(low.thread_groups == before.thread_groups);
}

TEST_CASE("modes of a higher level replace the lower list, as -bm does") {
  OptionSet low = cmh::make_options(cmh::mode::throughput, cmh::mode::sample_time);
  OptionSet high = cmh::make_options(cmh::mode::single_shot);
  low.overlay(high);
  CHECK(low.modes == std::vector<BenchmarkMode>{BenchmarkMode::single_shot});
}

TEST_CASE("fork args: the replacement list is replaced, prepend and append lists add up") {
  OptionSet group = cmh::make_options(cmh::fork{1, {"-Xmx1g", "-Xms1g"}}, cmh::fork_args_prepend{{"--membind=0"}},
                                      cmh::fork_args_append{{"-DA=1"}});
  OptionSet benchmark = cmh::make_options(cmh::fork_args_prepend{{"--cpunodebind=0"}},
                                          cmh::fork_args_append{{"-DB=2"}});
  group.overlay(benchmark);
  REQUIRE(group.fork.args);
  CHECK(*group.fork.args == std::vector<std::string>{"-Xmx1g", "-Xms1g"});
  CHECK(group.fork.args_prepend == std::vector<std::string>{"--membind=0", "--cpunodebind=0"});
  CHECK(group.fork.args_append == std::vector<std::string>{"-DA=1", "-DB=2"});

  OptionSet cli;
  cli.fork.args = std::vector<std::string>{"-Xmx2g"};
  group.overlay(cli);
  CHECK(*group.fork.args == std::vector<std::string>{"-Xmx2g"});
  // An explicitly empty replacement replaces too.
  OptionSet clear;
  clear.fork.args = std::vector<std::string>{};
  group.overlay(clear);
  REQUIRE(group.fork.args);
  CHECK(group.fork.args->empty());
}

TEST_CASE("params are replaced one name at a time") {
  OptionSet low;
  low.params["size"] = {"1", "2"};
  low.params["kind"] = {"a"};
  OptionSet high;
  high.params["size"] = {"100"};
  low.overlay(high);
  CHECK(low.params.at("size") == std::vector<std::string>{"100"});
  CHECK(low.params.at("kind") == std::vector<std::string>{"a"});
}

TEST_CASE("labels of modes and units are JMH's") {
  CHECK(cmh::mode_short_label(BenchmarkMode::throughput) == "thrpt");
  CHECK(cmh::mode_short_label(BenchmarkMode::average_time) == "avgt");
  CHECK(cmh::mode_short_label(BenchmarkMode::sample_time) == "sample");
  CHECK(cmh::mode_short_label(BenchmarkMode::single_shot) == "ss");
  CHECK(cmh::mode_long_label(BenchmarkMode::throughput) == "Throughput, ops/time");
  CHECK(cmh::mode_long_label(BenchmarkMode::average_time) == "Average time, time/op");
  CHECK(cmh::mode_long_label(BenchmarkMode::sample_time) == "Sampling time");
  CHECK(cmh::mode_long_label(BenchmarkMode::single_shot) == "Single shot invocation time");
  CHECK(cmh::unit_label(TimeUnit::ns) == "ns");
  CHECK(cmh::unit_label(TimeUnit::us) == "us");
  CHECK(cmh::unit_label(TimeUnit::ms) == "ms");
  CHECK(cmh::unit_label(TimeUnit::s) == "s");
  CHECK(cmh::unit_label(TimeUnit::min) == "min");
  CHECK(cmh::unit_label(TimeUnit::hr) == "hr");
  CHECK(cmh::unit_label(TimeUnit::day) == "day");
}
