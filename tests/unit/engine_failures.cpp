// SPDX-License-Identifier: MIT
// Failures: exceptions from the body or any fixture end the trial with a
// Failure naming the demangled type and what(); the observer hears of it at the
// right iteration; fixtures already set up are still torn down; a worker that
// throws does not leave the others spinning; timeouts mark the iteration.
#include <cmh/cmh.hpp>
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "engine_support.hpp"

namespace engine_failures_test {

struct Oops : std::logic_error {
  using std::logic_error::logic_error;
};

std::atomic<int> g_iteration{0};
std::atomic<int> g_teardowns{0};
std::atomic<bool> g_throw_in_setup{false}, g_throw_in_iteration_setup{false}, g_throw_in_teardown{false};

struct Countdown : cmh::ThreadState {
  void setup_trial() {
    g_iteration = 0;
    if (g_throw_in_setup) throw std::runtime_error("setup went wrong");
  }
  void setup_iteration() {
    ++g_iteration;
    if (g_throw_in_iteration_setup && g_iteration == 2) throw Oops("second iteration setup");
  }
  void teardown_trial() {
    ++g_teardowns;
    if (g_throw_in_teardown) throw std::runtime_error("teardown went wrong");
  }
};

}  // namespace engine_failures_test

using namespace engine_failures_test;

CMH_BENCHMARK(EngineFailures, throws_in_m2, Countdown&) {
  if (g_iteration == 3) throw std::runtime_error("boom");
}
CMH_BENCHMARK(EngineFailures, throws_custom, const cmh::ThreadParams& tp) {
  if (tp.thread_index == 1) throw Oops("only thread 1");
  cmh::Blackhole::consume_cpu(10);
}
CMH_BENCHMARK(EngineFailures, throws_int) { throw 42; }
CMH_BENCHMARK(EngineFailures, fixture_trouble, Countdown&) {}
CMH_BENCHMARK(EngineFailures, slow_call) { std::this_thread::sleep_for(std::chrono::milliseconds(150)); }

using cmh::BenchmarkMode;
using cmh::testing::definition;
using cmh::testing::quick_plan;
using cmh::testing::run;

TEST_CASE("engine: an exception from the body fails the trial at that iteration") {
  const auto& def = definition("EngineFailures.throws_in_m2");
  g_teardowns = 0;
  auto obs = run(def, quick_plan(def, BenchmarkMode::average_time), false);
  REQUIRE(obs.failure);
  CHECK(obs.failure->kind == cmh::FailureKind::exception);
  CHECK(obs.failure->exception_type == "std::runtime_error");
  CHECK(obs.failure->message == "boom");
  CHECK(obs.events == std::vector<std::string>{"start W1", "done W1", "start M1", "done M1", "start M2", "fail M2"});
  CHECK(g_teardowns == 1);  // trial teardown still ran
}

TEST_CASE("engine: a failing thread stops its partners at once, in every mode") {
  const auto& def = definition("EngineFailures.throws_custom");
  for (auto mode : {BenchmarkMode::throughput, BenchmarkMode::sample_time, BenchmarkMode::single_shot}) {
    auto plan = quick_plan(def, mode, 3);
    plan.measurement.time = std::chrono::seconds(60);  // an early stop is the only way this test ends soon
    plan.warmup.time = std::chrono::seconds(60);
    auto obs = run(def, plan, false);
    REQUIRE(obs.failure);
    CHECK(obs.failure->exception_type == "engine_failures_test::Oops");
    CHECK(obs.failure->message == "only thread 1");
    CHECK(obs.events == std::vector<std::string>{"start W1", "fail W1"});
  }
}

TEST_CASE("engine: exceptions of any type are reported") {
  const auto& def = definition("EngineFailures.throws_int");
  auto obs = run(def, quick_plan(def), false);
  REQUIRE(obs.failure);
  CHECK(obs.failure->exception_type == "int");
  CHECK(obs.failure->message.find("not derived from std::exception") != std::string::npos);
}

TEST_CASE("engine: exceptions from fixtures fail the trial where they happen") {
  const auto& def = definition("EngineFailures.fixture_trouble");
  SUBCASE("trial setup") {
    g_throw_in_setup = true;
    auto obs = run(def, quick_plan(def), false);
    g_throw_in_setup = false;
    CHECK(obs.failure->message == "setup went wrong");
    CHECK(obs.events == std::vector<std::string>{"fail W1"});
  }
  SUBCASE("iteration setup") {
    g_throw_in_iteration_setup = true;
    g_teardowns = 0;
    auto obs = run(def, quick_plan(def), false);
    g_throw_in_iteration_setup = false;
    CHECK(obs.failure->exception_type == "engine_failures_test::Oops");
    CHECK(obs.events == std::vector<std::string>{"start W1", "done W1", "start M1", "fail M1"});
    CHECK(g_teardowns == 1);
  }
  SUBCASE("trial teardown") {
    g_throw_in_teardown = true;
    auto obs = run(def, quick_plan(def), false);
    g_throw_in_teardown = false;
    CHECK(obs.failure->message == "teardown went wrong");
    CHECK(obs.results.size() == 3);
    CHECK(obs.events.back() == "fail M2");
  }
}

TEST_CASE("engine: an iteration that ends after its timeout is marked, and its results kept") {
  const auto& def = definition("EngineFailures.slow_call");
  auto plan = quick_plan(def, BenchmarkMode::single_shot, 1, 1);
  plan.warmup.count = 0;
  plan.timeout = std::chrono::milliseconds(20);
  auto obs = run(def, plan);
  REQUIRE(obs.results.size() == 1);
  CHECK(obs.results[0].timed_out);
  CHECK(obs.results[0].primary.value > 0);
  plan.timeout = std::chrono::seconds(30);
  CHECK_FALSE(run(def, plan).results[0].timed_out);
}
