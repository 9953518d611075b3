// SPDX-License-Identifier: MIT
// Counted iterations for -prof icount (see counted_loop.hpp).
#include "engine/counted_loop.hpp"

#include <cmh/detail/measure_loops.hpp>
#include <cmh/params.hpp>

#include <atomic>

#if defined(CMH_HAVE_CALLGRIND_H)
#include <valgrind/callgrind.h>
#define CMH_TOGGLE_COLLECT() CALLGRIND_TOGGLE_COLLECT
#else
#define CMH_TOGGLE_COLLECT() ((void)0)
#endif

namespace cmh::engine {
namespace {

std::atomic<std::uint64_t> g_counted_calls{0};

/// The body count_empty_loop() measures: nothing, through the same loop template as a
/// benchmark without arguments.
struct EmptyBody {
  [[gnu::always_inline]] static void run() {}
};
using EmptyLoops = detail::Loops<EmptyBody, detail::TypeList<>>;

}  // namespace

void set_counted_calls(std::uint64_t calls) noexcept { g_counted_calls.store(calls, std::memory_order_relaxed); }
std::uint64_t counted_calls() noexcept { return g_counted_calls.load(std::memory_order_relaxed); }

bool callgrind_client_requests() noexcept {
#if defined(CMH_HAVE_CALLGRIND_H)
  return true;
#else
  return false;
#endif
}

}  // namespace cmh::engine

namespace cmh::detail {
namespace {

/// One function for the benchmark and the empty body, so that both are counted through
/// identical code: `calls` entries into the timed loop with its stop flag raised (one
/// call each). Collected, they run twice: first uncollected, so that the simulated
/// caches and branch predictor meet the collected calls in the steady state a long timed
/// loop has (not in whatever the harness left between iterations), then with this
/// thread's collection on (Callgrind collects per thread). Returns the collected calls.
[[gnu::noinline]] std::uint64_t run_counted(const LoopHooks& h, const void* ptrs, const WorkerView& view,
                                            std::uint64_t calls, bool collect, std::int64_t& timed) {
  const std::atomic<bool> raised{true};
  for (std::uint64_t i = 0; i < calls; ++i) h.time_loop(ptrs, view, raised, timed);
  if (!collect) return calls;
  timed = 0;
  CMH_TOGGLE_COLLECT();
  for (std::uint64_t i = 0; i < calls; ++i) h.time_loop(ptrs, view, raised, timed);
  CMH_TOGGLE_COLLECT();
  return calls;
}

}  // namespace

std::uint64_t counted_loop(LoopArgs& a, const LoopHooks& hooks, const void* ptrs, std::int64_t& timed) {
  const bool collect = a.view.iteration != nullptr && a.view.iteration->kind == IterationKind::measurement;
  return run_counted(hooks, ptrs, a.view, a.counted_calls, collect, timed);
}

}  // namespace cmh::detail

namespace cmh::engine {

void count_empty_loop(std::uint64_t calls, bool collect) {
  const std::tuple<> ptrs;
  const detail::WorkerView view;
  std::int64_t timed = 0;
  detail::run_counted(EmptyLoops::kHooks, &ptrs, view, calls, collect, timed);
}

}  // namespace cmh::engine
