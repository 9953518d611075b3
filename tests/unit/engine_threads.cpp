// SPDX-License-Identifier: MIT
// Threads and @Group benchmarks: per-thread measurements, the thread layout
// (ThreadParams, groups rounded up, -tg overrides), group-scoped states per
// group instance, per-member secondary results, synchronised iterations on and
// off, and Control letting a ping-pong pair escape at the end of an iteration.
#include <cmh/cmh.hpp>
#include <doctest/doctest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <set>

#include "engine_support.hpp"

namespace {

std::mutex g_threads_mutex;
std::map<int, cmh::ThreadParams> g_thread_params;  // by thread index
std::map<int, const void*> g_group_state_of;       // thread index -> group state address

struct Spot : cmh::GroupState {
  std::atomic<long> value{0};
};

struct WhoAmI : cmh::ThreadState {
  void setup_trial(const cmh::ThreadParams& tp, Spot& spot) {
    std::lock_guard<std::mutex> hold(g_threads_mutex);
    g_thread_params[tp.thread_index] = tp;
    g_group_state_of[tp.thread_index] = &spot;
  }
};

struct PingPong : cmh::GroupState {
  std::atomic<bool> ball{false};
};

void clear_records() {
  std::lock_guard<std::mutex> hold(g_threads_mutex);
  g_thread_params.clear();
  g_group_state_of.clear();
}

}  // namespace

CMH_BENCHMARK(EngineThreads, spin) { cmh::Blackhole::consume_cpu(20); }

CMH_GROUP_BENCHMARK(EngineGroups, rw, reader, cmh::group_threads{1}, Spot& s, WhoAmI&) { return s.value.load(); }
CMH_GROUP_BENCHMARK(EngineGroups, rw, writer, cmh::group_threads{2}, Spot& s, WhoAmI&) {
  s.value.fetch_add(1, std::memory_order_relaxed);
}

// JMH sample 18: without Control, whichever side stops first leaves the other spinning forever.
CMH_GROUP_BENCHMARK(EngineControl, pingpong, ping, cmh::group_threads{1}, PingPong& p, cmh::Control& c) {
  bool expected = false;
  while (!c.stop_measurement() && !p.ball.compare_exchange_weak(expected, true)) expected = false;
}
CMH_GROUP_BENCHMARK(EngineControl, pingpong, pong, cmh::group_threads{1}, PingPong& p, cmh::Control& c) {
  bool expected = true;
  while (!c.stop_measurement() && !p.ball.compare_exchange_weak(expected, false)) expected = true;
}

using cmh::BenchmarkMode;
using cmh::testing::definition;
using cmh::testing::quick_plan;
using cmh::testing::run;

TEST_CASE("engine: several threads each measure their own window, throughput sums them") {
  const auto& def = definition("EngineThreads.spin");
  auto plan = quick_plan(def, BenchmarkMode::throughput, 3);
  plan.time_unit = cmh::TimeUnit::s;
  for (const auto& r : run(def, plan).results) {
    REQUIRE(r.threads.size() == 3);
    double sum = 0;
    for (const auto& t : r.threads) {
      CHECK(t.measured_ops > 0);
      CHECK(t.duration_ns > 0);
      sum += t.measured_ops * 1e9 / t.duration_ns;
    }
    CHECK(r.primary.value == doctest::Approx(sum));
  }
}

TEST_CASE("engine: average time with threads is the mean of the per-thread averages") {
  const auto& def = definition("EngineThreads.spin");
  auto plan = quick_plan(def, BenchmarkMode::average_time, 2);
  for (const auto& r : run(def, plan).results) {
    REQUIRE(r.threads.size() == 2);
    const double a = static_cast<double>(r.threads[0].duration_ns) / r.threads[0].measured_ops;
    const double b = static_cast<double>(r.threads[1].duration_ns) / r.threads[1].measured_ops;
    CHECK(r.primary.value == doctest::Approx((a + b) / 2));
  }
}

TEST_CASE("engine: without synchronised iterations every call is measured") {
  const auto& def = definition("EngineThreads.spin");
  auto plan = quick_plan(def, BenchmarkMode::throughput, 2);
  plan.sync_iterations = false;
  for (const auto& r : run(def, plan).results) CHECK(r.all_ops == r.measured_ops);
}

TEST_CASE("api: group members register as one benchmark with per-member thread counts") {
  const auto& def = definition("EngineGroups.rw");
  CHECK(def.group == "EngineGroups");
  CHECK(def.name == "rw");
  CHECK(def.group_members == std::vector<std::string>{"reader", "writer"});
  CHECK(def.group_threads == std::vector<int>{1, 2});
  REQUIRE(def.code);
  CHECK(def.code->members.size() == 2);
}

TEST_CASE("engine: a group benchmark lays out threads as JMH does and shares group states per group") {
  const auto& def = definition("EngineGroups.rw");
  clear_records();
  auto plan = quick_plan(def, BenchmarkMode::average_time, 4);  // rounded up to two groups of three
  auto obs = run(def, plan);
  for (const auto& r : obs.results) {
    REQUIRE(r.threads.size() == 6);
    std::vector<int> subgroups;
    for (const auto& t : r.threads) subgroups.push_back(t.subgroup_index);
    CHECK(subgroups == std::vector<int>{0, 1, 1, 0, 1, 1});
    REQUIRE(r.secondaries.size() >= 2);
    CHECK(r.secondaries[0].label == "reader");
    CHECK(r.secondaries[1].label == "writer");
    CHECK(r.secondaries[0].unit == "ns/op");
    std::vector<cmh::ThreadMeasurement> readers, writers;
    for (const auto& t : r.threads) (t.subgroup_index == 0 ? readers : writers).push_back(t);
    CHECK(r.secondaries[0].value ==
          doctest::Approx(cmh::primary_iteration_score(plan.mode, plan.time_unit, readers)));
    CHECK(r.secondaries[1].value ==
          doctest::Approx(cmh::primary_iteration_score(plan.mode, plan.time_unit, writers)));
  }
  std::lock_guard<std::mutex> hold(g_threads_mutex);
  REQUIRE(g_thread_params.size() == 6);
  for (const auto& [index, tp] : g_thread_params) {
    CHECK(tp.thread_count == 6);
    CHECK(tp.group_count == 2);
    CHECK(tp.group_index == index / 3);
    CHECK(tp.group_thread_index == index % 3);
    CHECK(tp.group_thread_count == 3);
    CHECK(tp.subgroup_count == 2);
    CHECK(tp.subgroup_index == (index % 3 == 0 ? 0 : 1));
    CHECK(tp.subgroup_thread_count == (index % 3 == 0 ? 1 : 2));
    CHECK(tp.subgroup_thread_index == (index % 3 == 0 ? 0 : index % 3 - 1));
  }
  CHECK(g_group_state_of[0] == g_group_state_of[1]);
  CHECK(g_group_state_of[1] == g_group_state_of[2]);
  CHECK(g_group_state_of[3] == g_group_state_of[5]);
  CHECK(g_group_state_of[0] != g_group_state_of[3]);
}

TEST_CASE("engine: the plan's thread groups override @GroupThreads") {
  const auto& def = definition("EngineGroups.rw");
  auto plan = quick_plan(def, BenchmarkMode::throughput, 3);
  plan.thread_groups = {2, 1};
  for (const auto& r : run(def, plan).results) {
    REQUIRE(r.threads.size() == 3);
    CHECK(r.threads[0].subgroup_index == 0);
    CHECK(r.threads[1].subgroup_index == 0);
    CHECK(r.threads[2].subgroup_index == 1);
  }
  plan.thread_groups = {1, 1, 1};  // three counts for two members
  auto obs = run(def, plan, false);
  REQUIRE(obs.failure);
  CHECK(obs.failure->message.find("members") != std::string::npos);
}

TEST_CASE("engine: Control lets a ping-pong pair escape when the iteration ends") {
  const auto& def = definition("EngineControl.pingpong");
  auto obs = run(def, quick_plan(def, BenchmarkMode::throughput, 2));
  CHECK(obs.results.size() == 3);
  for (const auto& r : obs.results) {
    REQUIRE(r.secondaries.size() >= 2);
    CHECK(r.secondaries[0].label == "ping");
    CHECK(r.secondaries[1].label == "pong");
  }
}
