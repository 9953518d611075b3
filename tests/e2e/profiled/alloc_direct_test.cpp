// SPDX-License-Identifier: MIT
// The alloc profiler on the real bundled allocator, without the harness: brackets
// around real allocations, in this thread, in threads that exit inside the bracket,
// and frees made by another thread, checked to the byte. (The unit-test executable
// cannot do this: it is never linked with the allocator, so it runs a fake one.)
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "alloc_profiler.hpp"

#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

namespace {

using cmh::profilers::AllocProfiler;

double metric(const std::vector<cmh::ScalarResult>& results, std::string_view label) {
  for (const auto& r : results)
    if (r.label == label) return r.value;
  FAIL("no metric " << label);
  return -1;
}

template <class Work>
std::vector<cmh::ScalarResult> bracket(AllocProfiler& p, std::uint64_t ops, Work&& work) {
  cmh::BenchmarkParams bp;
  cmh::IterationResult ir;
  ir.all_ops = ops;
  p.before_iteration(bp, bp.measurement);
  work();
  return p.after_iteration(bp, bp.measurement, ir);
}

/// Opaque to the optimiser, so allocations are not elided.
void escape(void* p) { asm volatile("" : : "g"(p) : "memory"); }

}  // namespace

TEST_CASE("the bundled allocator is linked and its counters drive -prof alloc") {
  REQUIRE_FALSE(cmh::profilers::allocator_missing_reason(cmh::profilers::linked_allocator()).has_value());
}

TEST_CASE("bytes and allocations of this thread, exact") {
  AllocProfiler profiler({}, cmh::profilers::linked_allocator());
  const auto r = bracket(profiler, 100, [] {
    for (int i = 0; i < 100; ++i) {
      void* p = std::malloc(4000);
      escape(p);
      std::free(p);
    }
  });
  CHECK(metric(r, "alloc.rate.norm") == 4000.0);
  CHECK(metric(r, "alloc.count.norm") == 1.0);
  CHECK(metric(r, "alloc.rate") > 0);
}

TEST_CASE("threads that exit inside the bracket are counted, threads=live misses them") {
  auto transient = [] {
    for (int i = 0; i < 10; ++i)
      std::thread([] {
        auto p = std::make_unique<std::byte[]>(1'000'000);
        escape(p.get());
      }).join();
  };
  AllocProfiler all({}, cmh::profilers::linked_allocator());
  const auto r_all = bracket(all, 10, transient);
  // 1,000,000 bytes per op in the thread, plus std::thread's own state object.
  CHECK(metric(r_all, "alloc.rate.norm") >= 1'000'000.0);
  CHECK(metric(r_all, "alloc.rate.norm") < 1'001'000.0);

  AllocProfiler live(AllocProfiler::parse({{"threads", "live"}}), cmh::profilers::linked_allocator());
  const auto r_live = bracket(live, 10, transient);
  CHECK(metric(r_live, "alloc.rate.norm") < 1'000.0);
  MESSAGE("threads=all: " << metric(r_all, "alloc.rate.norm") << " B/op, threads=live: "
                          << metric(r_live, "alloc.rate.norm") << " B/op");
}

TEST_CASE("an allocation-free bracket is exactly 0 B/op, and frees from another thread are collected") {
  AllocProfiler profiler({}, cmh::profilers::linked_allocator());
  int x = 0;
  auto r = bracket(profiler, 1000, [&] {
    for (int i = 0; i < 1000; ++i) escape(&++x);
  });
  CHECK(metric(r, "alloc.rate.norm") == 0.0);
  CHECK(metric(r, "alloc.count.norm") == 0.0);

  r = bracket(profiler, 50, [] {
    for (int round = 0; round < 50; ++round) {
      // 16 MiB freed by another thread: more than the heap caches, so collecting it
      // retires memory (a gc episode; a drain alone is not one).
      std::vector<std::unique_ptr<char[]>> blocks;
      for (int i = 0; i < 16; ++i) blocks.push_back(std::make_unique<char[]>(1 << 20));
      std::thread([b = std::move(blocks)]() mutable { b.clear(); }).join();
      // Allocating again here goes through the slow path that drains the remote frees.
      for (int i = 0; i < 16; ++i) escape(std::make_unique<char[]>(1 << 20).get());
    }
  });
  MESSAGE("remote frees: gc.count " << metric(r, "gc.count") << ", gc.time " << metric(r, "gc.time") << " ms");
  CHECK(metric(r, "gc.count") > 0);
  CHECK(metric(r, "gc.time") > 0);
}
