// SPDX-License-Identifier: MIT
// The alloc profiler and allocations made while the timing is paused, against a
// fake allocator: a paused bracket's growth is left out of alloc.* (exactly) and
// shown as alloc.paused.norm, paused=include counts it, the note says which rule
// applied, and without a profiler a bracket reads nothing.
#include <doctest/doctest.h>

#include <cmh/detail/paused_allocations.hpp>

#include "alloc_profiler.hpp"
#include "results_fixture.hpp"

namespace {

struct Fake {
  static inline std::uint64_t bytes, count, reads;
  static void reset() { bytes = count = reads = 0; }
  static cmh::profilers::AllocatorApi api() {
    cmh::profilers::AllocatorApi a;
    a.total_allocated_bytes = [] { return bytes; };
    a.total_allocations = [] { return count; };
    a.live_threads_allocated_bytes = [] { return bytes; };
    a.thread_allocated_bytes = [] { return ++reads, bytes; };  // one thread: its counters are the totals
    a.thread_allocations = [] { return count; };
    a.gc_count = [] { return std::uint64_t{0}; };
    a.gc_time_ns = [] { return std::uint64_t{0}; };
    return a;
  }
  static void allocate(std::uint64_t n) {
    bytes += n;
    ++count;
  }
};

using cmh::test::metric;

/// 10 ops, each: 1000 bytes while paused, 1024 timed.
std::vector<cmh::ScalarResult> ten_ops(cmh::profilers::AllocProfiler& p) {
  cmh::BenchmarkParams bp;
  cmh::IterationResult ir;
  ir.all_ops = 10;
  p.before_iteration(bp, bp.measurement);
  for (int i = 0; i < 10; ++i) {
    const cmh::detail::PausedMark mark = cmh::detail::paused_begin();
    Fake::allocate(1000);
    cmh::detail::paused_end(mark);
    Fake::allocate(1024);
  }
  return p.after_iteration(bp, bp.measurement, ir);
}

}  // namespace

TEST_CASE("alloc: paused allocations are left out by default, exactly") {
  Fake::reset();
  const auto api = Fake::api();
  cmh::profilers::AllocProfiler profiler({}, api);
  const auto results = ten_ops(profiler);
  const auto* norm = metric(results, "alloc.rate.norm");
  const auto* count = metric(results, "alloc.count.norm");
  const auto* paused = metric(results, "alloc.paused.norm");
  REQUIRE((norm && count && paused));
  CHECK(norm->value == 1024.0);
  CHECK(count->value == 1.0);
  CHECK(paused->value == 1000.0);
  CHECK(paused->unit == "B/op");
  CHECK(norm->note.find("excludes what was allocated while the timing was paused") != std::string::npos);
}

TEST_CASE("alloc: paused=include counts them, and says so") {
  Fake::reset();
  const auto api = Fake::api();
  cmh::profilers::AllocProfiler profiler(cmh::profilers::AllocProfiler::parse({{"paused", "include"}}), api);
  const auto results = ten_ops(profiler);
  CHECK(metric(results, "alloc.rate.norm")->value == 2024.0);
  CHECK(metric(results, "alloc.count.norm")->value == 2.0);
  CHECK(metric(results, "alloc.paused.norm")->value == 1000.0);
  CHECK(metric(results, "alloc.rate.norm")->note.find("includes what was allocated") != std::string::npos);
}

TEST_CASE("alloc: nothing paused, no alloc.paused.norm and no note; no profiler, no reads") {
  Fake::reset();
  const auto api = Fake::api();
  {
    cmh::profilers::AllocProfiler profiler({}, api);
    cmh::BenchmarkParams bp;
    cmh::IterationResult ir;
    ir.all_ops = 4;
    profiler.before_iteration(bp, bp.measurement);
    for (int i = 0; i < 4; ++i) Fake::allocate(16);
    const auto results = profiler.after_iteration(bp, bp.measurement, ir);
    CHECK(metric(results, "alloc.paused.norm") == nullptr);
    CHECK(metric(results, "alloc.rate.norm")->note.empty());
  }
  Fake::reads = 0;
  const cmh::detail::PausedMark mark = cmh::detail::paused_begin();  // the profiler is gone
  CHECK_FALSE(mark.active);
  CHECK(Fake::reads == 0);
  CHECK_THROWS_AS(cmh::profilers::AllocProfiler::parse({{"paused", "maybe"}}), cmh::ProfilerError);
}
