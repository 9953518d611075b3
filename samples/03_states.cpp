// SPDX-License-Identifier: MIT
// Sample 03, States: where benchmark data lives, and who shares it.
//
// Benchmark arguments other than the harness's own objects are states: classes the
// harness constructs, injects by type and destroys. The base class is the scope:
//   cmh::ThreadState     one instance per worker thread (JMH's Scope.Thread);
//   cmh::BenchmarkState  one instance shared by all threads (Scope.Benchmark);
//   cmh::GroupState      one per thread group (Scope.Group, see sample 12).
// Both benchmarks below run on two threads and increment an atomic counter. With
// `shared` both threads hit the same counter, whose cache line travels between the
// cores on every increment; with `per_thread` each core keeps its own line and the
// same code runs faster. The scope is part of what is measured: pick the one the real
// program has. (Both need two threads truly in parallel: on a loaded machine, or a VM
// whose vCPUs share a core, the threads take turns and the difference shrinks.)
//
//   cmh-samples States
//   cmh-samples States -t 1     one thread: the two scopes cost the same
#include <cmh/cmh.hpp>

#include <atomic>
#include <cstdint>

using namespace std::chrono_literals;

CMH_OPTIONS(States, cmh::threads{2}, cmh::mode::average_time, cmh::output_unit{1ns},
            cmh::warmup{3, 500ms}, cmh::measurement{5, 500ms}, cmh::fork{1});

namespace {
struct SharedCounter : cmh::BenchmarkState {
  std::atomic<std::uint64_t> value{0};
};

struct OwnCounter : cmh::ThreadState {
  std::atomic<std::uint64_t> value{0};
};
}  // namespace

CMH_BENCHMARK(States, shared, SharedCounter& c) {
  return c.value.fetch_add(1, std::memory_order_relaxed);
}

CMH_BENCHMARK(States, per_thread, OwnCounter& c) {
  return c.value.fetch_add(1, std::memory_order_relaxed);
}
