// SPDX-License-Identifier: MIT
// Cleanup: the ScopeGuard calls its function once on any way out of a scope, and a
// trial destroys its states on every path: before it reports a failure of the
// trial's own setup or teardown, after it reported an iteration's failure, and when
// an observer throws out of the trial.
#include <cmh/cmh.hpp>
#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>

#include "engine/scope_guard.hpp"
#include "engine_support.hpp"

namespace engine_cleanup_test {

std::atomic<int> g_cleanup_teardowns{0}, g_cleanup_destroyed{0};
std::atomic<bool> g_cleanup_throw_in_setup{false}, g_cleanup_throw_in_iteration_setup{false}, g_cleanup_throw_in_teardown{false};

struct Tracked : cmh::ThreadState {
  ~Tracked() { ++g_cleanup_destroyed; }
  void setup_trial() {
    if (g_cleanup_throw_in_setup) throw std::runtime_error("setup went wrong");
  }
  void setup_iteration() {
    if (g_cleanup_throw_in_iteration_setup) throw std::runtime_error("iteration setup went wrong");
  }
  void teardown_trial() {
    ++g_cleanup_teardowns;
    if (g_cleanup_throw_in_teardown) throw std::runtime_error("teardown went wrong");
  }
};

/// Remembers how many states were destroyed when it heard of the failure.
struct WhenReported : cmh::testing::RecordingObserver {
  int destroyed_then = -1;
  bool throw_when_done = false;
  void iteration_failed(const cmh::IterationParams& ip, int index, const cmh::Failure& f) override {
    destroyed_then = g_cleanup_destroyed;
    RecordingObserver::iteration_failed(ip, index, f);
  }
  void iteration_finished(const cmh::IterationResult& r) override {
    RecordingObserver::iteration_finished(r);
    if (throw_when_done) throw std::logic_error("observer gave up");
  }
};

WhenReported run_tracked(bool throw_when_done = false) {
  const auto& def = cmh::testing::definition("EngineCleanup.tracked");
  g_cleanup_teardowns = 0;
  g_cleanup_destroyed = 0;
  WhenReported obs;
  obs.throw_when_done = throw_when_done;
  (void)cmh::engine::run_trial(def, cmh::testing::quick_plan(def, cmh::BenchmarkMode::average_time, 1, 1, 5), {},
                               obs);
  return obs;
}

}  // namespace engine_cleanup_test

using namespace engine_cleanup_test;

CMH_BENCHMARK(EngineCleanup, tracked, Tracked&) {}

TEST_CASE("engine: a scope guard calls its function once, on a return or an exception") {
  int calls = 0;
  auto leave = [&](bool by_throwing) {
    cmh::engine::ScopeGuard guard([&] { ++calls; });
    if (by_throwing) throw std::runtime_error("out");
    return calls;
  };
  CHECK(leave(false) == 0);  // not before the scope is left
  CHECK(calls == 1);
  CHECK_THROWS_AS(leave(true), std::runtime_error);
  CHECK(calls == 2);
}

TEST_CASE("engine: a trial destroys its states on every way out, in the order failures are reported") {
  SUBCASE("the trial's setup fails: destroyed, then reported") {
    g_cleanup_throw_in_setup = true;
    auto obs = run_tracked();
    g_cleanup_throw_in_setup = false;
    CHECK(obs.events == std::vector<std::string>{"fail W1"});
    CHECK(obs.destroyed_then == 1);
  }
  SUBCASE("an iteration's setup fails: reported, then torn down and destroyed") {
    g_cleanup_throw_in_iteration_setup = true;
    auto obs = run_tracked();
    g_cleanup_throw_in_iteration_setup = false;
    CHECK(obs.events == std::vector<std::string>{"start W1", "fail W1"});
    CHECK(obs.destroyed_then == 0);
    CHECK(g_cleanup_teardowns == 1);
    CHECK(g_cleanup_destroyed == 1);
  }
  SUBCASE("the trial's teardown fails: destroyed, then reported at the last iteration") {
    g_cleanup_throw_in_teardown = true;
    auto obs = run_tracked();
    g_cleanup_throw_in_teardown = false;
    CHECK(obs.events.back() == "fail M1");
    CHECK(obs.destroyed_then == 1);
    CHECK(g_cleanup_teardowns == 1);
  }
  SUBCASE("the observer throws: torn down and destroyed once all the same") {
    CHECK_THROWS_AS(run_tracked(true), std::logic_error);
    CHECK(g_cleanup_teardowns == 1);
    CHECK(g_cleanup_destroyed == 1);
  }
  SUBCASE("no failure: torn down and destroyed once") {
    auto obs = run_tracked();
    CHECK(!obs.failure);
    CHECK(obs.results.size() == 2);
    CHECK(g_cleanup_teardowns == 1);
    CHECK(g_cleanup_destroyed == 1);
  }
}
