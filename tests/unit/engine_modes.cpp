// SPDX-License-Identifier: MIT
// The engine in every mode: sane primary scores, JMH's op accounting (all ops
// include ramp-up/down; ops-per-invocation and batch size adjust the counts),
// sample-time histograms, single-shot batches, and cost ratios.
#include <cmh/cmh.hpp>
#include <doctest/doctest.h>

#include <cmath>
#include <mutex>
#include <vector>

#include "engine_support.hpp"

namespace {

std::mutex g_calls_mutex;
std::vector<std::uint64_t> g_calls_per_iteration;

struct CallCounter : cmh::ThreadState {
  std::uint64_t calls = 0;
  void setup_iteration() { calls = 0; }
  void teardown_iteration() {
    std::lock_guard<std::mutex> hold(g_calls_mutex);
    g_calls_per_iteration.push_back(calls);
  }
};

}  // namespace

CMH_BENCHMARK(EngineModes, empty) {}
CMH_BENCHMARK(EngineModes, counted, CallCounter& c) { ++c.calls; }
CMH_BENCHMARK(EngineModes, work_1x) { cmh::Blackhole::consume_cpu(250); }
CMH_BENCHMARK(EngineModes, work_4x) { cmh::Blackhole::consume_cpu(1000); }
CMH_BENCHMARK(EngineModes, returns_value, cmh::Blackhole&) { return 6 * 7; }

using cmh::BenchmarkMode;
using cmh::testing::definition;
using cmh::testing::quick_plan;
using cmh::testing::run;

namespace {

void check_sane(const cmh::IterationResult& r, const cmh::BenchmarkParams& plan) {
  if (plan.mode == BenchmarkMode::sample_time && r.samples && r.samples->total_count() == 0) {
    CHECK(std::isnan(r.primary.value));  // no sample, no score (see the test below)
  } else {
    CHECK(std::isfinite(r.primary.value));
    CHECK(r.primary.value > 0);
  }
  CHECK(r.primary.unit == cmh::primary_unit(plan.mode, plan.time_unit));
  CHECK(r.all_ops >= r.measured_ops);
  CHECK(r.measured_ops > 0);
  REQUIRE(r.threads.size() == static_cast<std::size_t>(plan.threads));
  std::uint64_t sum = 0;
  for (const auto& t : r.threads) sum += t.measured_ops;
  CHECK(sum == r.measured_ops);
  if (plan.mode != BenchmarkMode::single_shot) {
    // The control thread sleeps the iteration time before it stops anybody.
    CHECK(r.wall_ns >= std::chrono::nanoseconds(plan.measurement.time).count());
  }
  CHECK(!r.timed_out);
}

std::vector<std::uint64_t> take_calls() {
  std::lock_guard<std::mutex> hold(g_calls_mutex);
  auto out = g_calls_per_iteration;
  g_calls_per_iteration.clear();
  return out;
}

}  // namespace

TEST_CASE("engine: every mode gives a sane primary score") {
  const auto& def = definition("EngineModes.empty");
  for (auto mode : {BenchmarkMode::throughput, BenchmarkMode::average_time, BenchmarkMode::sample_time,
                    BenchmarkMode::single_shot}) {
    CAPTURE(cmh::mode_short_label(mode));
    auto plan = quick_plan(def, mode);
    auto obs = run(def, plan);
    REQUIRE(obs.results.size() == 3);
    CHECK(obs.events == std::vector<std::string>{"start W1", "done W1", "start M1", "done M1", "start M2", "done M2"});
    for (const auto& r : obs.results) {
      check_sane(r, plan);
      if (mode == BenchmarkMode::throughput || mode == BenchmarkMode::average_time) {
        CHECK(r.primary.value == doctest::Approx(cmh::primary_iteration_score(mode, plan.time_unit, r.threads)));
        CHECK(!r.samples.has_value());
      } else {
        REQUIRE(r.samples.has_value());
        CHECK(r.samples->total_count() <= r.measured_ops);
      }
    }
    // Sample time keeps its sampling stride across iterations (JMH), so on a busy machine
    // a later iteration that hardly ran may hold no sample; the first one starts by
    // sampling every call, so it holds at least its first.
    if (mode == BenchmarkMode::sample_time || mode == BenchmarkMode::single_shot)
      CHECK(obs.results.front().samples->total_count() > 0);
  }
}

TEST_CASE("engine: throughput and average time are reciprocal views of the same loop") {
  const auto& def = definition("EngineModes.work_1x");
  auto thrpt = quick_plan(def, BenchmarkMode::throughput);
  thrpt.time_unit = cmh::TimeUnit::s;
  for (const auto& r : run(def, thrpt).measured()) {
    const auto& t = r.threads.front();
    CHECK(r.primary.value == doctest::Approx(t.measured_ops * 1e9 / t.duration_ns));
    CHECK(r.primary.unit == "ops/s");
  }
  auto avgt = quick_plan(def, BenchmarkMode::average_time);
  avgt.time_unit = cmh::TimeUnit::us;
  for (const auto& r : run(def, avgt).measured()) {
    const auto& t = r.threads.front();
    CHECK(r.primary.value == doctest::Approx(t.duration_ns / 1e3 / t.measured_ops));
    CHECK(r.primary.unit == "us/op");
  }
}

TEST_CASE("engine: a benchmark four times as costly measures about four times slower") {
  // On the thread's CPU time per op, pooled over iterations until each side has run for
  // 20 ms of CPU: a busy machine makes the wall-time score of a waiting thread anything,
  // and can leave an iteration a window of one op (the stop came before the thread ran),
  // whose CPU time is mostly the clock reads around it. Pooled, such an iteration weighs
  // one op; a loaded machine only makes the loop take more rounds.
  auto cpu_per_op = [](const char* name) {
    const auto& def = definition(name);
    std::int64_t cpu = 0;
    std::uint64_t ops = 0;
    for (int round = 0; round < 50 && cpu < 20'000'000; ++round) {
      for (const auto& r : run(def, quick_plan(def, BenchmarkMode::average_time, 1, 3, 30)).measured()) {
        const auto& t = r.threads.front();
        CHECK(t.cpu_ns >= 0);
        CHECK(t.window_ns >= t.duration_ns);  // no invocation fixtures: the window is the timed time
        cpu += t.cpu_ns;
        ops += t.measured_ops;
      }
    }
    REQUIRE(ops > 0);
    CAPTURE(cpu);
    CAPTURE(ops);
    return static_cast<double>(cpu) / static_cast<double>(ops);
  };
  const double cost_1x = cpu_per_op("EngineModes.work_1x");
  const double cost_4x = cpu_per_op("EngineModes.work_4x");
  CAPTURE(cost_1x);
  CAPTURE(cost_4x);
  const double ratio = cost_4x / cost_1x;
  CAPTURE(ratio);
  CHECK(ratio > 2.0);
  CHECK(ratio < 8.0);
}

TEST_CASE("engine: all ops count every call, measured ops only the timed window") {
  const auto& def = definition("EngineModes.counted");
  take_calls();
  auto obs = run(def, quick_plan(def, BenchmarkMode::average_time));
  const auto calls = take_calls();
  REQUIRE(calls.size() == obs.results.size());
  for (std::size_t i = 0; i < calls.size(); ++i) {
    CHECK(obs.results[i].all_ops == calls[i]);  // ramp-up and ramp-down included
    CHECK(obs.results[i].measured_ops <= calls[i]);
  }
}

TEST_CASE("engine: operations per invocation multiply and batch size divides the op counts") {
  const auto& def = definition("EngineModes.counted");
  SUBCASE("opi in a time mode") {
    auto plan = quick_plan(def, BenchmarkMode::throughput);
    plan.ops_per_invocation = 4;
    take_calls();
    auto obs = run(def, plan);
    const auto calls = take_calls();
    REQUIRE(calls.size() == obs.results.size());
    for (std::size_t i = 0; i < calls.size(); ++i) {
      CHECK(obs.results[i].all_ops == 4 * calls[i]);
      CHECK(obs.results[i].measured_ops % 4 == 0);
    }
  }
  SUBCASE("batch size in a time mode") {
    auto plan = quick_plan(def, BenchmarkMode::average_time);
    plan.warmup.batch_size = 3;
    plan.measurement.batch_size = 3;
    take_calls();
    auto obs = run(def, plan);
    const auto calls = take_calls();
    REQUIRE(calls.size() == obs.results.size());
    for (std::size_t i = 0; i < calls.size(); ++i) CHECK(obs.results[i].all_ops == calls[i] / 3);
  }
  SUBCASE("single shot runs one batch per iteration and counts it as opi ops") {
    auto plan = quick_plan(def, BenchmarkMode::single_shot);
    plan.warmup.batch_size = 5;
    plan.measurement.batch_size = 7;
    plan.ops_per_invocation = 2;
    take_calls();
    auto obs = run(def, plan);
    CHECK(take_calls() == std::vector<std::uint64_t>{5, 7, 7});
    for (const auto& r : obs.results) {
      CHECK(r.measured_ops == 2);
      CHECK(r.all_ops == 2);
      REQUIRE(r.samples.has_value());
      CHECK(r.samples->total_count() == 1);
      const auto& t = r.threads.front();
      CHECK(r.primary.value == doctest::Approx(t.duration_ns / 2.0));
    }
  }
}

TEST_CASE("engine: sample time records at most one sample per batch and scores the histogram mean") {
  const auto& def = definition("EngineModes.work_1x");
  auto plan = quick_plan(def, BenchmarkMode::sample_time);
  // No warmup: the first measured iteration starts by sampling every batch, so it holds
  // a sample however little it ran; later ones may hold none on a busy machine.
  plan.warmup.count = 0;
  plan.measurement.batch_size = 2;
  auto obs = run(def, plan);
  const auto measured = obs.measured();
  REQUIRE(measured.size() == 2);
  CHECK(measured.front().samples->total_count() > 0);
  for (const auto& r : measured) {
    REQUIRE(r.samples.has_value());
    const auto samples = r.samples->total_count();
    CHECK(samples <= r.measured_ops);  // one op = one batch; a sample times one batch
    CHECK(r.all_ops >= r.measured_ops);
    CHECK(r.primary.unit == "ns/op");
    if (samples == 0) {
      CHECK(std::isnan(r.primary.value));
      continue;
    }
    double weighted = 0;
    r.samples->for_each([&](double v, std::uint64_t n) { weighted += v * static_cast<double>(n); });
    CHECK(r.primary.value == doctest::Approx(weighted / static_cast<double>(samples)));
  }
}

TEST_CASE("engine: sample time thins its sampling as samples accumulate") {
  const auto& def = definition("EngineModes.empty");
  auto plan = quick_plan(def, BenchmarkMode::sample_time, 1, 1, 50);
  // 20 samples per millisecond of iteration time before each halving (JMH): at most
  // 2 x 20 x 50 in a 50 ms iteration, where an empty body would otherwise give one per call.
  constexpr std::uint64_t kMaxSamples = 2 * 20 * 50 + 1;
  // Thinning shows only when the thread ran many more calls than that: a busy machine can
  // keep it off its CPU for most of the 50 ms (a handful of calls, none sampled), so such
  // an iteration is run again rather than judged.
  for (int attempt = 1;; ++attempt) {
    const auto measured = run(def, plan).measured();
    REQUIRE(measured.size() == 1);
    const auto& r = measured.front();
    REQUIRE(r.samples.has_value());
    CHECK(r.samples->total_count() <= kMaxSamples);
    if (r.measured_ops >= 8 * kMaxSamples) {
      CHECK(r.samples->total_count() < r.measured_ops / 4);
      break;
    }
    if (attempt == 5) {
      MESSAGE("the thread ran only " << r.measured_ops << " calls in each of 5 iterations of 50 ms (a starved machine): "
                                                             "thinning not judged");
      break;
    }
  }
}

TEST_CASE("engine: a returned value is consumed and the call still counts") {
  const auto& def = definition("EngineModes.returns_value");
  auto obs = run(def, quick_plan(def, BenchmarkMode::throughput));
  for (const auto& r : obs.results) CHECK(r.measured_ops > 0);
}
