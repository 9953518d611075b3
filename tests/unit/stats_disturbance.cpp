// SPDX-License-Identifier: MIT
// Preemption detection from synthetic per-thread evidence (never from this
// machine's scheduling): what is flagged, what is not (a quiet compute body, a
// body that sleeps), the summary's counts and "likely inflated", cpu.time.norm and
// total.time.norm, and the /proc/stat parser behind host steal.
#include <doctest/doctest.h>

#include "engine/host_load.hpp"
#include "stats/aggregate.hpp"
#include "stats/disturbance.hpp"
#include "stats/time_per_op.hpp"

#include <cmath>

using cmh::ForkResult;
using cmh::IterationResult;
using cmh::ThreadMeasurement;

namespace {

constexpr std::int64_t kSecond = 1'000'000'000;

ThreadMeasurement worker(std::int64_t cpu_ns, std::int64_t involuntary, std::int64_t voluntary = 0,
                         std::int64_t window_ns = kSecond, std::uint64_t ops = 1'000'000) {
  ThreadMeasurement t;
  t.measured_ops = ops;
  t.duration_ns = window_ns;
  t.window_ns = window_ns;
  t.cpu_ns = cpu_ns;
  t.involuntary_switches = involuntary;
  t.voluntary_switches = voluntary;
  return t;
}

IterationResult iteration_of(std::vector<ThreadMeasurement> threads) {
  IterationResult it;
  it.threads = std::move(threads);
  for (const auto& t : it.threads) it.measured_ops += t.measured_ops;
  return it;
}

}  // namespace

TEST_CASE("disturbance: a quiet compute iteration is not flagged") {
  const auto d = cmh::stats::assess(iteration_of({worker(kSecond * 99 / 100, 1)}));
  CHECK(d.measured);
  CHECK_FALSE(d.disturbed());
  CHECK(d.cpu_wall == doctest::Approx(0.99));
  // A full second of window tolerates ten involuntary switches (kernel threads, timers).
  CHECK_FALSE(cmh::stats::assess(iteration_of({worker(kSecond, 10)})).disturbed());
}

TEST_CASE("disturbance: off the CPU or preempted is flagged, on any worker") {
  const auto off = cmh::stats::assess(iteration_of({worker(kSecond / 2, 1)}));
  CHECK(off.off_cpu);
  CHECK_FALSE(off.preempted);
  CHECK(off.disturbed());
  const auto preempted = cmh::stats::assess(iteration_of({worker(kSecond * 95 / 100, 250)}));
  CHECK(preempted.preempted);
  CHECK(preempted.disturbed());
  const auto second = cmh::stats::assess(iteration_of({worker(kSecond, 0), worker(kSecond * 6 / 10, 40)}));
  CHECK(second.disturbed());
  CHECK(second.cpu_wall == doctest::Approx(0.6));
  CHECK(second.involuntary == 40);
}

TEST_CASE("disturbance: a body that sleeps is off the CPU by design, not disturbed") {
  // sleep(1 ms) per op: 1000 voluntary switches a second, a few percent of CPU.
  const auto d = cmh::stats::assess(iteration_of({worker(kSecond / 50, 1, 1000)}));
  CHECK(d.blocking);
  CHECK_FALSE(d.off_cpu);
  CHECK_FALSE(d.disturbed());
  // ...but preemption still counts for it.
  CHECK(cmh::stats::assess(iteration_of({worker(kSecond / 50, 300, 1000)})).disturbed());
}

TEST_CASE("disturbance: short windows are judged by switches only; no evidence, no flag") {
  CHECK_FALSE(cmh::stats::assess(iteration_of({worker(100, 0, 0, 50'000)})).disturbed());
  CHECK(cmh::stats::assess(iteration_of({worker(100, 3, 0, 50'000)})).disturbed());  // bound 2
  const auto none = cmh::stats::assess(iteration_of({worker(0, -1, -1)}));
  CHECK_FALSE(none.measured);
  CHECK_FALSE(none.disturbed());
  CHECK(cmh::stats::switch_bound(kSecond) == 10);
  CHECK(cmh::stats::switch_bound(kSecond / 10) == 2);
}

TEST_CASE("disturbance: the summary counts iterations and says when the score is likely inflated") {
  ForkResult quiet;
  for (int i = 0; i < 10; ++i) quiet.measurement.push_back(iteration_of({worker(kSecond, 0)}));
  const auto s0 = cmh::stats::summarise_disturbance({&quiet});
  CHECK(s0.measured == 10);
  CHECK(s0.disturbed == 0);
  CHECK_FALSE(s0.likely_inflated());

  ForkResult one = quiet;
  one.measurement[3] = iteration_of({worker(kSecond * 8 / 10, 5)});
  const auto s1 = cmh::stats::summarise_disturbance({&one});
  CHECK(s1.disturbed == 1);
  CHECK(s1.by_fork.at(0).at(3).disturbed());
  CHECK_FALSE(s1.likely_inflated());  // one in ten, mean ratio 0.98

  ForkResult loaded = quiet;
  for (int i = 0; i < 10; i += 2) loaded.measurement[i] = iteration_of({worker(kSecond / 2, 200)});
  loaded.measurement[0].host.steal_fraction = 0.02;
  loaded.measurement[1].host.load_average = 7.5;
  const auto s2 = cmh::stats::summarise_disturbance({&quiet, &loaded});
  CHECK(s2.measured == 20);
  CHECK(s2.disturbed == 5);
  CHECK(s2.likely_inflated());
  CHECK(s2.lowest_cpu_wall == doctest::Approx(0.5));
  CHECK(s2.most_involuntary == 200);
  CHECK(cmh::stats::describe(s2) ==
        "5 of 20 measurement iterations disturbed (lowest CPU/wall 0.50, up to 200 involuntary context switches "
        "in a thread's window, host steal up to 2.0 %, load average up to 7.50)");
}

TEST_CASE("cpu.time.norm sums CPU over threads and divides by the ops of all threads") {
  CHECK(cmh::stats::cpu_time_per_op({worker(kSecond, 0, 0, kSecond, 1000)}) == doctest::Approx(1e6));
  CHECK(cmh::stats::cpu_time_per_op({worker(kSecond, 0, 0, kSecond, 1000), worker(kSecond / 2, 0, 0, kSecond, 1000)}) ==
        doctest::Approx(0.75e6));
  CHECK(std::isnan(cmh::stats::cpu_time_per_op({worker(0, -1, -1)})));
  CHECK(std::isnan(cmh::stats::cpu_time_per_op({})));
}

TEST_CASE("total.time.norm is the whole process's wall time per op") {
  // Two threads, 1000 ops each in one second: 0.5 ms per op for the process, 1 ms per thread.
  CHECK(cmh::stats::total_time_per_op(cmh::TimeUnit::ms, {worker(kSecond, 0, 0, kSecond, 1000),
                                                          worker(kSecond, 0, 0, kSecond, 1000)}) ==
        doctest::Approx(0.5));
  cmh::BenchmarkParams p;
  p.mode = cmh::BenchmarkMode::average_time;
  p.time_unit = cmh::TimeUnit::ms;
  p.threads = 2;
  ForkResult f;
  f.measurement = {iteration_of({worker(kSecond, 0, 0, kSecond, 1000), worker(kSecond, 0, 0, kSecond, 1000)})};
  const auto total = cmh::stats::aggregate_total_time(p, {&f});
  REQUIRE(total.has_value());
  CHECK(total->score == doctest::Approx(0.5));
  CHECK(total->unit == "ms/op");
  p.threads = 1;
  CHECK_FALSE(cmh::stats::aggregate_total_time(p, {&f}).has_value());
  const auto cpu = cmh::stats::aggregate_cpu_time({&f});
  REQUIRE(cpu.has_value());
  CHECK(cpu->score == doctest::Approx(1e6));
  CHECK(cpu->unit == "ns/op");
}

TEST_CASE("host load: the /proc/stat cpu line gives steal and total ticks") {
  const auto t = cmh::engine::parse_cpu_line("cpu  100 5 50 800 10 1 2 30 7 0");
  REQUIRE(t.has_value());
  CHECK(t->steal == 30);
  CHECK(t->total == 998);  // guest and guest_nice are inside user and nice already
  CHECK_FALSE(cmh::engine::parse_cpu_line("cpu0 1 2 3 4 5 6 7 8").has_value());
  CHECK_FALSE(cmh::engine::parse_cpu_line("cpu  1 2 3 4").has_value());
  const auto h = cmh::engine::host_load_between(cmh::engine::CpuTicks{10, 1000}, cmh::engine::CpuTicks{60, 2000});
  CHECK(h.steal_fraction == doctest::Approx(0.05));
  CHECK(std::isnan(cmh::engine::host_load_between(std::nullopt, cmh::engine::CpuTicks{}).steal_fraction));
}
