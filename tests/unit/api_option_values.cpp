// SPDX-License-Identifier: MIT
// The option values of <cmh/option_values.hpp>: times given as any std::chrono
// duration become the nanoseconds duration_cast would give, modes apply in the
// enum's order and each once, and the values land in the OptionSet fields the
// planner reads.
#include <cmh/cmh.hpp>
#include <cmh/options.hpp>
#include <doctest/doctest.h>

#include <chrono>
#include <vector>

using namespace std::chrono_literals;

TEST_CASE("api: option values convert any std::chrono duration to nanoseconds") {
  CHECK(cmh::Duration(1s).nanos == 1'000'000'000);
  CHECK(cmh::Duration(250ms).nanos == 250'000'000);
  CHECK(cmh::Duration(3us).nanos == 3'000);
  CHECK(cmh::Duration(7ns).nanos == 7);
  CHECK(cmh::Duration(2min).nanos == 120'000'000'000);
  CHECK(cmh::Duration(1h).nanos == 3'600'000'000'000);
  CHECK(cmh::Duration(1.5s).nanos == 1'500'000'000);  // floating-point representation
  CHECK(cmh::Duration(std::chrono::duration<long long, std::ratio<1, 3>>(2)).nanos == 666'666'666);  // truncates
  CHECK(cmh::Duration(std::chrono::duration<int, std::ratio<1, 1'000'000'000'000>>(1500)).nanos == 1);
}

TEST_CASE("api: option values fill the OptionSet") {
  const cmh::OptionSet o =
      cmh::make_options(cmh::warmup{4, 200ms, 2}, cmh::measurement{6}, cmh::timeout{1min}, cmh::output_unit{1us},
                        cmh::threads{cmh::threads::max}, cmh::ops_per_invocation{8}, cmh::sync_iterations{false},
                        cmh::fork{2, {"-Xmx1g"}, 1});
  CHECK(*o.warmup.iterations == 4);
  CHECK(*o.warmup.time == 200ms);
  CHECK(*o.warmup.batch_size == 2);
  CHECK(*o.measurement.iterations == 6);
  CHECK(*o.measurement.time == 1s);  // the default
  CHECK(*o.timeout == 60s);
  CHECK(*o.output_unit == cmh::TimeUnit::us);
  CHECK(*o.threads == cmh::kThreadsMax);
  CHECK(*o.ops_per_invocation == 8);
  CHECK(*o.sync_iterations == false);
  CHECK(*o.fork.count == 2);
  CHECK(*o.fork.warmups == 1);
  CHECK(*o.fork.args == std::vector<std::string>{"-Xmx1g"});
}

TEST_CASE("api: modes apply in the enum's order, each once") {
  using M = cmh::BenchmarkMode;
  CHECK(cmh::make_options(cmh::mode::all).modes ==
        std::vector<M>{M::throughput, M::average_time, M::sample_time, M::single_shot});
  CHECK(cmh::make_options(cmh::mode::single_shot, cmh::mode::throughput, cmh::mode::single_shot).modes ==
        std::vector<M>{M::single_shot, M::throughput});
  CHECK(cmh::make_options(cmh::mode::sample_time, cmh::mode::all).modes ==
        std::vector<M>{M::sample_time, M::throughput, M::average_time, M::single_shot});
}
