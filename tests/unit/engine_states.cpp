// SPDX-License-Identifier: MIT
// States: one instance per thread / per group / per benchmark, fixtures at each
// level called the right number of times on the right instances, dependencies
// set up first and torn down last, padding, and invocation fixtures kept out of
// the timing.
#include <cmh/cmh.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "engine_support.hpp"

namespace {

std::mutex g_states_mutex;
std::vector<std::string> g_calls;               // fixture calls, in order
std::map<std::string, int> g_count;            // fixture name -> calls
std::set<const void*> g_thread_instances, g_shared_instances;
std::atomic<std::uint64_t> g_body_calls{0};

void note_call(const std::string& what, bool log = true) {
  std::lock_guard<std::mutex> hold(g_states_mutex);
  ++g_count[what];
  if (log) g_calls.push_back(what);
}
void reset() {
  std::lock_guard<std::mutex> hold(g_states_mutex);
  g_calls.clear();
  g_count.clear();
  g_thread_instances.clear();
  g_shared_instances.clear();
  g_body_calls = 0;
}

struct Everything : cmh::BenchmarkState {
  void setup_trial() { note_call("B.setup_trial"); }
  void setup_iteration() { note_call("B.setup_iteration"); }
  void teardown_iteration() { note_call("B.teardown_iteration"); }
  void teardown_trial() { note_call("B.teardown_trial"); }
};
struct PerGroup : cmh::GroupState {
  void setup_trial(Everything&) { note_call("G.setup_trial"); }
  void teardown_trial() { note_call("G.teardown_trial"); }
};
struct PerThread : cmh::ThreadState {
  std::uint64_t calls = 0;
  void setup_trial(PerGroup&, Everything& b) {
    note_call("T.setup_trial");
    std::lock_guard<std::mutex> hold(g_states_mutex);
    g_thread_instances.insert(this);
    g_shared_instances.insert(&b);
  }
  void setup_iteration() { note_call("T.setup_iteration"); }
  void setup_invocation() { note_call("T.setup_invocation", false); }
  void teardown_invocation() { note_call("T.teardown_invocation", false); }
  void teardown_iteration() { note_call("T.teardown_iteration"); }
  void teardown_trial() { note_call("T.teardown_trial"); }
};

// A diamond: Top needs Left and Right, both need Base.
struct Base : cmh::BenchmarkState {
  int ready = 0;
  void setup_trial() { note_call("Base.setup"); ready = 1; }
  void teardown_trial() { note_call("Base.teardown"); }
};
struct Left : cmh::BenchmarkState {
  int ready = 0;
  void setup_trial(const Base& b) { note_call("Left.setup"); ready = b.ready + 1; }
  void teardown_trial() { note_call("Left.teardown"); }
};
struct Right : cmh::GroupState {
  int ready = 0;
  void setup_trial(Base& b) { note_call("Right.setup"); ready = b.ready + 1; }
  void teardown_trial() { note_call("Right.teardown"); }
};
struct Top : cmh::ThreadState {
  int ready = 0;
  void setup_trial(Left& l, Right& r) { note_call("Top.setup"); ready = l.ready + r.ready; }
  void teardown_trial(Base&) { note_call("Top.teardown"); }
};

struct Padded : cmh::ThreadState {
  char byte = 0;
};

struct SlowSetup : cmh::ThreadState {
  void setup_invocation() { cmh::Blackhole::consume_cpu(2000); }
};

// The same per-call timing as SlowSetup with nothing in the fixture: what timing each
// call costs by itself.
struct EmptySetup : cmh::ThreadState {
  void setup_invocation() {}
};

}  // namespace

CMH_BENCHMARK(EngineStates, fixtures, PerThread& t) {
  ++t.calls;
  g_body_calls.fetch_add(1, std::memory_order_relaxed);
}
CMH_BENCHMARK(EngineStates, diamond, Top& top, cmh::Blackhole& bh) { bh.consume(top.ready); }
CMH_BENCHMARK(EngineStates, padded, Padded& p) { return static_cast<int>(reinterpret_cast<std::uintptr_t>(&p) % 128); }
CMH_BENCHMARK(EngineStates, slow_setup, SlowSetup&) {}
CMH_BENCHMARK(EngineStates, empty_setup, EmptySetup&) {}
CMH_BENCHMARK(EngineStates, slow_body) { cmh::Blackhole::consume_cpu(2000); }

using cmh::BenchmarkMode;
using cmh::testing::definition;
using cmh::testing::quick_plan;
using cmh::testing::run;

TEST_CASE("engine: fixtures run once per trial, once per iteration and around every call") {
  const auto& def = definition("EngineStates.fixtures");
  reset();
  auto plan = quick_plan(def, BenchmarkMode::average_time, 2);  // 1 warmup + 2 measurement iterations
  auto obs = run(def, plan);
  std::uint64_t all_ops = 0;
  for (const auto& r : obs.results) all_ops += r.all_ops;

  std::lock_guard<std::mutex> hold(g_states_mutex);
  CHECK(g_count["B.setup_trial"] == 1);  // one shared instance for both threads
  CHECK(g_count["B.teardown_trial"] == 1);
  CHECK(g_count["B.setup_iteration"] == 3);
  CHECK(g_count["B.teardown_iteration"] == 3);
  CHECK(g_count["G.setup_trial"] == 2);  // no @Group: each thread is its own group
  CHECK(g_count["T.setup_trial"] == 2);
  CHECK(g_count["T.teardown_trial"] == 2);
  CHECK(g_count["T.setup_iteration"] == 6);
  CHECK(g_count["T.teardown_iteration"] == 6);
  CHECK(static_cast<std::uint64_t>(g_count["T.setup_invocation"]) == g_body_calls.load());
  CHECK(static_cast<std::uint64_t>(g_count["T.teardown_invocation"]) == g_body_calls.load());
  CHECK(all_ops == g_body_calls.load());
  CHECK(g_thread_instances.size() == 2);  // distinct per thread
  CHECK(g_shared_instances.size() == 1);  // one benchmark-scoped instance

  // Wider scopes are set up first and torn down last; iterations nest inside the trial.
  auto first = [&](const std::string& s) { return std::find(g_calls.begin(), g_calls.end(), s) - g_calls.begin(); };
  auto last = [&](const std::string& s) {
    return std::find(g_calls.rbegin(), g_calls.rend(), s).base() - g_calls.begin() - 1;
  };
  CHECK(first("B.setup_trial") < first("G.setup_trial"));
  CHECK(first("G.setup_trial") < first("T.setup_trial"));
  CHECK(last("T.setup_trial") < first("B.setup_iteration"));
  CHECK(last("T.teardown_trial") < first("G.teardown_trial"));
  CHECK(last("G.teardown_trial") < first("B.teardown_trial"));
  CHECK(last("B.teardown_iteration") < first("T.teardown_trial"));
  CHECK(g_calls.back() == "B.teardown_trial");
}

TEST_CASE("engine: state dependencies form a DAG set up in dependency order") {
  const auto& def = definition("EngineStates.diamond");
  REQUIRE(def.code);
  const auto& states = def.code->members.front().states;
  REQUIRE(states.size() == 4);  // each state once, however many paths lead to it
  reset();
  run(def, quick_plan(def, BenchmarkMode::throughput, 1, 1));
  std::lock_guard<std::mutex> hold(g_states_mutex);
  CHECK(g_calls == std::vector<std::string>{"Base.setup", "Left.setup", "Right.setup", "Top.setup", "Top.teardown",
                                            "Right.teardown", "Left.teardown", "Base.teardown"});
}

TEST_CASE("engine: states are 128-byte aligned") {
  const auto& def = definition("EngineStates.padded");
  // The body returns its state's address modulo 128; any other value would not be 0.
  auto obs = run(def, quick_plan(def, BenchmarkMode::throughput, 2, 1));
  CHECK(obs.results.size() == 2);
  const auto& states = def.code->members.front().states;
  REQUIRE(states.size() == 1);
  auto* p = states.front().create({});
  CHECK(reinterpret_cast<std::uintptr_t>(p) % 128 == 0);
  states.front().destroy(p);
}

TEST_CASE("engine: invocation fixtures are not part of the measured time") {
  auto best = [](const char* name) {
    const auto& def = definition(name);
    double b = 1e300;
    for (const auto& r : run(def, quick_plan(def, BenchmarkMode::average_time, 1, 2, 30)).measured())
      b = std::min(b, r.primary.value);
    return b;
  };
  const double with_fixture = best("EngineStates.slow_setup");
  const double timer_cost = best("EngineStates.empty_setup");  // timing each call, empty fixture
  const double in_body = best("EngineStates.slow_body");
  CAPTURE(with_fixture);
  CAPTURE(timer_cost);
  CAPTURE(in_body);
  // The fixture's 2000 tokens are excluded: what remains of the op is the cost of timing
  // each call, which an empty fixture shows (a slow emulated clock makes that cost
  // larger than the body, so it is subtracted rather than assumed small).
  CHECK((with_fixture - timer_cost) * 3 < in_body);
}
