// SPDX-License-Identifier: MIT
// Proves the engine's allocation rule end to end: between the profilers'
// before_iteration and after_iteration nothing in the harness allocates, on
// any thread. The executable interposes malloc and friends (forwarding to
// glibc) and counts calls and bytes while a profiler has the window open.
// Every allocation-free benchmark, in every mode, with threads, groups, aux
// counters and invocation fixtures, must show exactly 0; a benchmark that makes
// one std::vector<int>(1000) per call must show exactly 4000 B per operation.
// -gc true must call cmh_alloc_collect() once per iteration. Exit 0 = pass.
#include <cmh/cmh.hpp>
#include <cmh/extension.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "engine/trial.hpp"

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void __libc_free(void*);
}

namespace {
std::atomic<bool> g_counting{false};
std::atomic<std::uint64_t> g_calls{0}, g_bytes{0};
void count(std::size_t n) {
  if (g_counting.load(std::memory_order_relaxed)) {
    g_calls.fetch_add(1, std::memory_order_relaxed);
    g_bytes.fetch_add(n, std::memory_order_relaxed);
  }
}
std::atomic<int> g_collections{0};
}  // namespace

extern "C" {
void* malloc(std::size_t n) {
  count(n);
  return __libc_malloc(n);
}
void* calloc(std::size_t k, std::size_t n) {
  count(k * n);
  return __libc_calloc(k, n);
}
void* realloc(void* p, std::size_t n) {
  count(n);
  return __libc_realloc(p, n);
}
void free(void* p) { __libc_free(p); }
void* aligned_alloc(std::size_t a, std::size_t n) {
  count(n);
  return __libc_memalign(a, n);
}
void* memalign(std::size_t a, std::size_t n) {
  count(n);
  return __libc_memalign(a, n);
}
int posix_memalign(void** out, std::size_t a, std::size_t n) {
  count(n);
  *out = __libc_memalign(a, n);
  return *out ? 0 : 12;  // ENOMEM
}
// The engine's -gc hook, normally the bundled allocator's.
void cmh_alloc_collect(void) { g_collections.fetch_add(1); }
}

namespace {

struct Counters : cmh::ThreadState {
  std::uint64_t ops = 0;
  static constexpr auto counters = cmh::aux_counters(cmh::ops_counter("ops", &Counters::ops));
};
struct PerCall : cmh::BenchmarkState {
  long ticks = 0;
  void setup_invocation() { ++ticks; }
  void teardown_invocation() { --ticks; }
};
struct Shared : cmh::GroupState {
  std::atomic<long> value{0};
};

/// Counts allocations while the iteration's window is open.
class AllocationWindow : public cmh::InternalProfiler {
 public:
  void before_iteration(const cmh::BenchmarkParams&, const cmh::IterationParams&) override {
    g_calls = 0;
    g_bytes = 0;
    g_counting = true;
  }
  std::vector<cmh::ScalarResult> after_iteration(const cmh::BenchmarkParams&, const cmh::IterationParams&,
                                                 const cmh::IterationResult& r) override {
    g_counting = false;
    calls.push_back(g_calls.load());
    bytes.push_back(g_bytes.load());
    ops.push_back(r.all_ops);
    return {};
  }
  std::vector<std::uint64_t> calls, bytes, ops;
};

struct QuietObserver : cmh::engine::TrialObserver {
  void iteration_started(const cmh::IterationParams&, int) override {}
  void iteration_finished(const cmh::IterationResult&) override {}
  void iteration_failed(const cmh::IterationParams&, int, const cmh::Failure& f) override {
    std::printf("FAIL: the trial failed: %s\n", f.message.c_str());
  }
};

}  // namespace

CMH_BENCHMARK(AllocCheck, empty) {}
CMH_BENCHMARK(AllocCheck, counters_and_fixtures, Counters& c, PerCall& p, cmh::Blackhole& bh) {
  ++c.ops;
  bh.consume(p.ticks);
}
CMH_GROUP_BENCHMARK(AllocCheck, group, get, cmh::group_threads{1}, Shared& s) { return s.value.load(); }
CMH_GROUP_BENCHMARK(AllocCheck, group, put, cmh::group_threads{1}, Shared& s) { s.value.fetch_add(1); }
CMH_BENCHMARK(AllocCheck, vector1000, cmh::Blackhole& bh) {
  std::vector<int> v(1000);
  bh.consume(v.data());
}

int main() {
  using namespace std::chrono_literals;
  int failures = 0;
  struct Case {
    const char* name;
    cmh::BenchmarkMode mode;
    int threads;
    bool gc;
  };
  const Case cases[] = {
      {"AllocCheck.empty", cmh::BenchmarkMode::throughput, 1, false},
      {"AllocCheck.empty", cmh::BenchmarkMode::average_time, 3, false},
      {"AllocCheck.empty", cmh::BenchmarkMode::sample_time, 2, false},
      {"AllocCheck.empty", cmh::BenchmarkMode::single_shot, 2, false},
      {"AllocCheck.counters_and_fixtures", cmh::BenchmarkMode::throughput, 2, true},
      {"AllocCheck.counters_and_fixtures", cmh::BenchmarkMode::sample_time, 1, false},
      {"AllocCheck.group", cmh::BenchmarkMode::average_time, 4, false},
      {"AllocCheck.vector1000", cmh::BenchmarkMode::throughput, 2, false},
      {"AllocCheck.vector1000", cmh::BenchmarkMode::single_shot, 1, false},
  };
  for (const Case& c : cases) {
    const cmh::BenchmarkDefinition* def = cmh::find_benchmark(c.name);
    if (def == nullptr) {
      std::printf("FAIL: %s is not registered\n", c.name);
      return 1;
    }
    cmh::BenchmarkParams plan;
    plan.benchmark = def->full_name();
    plan.name = def->name;
    plan.mode = c.mode;
    plan.time_unit = cmh::TimeUnit::ns;
    plan.warmup = {cmh::IterationKind::warmup, 1, 30ms, 1};
    plan.measurement = {cmh::IterationKind::measurement, 3, 30ms, 1};
    plan.threads = c.threads;
    plan.thread_groups = def->group_threads;
    plan.gc_between_iterations = c.gc;
    AllocationWindow window;
    cmh::InternalProfiler* profilers[] = {&window};
    QuietObserver observer;
    g_collections = 0;
    if (cmh::engine::run_trial(*def, plan, profilers, observer)) {
      ++failures;
      continue;
    }
    const bool allocates = std::string_view(c.name) == "AllocCheck.vector1000";
    for (std::size_t i = 0; i < window.calls.size(); ++i) {
      const std::uint64_t expected_calls = allocates ? window.ops[i] : 0;
      const bool ok = window.calls[i] == expected_calls && window.bytes[i] == 4000 * expected_calls;
      std::printf("%s %s %s threads=%d iteration %zu: %llu allocations, %llu bytes, %llu ops\n", ok ? "ok  " : "FAIL",
                  c.name, std::string(cmh::mode_short_label(c.mode)).c_str(), c.threads, i + 1,
                  static_cast<unsigned long long>(window.calls[i]), static_cast<unsigned long long>(window.bytes[i]),
                  static_cast<unsigned long long>(window.ops[i]));
      failures += ok ? 0 : 1;
    }
    const int expected_collections = c.gc ? 4 : 0;
    if (g_collections != expected_collections) {
      std::printf("FAIL: %s: cmh_alloc_collect() called %d times, expected %d\n", c.name, g_collections.load(),
                  expected_collections);
      ++failures;
    }
  }
  std::printf("%s\n", failures == 0 ? "all iterations allocation-exact" : "FAILED");
  return failures == 0 ? 0 : 1;
}
