// SPDX-License-Identifier: MIT
// The order around an iteration: observer start, iteration setups, profilers'
// before_iteration in order, measurement, after_iteration in reverse, iteration
// teardowns, observer finish; profiler results appended after the benchmark's
// own secondaries; after_iteration also on the failure path.
#include <cmh/cmh.hpp>
#include <doctest/doctest.h>

#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine_support.hpp"

namespace {

std::mutex g_mutex;
std::vector<std::string> g_log;
bool g_fail_in_body = false;

void note(const std::string& s) {
  std::lock_guard<std::mutex> hold(g_mutex);
  g_log.push_back(s);
}

struct Logged : cmh::ThreadState {
  std::uint64_t n = 0;
  static constexpr auto counters = cmh::aux_counters(cmh::event_counter("n", &Logged::n));
  void setup_iteration() { note("setup_iteration"); }
  void teardown_iteration() { note("teardown_iteration"); }
};

class NamedProfiler : public cmh::InternalProfiler {
 public:
  explicit NamedProfiler(std::string name) : name_(std::move(name)) {}
  void before_iteration(const cmh::BenchmarkParams&, const cmh::IterationParams&) override {
    note("before " + name_);
  }
  std::vector<cmh::ScalarResult> after_iteration(const cmh::BenchmarkParams&, const cmh::IterationParams&,
                                                 const cmh::IterationResult& r) override {
    note("after " + name_);
    // The result is complete by now: threads, ops and wall time.
    return {{name_ + ".ops", static_cast<double>(r.all_ops), "#", cmh::AggregationPolicy::sum},
            {name_ + ".second", 2.0, "x", cmh::AggregationPolicy::average}};
  }

 private:
  std::string name_;
};

struct LoggingObserver : cmh::testing::RecordingObserver {
  void iteration_started(const cmh::IterationParams& ip, int i) override {
    note("started");
    RecordingObserver::iteration_started(ip, i);
  }
  void iteration_finished(const cmh::IterationResult& r) override {
    note("finished");
    RecordingObserver::iteration_finished(r);
  }
  void iteration_failed(const cmh::IterationParams& ip, int i, const cmh::Failure& f) override {
    note("failed");
    RecordingObserver::iteration_failed(ip, i, f);
  }
};

}  // namespace

CMH_BENCHMARK(EngineProfilers, logged, Logged& l) {
  ++l.n;
  if (g_fail_in_body) throw std::runtime_error("fails");
}

TEST_CASE("engine: profilers and fixtures are called in JMH's order around each iteration") {
  const auto& def = cmh::testing::definition("EngineProfilers.logged");
  auto plan = cmh::testing::quick_plan(def, cmh::BenchmarkMode::throughput, 1, 1);
  plan.warmup.count = 0;
  NamedProfiler a("a"), b("b");
  cmh::InternalProfiler* profilers[] = {&a, &b};
  {
    std::lock_guard<std::mutex> hold(g_mutex);
    g_log.clear();
  }
  LoggingObserver obs;
  REQUIRE_FALSE(cmh::engine::run_trial(def, plan, profilers, obs));
  {
    std::lock_guard<std::mutex> hold(g_mutex);
    CHECK(g_log == std::vector<std::string>{"started", "setup_iteration", "before a", "before b", "after b",
                                            "after a", "teardown_iteration", "finished"});
  }
  REQUIRE(obs.results.size() == 1);
  const auto& r = obs.results.front();
  std::vector<std::string> labels;
  for (const auto& s : r.secondaries) labels.push_back(s.label);
  CHECK(labels == std::vector<std::string>{"n", "a.ops", "a.second", "b.ops", "b.second"});
  CHECK(r.secondaries[1].value == static_cast<double>(r.all_ops));

  SUBCASE("after_iteration runs on the failure path too") {
    {
      std::lock_guard<std::mutex> hold(g_mutex);
      g_log.clear();
    }
    g_fail_in_body = true;
    LoggingObserver failing;
    auto failure = cmh::engine::run_trial(def, plan, profilers, failing);
    g_fail_in_body = false;
    REQUIRE(failure);
    std::lock_guard<std::mutex> hold(g_mutex);
    CHECK(g_log == std::vector<std::string>{"started", "setup_iteration", "before a", "before b", "after b",
                                            "after a", "teardown_iteration", "failed"});
  }
}
