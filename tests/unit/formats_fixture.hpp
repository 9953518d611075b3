// SPDX-License-Identifier: MIT
// A fixed, synthetic result set for the result-format tests and the e2e writer
// driver: a throughput benchmark with secondary metrics over two forks, one with
// parameters and a NaN error, a sample-time benchmark with histograms, a
// single-shot one, a benchmark whose second fork crashed, one that failed before
// measuring anything, and one whose name and parameters hold every nasty character.
#pragma once

#include <cmh/result.hpp>

#include "formats/machine_info.hpp"
#include "model/run_context.hpp"
#include "report/summary_table.hpp"

#include <chrono>
#include <string>
#include <vector>

namespace cmh::formats::testing {

inline ScalarResult scalar(std::string label, double value, std::string unit,
                           AggregationPolicy policy = AggregationPolicy::average) {
  return ScalarResult{std::move(label), value, std::move(unit), policy};
}

inline BenchmarkParams params_of(std::string group, std::string name, BenchmarkMode mode, TimeUnit unit) {
  BenchmarkParams p;
  p.benchmark = group + "." + name;
  p.group = std::move(group);
  p.name = std::move(name);
  p.mode = mode;
  p.time_unit = unit;
  p.warmup = {IterationKind::warmup, 2, std::chrono::milliseconds(100), 1};
  p.measurement = {IterationKind::measurement, 3, std::chrono::seconds(1), 1};
  p.forks = 2;
  return p;
}

/// A measurement iteration with the given primary score; `scale` varies the synthetic op counts.
inline IterationResult iteration(int index, double score, const std::string& unit, std::uint64_t ops = 1000) {
  IterationResult it;
  it.kind = IterationKind::measurement;
  it.index = index;
  it.primary = scalar("", score, unit);
  it.all_ops = ops + 10;
  it.measured_ops = ops;
  it.wall_ns = 1'000'000'000;
  it.threads = {ThreadMeasurement{0, ops, 1'000'000'000, 950'000'000, 1'000'000'000, 0, 0}};
  return it;
}

inline ForkResult fork_of(int index, std::vector<IterationResult> measurement) {
  ForkResult f;
  f.index = index;
  f.pid = 1000 + index;
  f.measurement = std::move(measurement);
  f.allocator = {true, "off", "one NUMA node", "", "-Xmx1g -XX:+AlwaysPreTouch"};  // as the fork reported it
  return f;
}

/// `shift` moves every score so that a second "run" differs from the first (compare.py test).
inline RunResults synthetic_results(double shift = 0.0) {
  RunResults r;

  {  // Throughput with secondaries, 2 forks x 3 iterations.
    BenchmarkRunResult b;
    b.params = params_of("Sample_01", "hello", BenchmarkMode::throughput, TimeUnit::s);
    b.params.fork_args = {"-Xmx1g", "-XX:+AlwaysPreTouch"};
    b.params.profilers = {"alloc"};
    b.params.pin = "cores";
    const double scores[2][3] = {{1.0e8, 1.1e8, 0.9e8}, {1.05e8, 0.95e8, 1.0e8}};
    for (int f = 0; f < 2; ++f) {
      std::vector<IterationResult> its;
      for (int i = 0; i < 3; ++i) {
        auto it = iteration(i + 1, scores[f][i] * (1.0 + shift), "ops/s", 100'000'000);
        it.secondaries = {scalar("alloc.rate.norm", 16.0, "B/op"),
                          scalar("alloc.rate", 1500.0 + 10 * i + f, "MB/sec"),
                          scalar("alloc.count", 3.0 + i, "counts", AggregationPolicy::sum)};
        its.push_back(std::move(it));
      }
      b.forks.push_back(fork_of(f + 1, std::move(its)));
      b.forks.back().pinning = {"cores", {{0, 1, 1, 0, 0, ""}}, "0-1", "0", {}};
    }
    r.benchmarks.push_back(std::move(b));
  }
  {  // Average time with params, 1 fork x 2 iterations: N = 2, so the error is NaN.
    BenchmarkRunResult b;
    b.params = params_of("Sample_02", "params", BenchmarkMode::average_time, TimeUnit::ns);
    b.params.forks = 1;
    b.params.measurement.count = 2;
    b.params.params = {{"kind", "a b,\"c\";d"}, {"size", "64"}};
    b.forks.push_back(fork_of(1, {iteration(1, 12.5 * (1.0 + shift), "ns/op"),
                                  iteration(2, 13.0 * (1.0 + shift), "ns/op")}));
    r.benchmarks.push_back(std::move(b));
  }
  {  // Sample time: histograms of nanoseconds, 2 forks x 2 iterations, in us/op.
    BenchmarkRunResult b;
    b.params = params_of("Sample_03", "sampled", BenchmarkMode::sample_time, TimeUnit::us);
    b.params.measurement.count = 2;
    for (int f = 0; f < 2; ++f) {
      std::vector<IterationResult> its;
      for (int i = 0; i < 2; ++i) {
        auto it = iteration(i + 1, 0, "us/op", 6);
        SampleHistogram h;
        const auto base = static_cast<std::int64_t>(1000 * (1.0 + shift));
        h.record(base, 3);
        h.record(base * 2 + 100 * f, 2);
        h.record(base * 5 + 100 * i, 1);
        double sum = 0;
        h.for_each([&](double v, std::uint64_t n) { sum += v * static_cast<double>(n); });
        it.primary.value = sum / static_cast<double>(h.total_count()) / 1000.0;
        it.samples = std::move(h);
        its.push_back(std::move(it));
      }
      b.forks.push_back(fork_of(f + 1, std::move(its)));
    }
    r.benchmarks.push_back(std::move(b));
  }
  {  // Single shot, 1 fork x 3 iterations, in ms/op.
    BenchmarkRunResult b;
    b.params = params_of("Sample_04", "once", BenchmarkMode::single_shot, TimeUnit::ms);
    b.params.forks = 1;
    // As planned when no -w/-r is given: single-shot iterations have no time.
    b.params.warmup.time = b.params.measurement.time = std::chrono::nanoseconds(0);
    std::vector<IterationResult> its;
    for (int i = 0; i < 3; ++i) {
      auto it = iteration(i + 1, (2.0 + 0.5 * i) * (1.0 + shift), "ms/op", 1);
      SampleHistogram h;
      h.record(static_cast<std::int64_t>(it.primary.value * 1e6));
      it.samples = std::move(h);
      its.push_back(std::move(it));
    }
    b.forks.push_back(fork_of(1, std::move(its)));
    r.benchmarks.push_back(std::move(b));
  }
  {  // Fork 2 of 2 crashed: fork 1's results stay, the failure is reported.
    BenchmarkRunResult b;
    b.params = params_of("Sample_05", "crashes", BenchmarkMode::average_time, TimeUnit::us);
    b.forks.push_back(fork_of(1, {iteration(1, 5.0 * (1.0 + shift), "us/op"), iteration(2, 5.5 * (1.0 + shift), "us/op"),
                                  iteration(3, 6.0 * (1.0 + shift), "us/op")}));
    ForkResult crashed = fork_of(2, {iteration(1, 5.2, "us/op")});
    Failure failure;
    failure.kind = FailureKind::signal;
    failure.signal = 11;
    failure.message = "forked process failed: signal 11 (Segmentation fault)";
    failure.stderr_tail = {"about to crash", "tab\there \"quoted\""};
    crashed.failure = failure;
    b.forks.push_back(std::move(crashed));
    b.failure = failure;
    r.benchmarks.push_back(std::move(b));
  }
  {  // Failed before measuring anything: the executable could not be started.
    BenchmarkRunResult b;
    b.params = params_of("Sample_06", "never", BenchmarkMode::throughput, TimeUnit::ms);
    Failure failure;
    failure.kind = FailureKind::exception;
    failure.exception_type = "std::runtime_error";
    failure.message = "setup threw: bad \\ path \"C:\\tmp\"\n second line";
    b.failure = failure;
    r.benchmarks.push_back(std::move(b));
  }
  {  // Every character that needs escaping somewhere, and some non-ASCII.
    BenchmarkRunResult b;
    b.params = params_of("Nasty", "n\"a\\m_e#{x}%&$^~\t\x01\x7f-\xC3\xBC\xE2\x82\xAC", BenchmarkMode::average_time,
                         TimeUnit::ns);
    b.params.forks = 1;
    b.params.params = {{"kind", "line1\nline2\r"}, {"size", "\xFF\xFE bad utf8 \xE2\x82"}};
    b.forks.push_back(fork_of(1, {iteration(1, 1.0, "ns/op"), iteration(2, 2.0, "ns/op"), iteration(3, 3.0, "ns/op")}));
    b.forks[0].measurement[0].secondaries = {scalar("odd \"label\"", 1.0, "B/op")};
    r.benchmarks.push_back(std::move(b));
  }
  r.complete = true;
  for (const auto& b : r.benchmarks) r.planned.push_back(report::benchmark_label(b.params));
  return r;
}

/// The keys of a JSON object in document order (for checks of key order).
template <class Json>
std::vector<std::string> keys_of(const Json& object) {
  std::vector<std::string> keys;
  for (auto it = object.begin(); it != object.end(); ++it) keys.push_back(it.key());
  return keys;
}

inline model::RunContext synthetic_context() {
  model::RunContext c;
  c.executable = "/opt/bench/cmh-samples";
  c.compiler = "GCC 12.2.0";
  c.compiler_flags = "-O2 -g -DNDEBUG -std=c++20";
  c.cmh_version = "0.1.0";
  c.cpu_model = "Intel(R) Xeon(R) CPU @ 2.60GHz";
  c.cpu_count = 2;
  c.kernel = "Linux 6.1.0-18-amd64";
  c.numa_mode = "off";
  c.numa_reason = "one NUMA node";
  c.allocator_options = "-Xmx1g -XX:+AlwaysPreTouch";
  c.warnings = {"CPU frequency governor is \"powersave\"", "running under a hypervisor (KVM)"};
  c.environment = {{"governor", "powersave"}, {"boost", "unknown"}, {"smt", "on"}, {"thp", "madvise"},
                   {"numaBalancing", "0"}, {"vm", "KVM"}, {"tuned", "no"}};
  c.build_type = "release";
  return c;
}

inline MachineInfo synthetic_machine() {
  MachineInfo m;
  m.date = "2024-05-01T12:00:00+02:00";
  m.host_name = "bench-host";
  m.mhz_per_cpu = 2596.1;
  m.cpu_scaling_enabled = false;
  m.caches = {{"Data", 1, 49152, 1}, {"Instruction", 1, 32768, 1}, {"Unified", 2, 1048576, 1},
              {"Unified", 3, 33554432, 2}};
  m.load_avg = {0.5, 0.25, 0.125};
  return m;
}

}  // namespace cmh::formats::testing
