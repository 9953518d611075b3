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

ThreadMeasurement waiting(ThreadMeasurement t, std::int64_t run_delay_ns) {
  t.run_delay_ns = run_delay_ns;
  return t;
}

IterationResult on_cpus(IterationResult it, double others, double idle) {
  it.host.others_share = others;
  it.host.idle_share = idle;
  return it;
}

constexpr std::int64_t kMs = 1'000'000;

/// TAB.separate's measuring thread over a 300 ms window, as recorded on a quiet 2-vCPU VM:
/// it starts and joins a thread per op (thousands of voluntary switches), and its own
/// children and their exits cost it 8-17 involuntary switches; it waited 4-6 % of its
/// runnable time.
ThreadMeasurement joining_parent(std::int64_t involuntary, std::int64_t run_delay_ns) {
  return waiting(worker(95 * kMs, involuntary, 4000, 300 * kMs, 4000), run_delay_ns);
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
  const auto no_clock = cmh::stats::assess(iteration_of({worker(-1, 0, 0)}));  // switches, no CPU reading
  CHECK_FALSE(no_clock.measured);
  CHECK_FALSE(no_clock.disturbed());
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

TEST_CASE("disturbance: a quiet body that starts and joins threads is not flagged, pinned or spread") {
  // Pinned to one CPU, its own children keep that CPU busy (idle 3 %), others used 1 %.
  const auto pinned = cmh::stats::assess(on_cpus(iteration_of({joining_parent(14, 5 * kMs)}), 0.01, 0.03));
  CHECK(pinned.measured);
  CHECK(pinned.blocking);
  CHECK(pinned.own_threads_only);
  CHECK_FALSE(pinned.crowded);
  CHECK_FALSE(pinned.disturbed());
  CHECK(pinned.wait_share == doctest::Approx(5.0 / 100.0));
  // Spread over two CPUs, half idle; 17 involuntary switches, over main's bound of 3.
  const auto spread = cmh::stats::assess(on_cpus(iteration_of({joining_parent(17, 4 * kMs)}), 0.0, 0.55));
  CHECK_FALSE(spread.disturbed());
  // Others busy elsewhere while its CPUs stay idle enough: not crowded either.
  const auto idle = cmh::stats::assess(on_cpus(iteration_of({joining_parent(12, 40 * kMs)}), 0.30, 0.40));
  CHECK_FALSE(idle.own_threads_only);
  CHECK_FALSE(idle.crowded);
  CHECK_FALSE(idle.disturbed());
}

TEST_CASE("disturbance: the same joining body is flagged when other processes crowd its CPUs") {
  // A CPU hog pinned beside it: others used half the CPU, 1 % idle, and the parent itself
  // rarely switched involuntarily (its children waited instead).
  const auto d = cmh::stats::assess(on_cpus(iteration_of({joining_parent(2, 60 * kMs)}), 0.50, 0.01));
  CHECK(d.blocking);
  CHECK(d.crowded);
  CHECK(d.disturbed());
  CHECK(cmh::stats::describe(d) ==
        "CPU/wall 0.32, waited 39 % of its runnable time, others used 50 % of its CPUs, 2 involuntary context switches");
  // Unknown shares (an iteration under 20 ticks per CPU): its wait decides, then its switches.
  CHECK(cmh::stats::assess(iteration_of({joining_parent(2, 60 * kMs)})).waited);
  CHECK_FALSE(cmh::stats::assess(iteration_of({joining_parent(14, 5 * kMs)})).disturbed());
  CHECK(cmh::stats::assess(iteration_of({joining_parent(14, -1)})).preempted);
}

TEST_CASE("disturbance: a compute body is judged on its run-queue wait, and excused among its own threads") {
  // Beside a pinned hog: it waited 45 % of its runnable time, with few involuntary switches.
  const auto hog = cmh::stats::assess(
      on_cpus(iteration_of({waiting(worker(kSecond * 55 / 100, 2), kSecond * 45 / 100)}), 0.45, 0.0));
  CHECK(hog.waited);
  CHECK(hog.off_cpu);
  CHECK(hog.disturbed());
  // Waited 3 %, ten switches in a second: quiet.
  const auto quiet = cmh::stats::assess(
      on_cpus(iteration_of({waiting(worker(kSecond * 97 / 100, 10), kSecond * 3 / 100)}), 0.12, 0.5));
  CHECK_FALSE(quiet.waited);
  CHECK_FALSE(quiet.disturbed());
  // A wait known overrides the switch count: 40 involuntary switches (its own page faults'
  // reschedules, say) but a 1 % wait.
  CHECK_FALSE(cmh::stats::assess(on_cpus(iteration_of({waiting(worker(kSecond * 99 / 100, 40), kSecond / 100)}),
                                         0.2, 0.3))
                  .disturbed());
  // Four threads on two CPUs, each running half its window and waiting the other half,
  // while other processes used 2 %: it waits for itself, nothing is flagged.
  std::vector<ThreadMeasurement> four(4, waiting(worker(kSecond / 2, 30), kSecond / 2));
  const auto own = cmh::stats::assess(on_cpus(iteration_of(four), 0.02, 0.0));
  CHECK(own.waited);
  CHECK(own.own_threads_only);
  CHECK_FALSE(own.disturbed());
  // The same with others using 40 %: flagged.
  CHECK(cmh::stats::assess(on_cpus(iteration_of(four), 0.40, 0.0)).disturbed());
  // Among its own threads only, its ratio stays out of the mean that can call a score inflated.
  ForkResult f;
  for (int i = 0; i < 5; ++i) f.measurement.push_back(on_cpus(iteration_of(four), 0.02, 0.0));
  f.measurement.push_back(on_cpus(iteration_of(four), 0.40, 0.0));
  const auto s = cmh::stats::summarise_disturbance({&f});
  CHECK(s.disturbed == 1);
  CHECK(s.mean_cpu_wall == doctest::Approx(0.5));
  CHECK(s.likely_inflated());  // one in six, but the only iteration among others ran half its window
  CHECK(s.most_others == doctest::Approx(0.40));
  CHECK(s.most_wait == doctest::Approx(0.5));
}

TEST_CASE("cpu.time.norm sums CPU over threads and divides by the ops of all threads") {
  CHECK(cmh::stats::cpu_time_per_op({worker(kSecond, 0, 0, kSecond, 1000)}) == doctest::Approx(1e6));
  CHECK(cmh::stats::cpu_time_per_op({worker(kSecond, 0, 0, kSecond, 1000), worker(kSecond / 2, 0, 0, kSecond, 1000)}) ==
        doctest::Approx(0.75e6));
  CHECK(std::isnan(cmh::stats::cpu_time_per_op({worker(-1, -1, -1)})));
  CHECK(std::isnan(cmh::stats::cpu_time_per_op({worker(kSecond, 0, 0, kSecond, 1000), worker(-1, 0, 0, kSecond, 1000)})));
  // A coarse thread clock that did not advance over the window reads 0: a reading, not a gap.
  CHECK(cmh::stats::cpu_time_per_op({worker(0, 0, 0, 20'000, 1)}) == 0.0);
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

TEST_CASE("host load: others' and the idle share of the process's CPUs from the per-CPU lines") {
  const std::string before = "cpu  300 0 100 1600 0 0 0 0 0 0\n"
                             "cpu0 100 0 50 850 0 0 0 0 0 0\n"
                             "cpu1 200 0 50 750 0 0 0 0 0 0\n"
                             "intr 1 2 3\n";
  const std::string after = "cpu  400 0 100 1700 0 0 0 0 0 0\n"
                            "cpu0 150 0 60 890 0 0 0 0 0 0\n"   // 100 ticks: 60 busy, 40 idle
                            "cpu1 250 0 50 800 0 0 0 0 0 0\n"
                            "intr 1 2 3\n";
  const auto b0 = cmh::engine::parse_cpu_set(before, {0});
  REQUIRE(b0.has_value());
  CHECK(b0->total == 1000);
  CHECK(b0->idle == 850);
  CHECK(b0->cpus == 1);
  const auto both = cmh::engine::parse_cpu_set(before, {0, 1});
  REQUIRE(both.has_value());
  CHECK(both->total == 2000);
  CHECK(both->cpus == 2);
  CHECK_FALSE(cmh::engine::parse_cpu_set(before, {7}).has_value());
  CHECK_FALSE(cmh::engine::parse_cpu_set("cpu0 1 2 3\n", {0}).has_value());

  // CPU 0 only; the process ran 20 ticks' worth (200 ms at 10 ms a tick) of the 60 busy.
  cmh::engine::HostSample s0{std::nullopt, b0, 1'000'000'000};
  cmh::engine::HostSample s1{std::nullopt, cmh::engine::parse_cpu_set(after, {0}), 1'200'000'000};
  cmh::HostLoad h;
  cmh::engine::cpu_shares_between(s0, s1, 1e7, h);
  CHECK(h.others_share == doctest::Approx(0.40));
  CHECK(h.idle_share == doctest::Approx(0.40));
  // The process's own CPU above the sampled busy ticks: others' share floors at 0.
  s1.process_cpu_ns = 2'000'000'000;
  cmh::HostLoad own;
  cmh::engine::cpu_shares_between(s0, s1, 1e7, own);
  CHECK(own.others_share == 0.0);
  // Fewer than 20 ticks per CPU: unknown.
  cmh::engine::HostSample short_after{std::nullopt, cmh::engine::CpuSetTicks{1019, 860, 1}, 1'000'000'000};
  cmh::HostLoad unknown;
  cmh::engine::cpu_shares_between(s0, short_after, 1e7, unknown);
  CHECK(std::isnan(unknown.others_share));
  CHECK(std::isnan(unknown.idle_share));
  // No process clock, or a different CPU set: unknown.
  cmh::engine::HostSample no_clock = s1;
  no_clock.process_cpu_ns = -1;
  cmh::HostLoad none;
  cmh::engine::cpu_shares_between(s0, no_clock, 1e7, none);
  CHECK(std::isnan(none.others_share));
}
