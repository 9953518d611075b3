// SPDX-License-Identifier: MIT
// The alloc profiler against a fake allocator whose counters the test sets: the
// exact metric values, units and policies, threads=live, alloc=false, 0 B/op, and
// what -prof alloc says in an executable without the bundled allocator (this one).
#include <doctest/doctest.h>

#include <cmh/profilers/builtins.hpp>

#include "alloc_profiler.hpp"
#include "profiling/profiler_factory.hpp"
#include "results_fixture.hpp"

#include <cmath>
#include <thread>

namespace {

struct FakeAllocator {
  static inline std::uint64_t bytes, allocations, live_bytes, gc_count, gc_ns;
  static void reset() { bytes = allocations = live_bytes = gc_count = gc_ns = 0; }
  static cmh::profilers::AllocatorApi api() {
    cmh::profilers::AllocatorApi a;
    a.total_allocated_bytes = [] { return bytes; };
    a.total_allocations = [] { return allocations; };
    a.live_threads_allocated_bytes = [] { return live_bytes; };
    a.gc_count = [] { return gc_count; };
    a.gc_time_ns = [] { return gc_ns; };
    return a;
  }
};

using cmh::test::metric;

std::vector<cmh::ScalarResult> bracket(cmh::InternalProfiler& p, std::uint64_t all_ops, auto&& work) {
  cmh::BenchmarkParams bp;
  cmh::IterationResult ir;
  ir.all_ops = all_ops;
  p.before_iteration(bp, bp.measurement);
  work();
  return p.after_iteration(bp, bp.measurement, ir);
}

}  // namespace

TEST_CASE("alloc: the five metrics with JMH's units and policies, exact per op") {
  FakeAllocator::reset();
  FakeAllocator::bytes = 123456;  // history before the iteration is not counted
  const auto api = FakeAllocator::api();
  cmh::profilers::AllocProfiler profiler({}, api);
  const auto results = bracket(profiler, 1000, [] {
    FakeAllocator::bytes += 4000 * 1000;
    FakeAllocator::allocations += 1000;
    FakeAllocator::gc_count += 3;
    FakeAllocator::gc_ns += 2'500'000;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // a window, so the rate is finite
  });
  REQUIRE(results.size() == 5);
  const auto* rate = metric(results, "alloc.rate");
  const auto* norm = metric(results, "alloc.rate.norm");
  const auto* count = metric(results, "alloc.count.norm");
  const auto* gcs = metric(results, "gc.count");
  const auto* gct = metric(results, "gc.time");
  REQUIRE((rate && norm && count && gcs && gct));
  CHECK(norm->value == 4000.0);
  CHECK(norm->unit == "B/op");
  CHECK(norm->policy == cmh::AggregationPolicy::average);
  CHECK(count->value == 1.0);
  CHECK(count->unit == "allocs/op");
  CHECK(gcs->value == 3.0);
  CHECK(gcs->unit == "counts");
  CHECK(gcs->policy == cmh::AggregationPolicy::sum);
  CHECK(gct->value == doctest::Approx(2.5));
  CHECK(gct->unit == "ms");
  CHECK(gct->policy == cmh::AggregationPolicy::sum);
  CHECK(rate->unit == "MB/sec");
  CHECK(rate->policy == cmh::AggregationPolicy::average);
  // 4e6 bytes in at least 2 ms: at most 4e6 / 2^20 / 0.002 MiB/s.
  CHECK(rate->value > 0);
  CHECK(rate->value <= 4e6 / (1024.0 * 1024.0) / 0.002 + 1e-9);
}

TEST_CASE("alloc as -prof gc: JMH's metric names, the same values") {
  FakeAllocator::reset();
  const auto api = FakeAllocator::api();
  cmh::profilers::AllocProfiler::Config config;
  config.jmh_names = true;
  cmh::profilers::AllocProfiler profiler(config, api);
  const auto results = bracket(profiler, 10, [] {
    FakeAllocator::bytes += 240;
    FakeAllocator::allocations += 10;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  std::vector<std::string> labels;
  for (const auto& r : results) labels.push_back(r.label);
  CHECK(labels == std::vector<std::string>{"gc.alloc.rate", "gc.alloc.rate.norm", "gc.alloc.count.norm", "gc.count",
                                           "gc.time"});
  CHECK(metric(results, "gc.alloc.rate.norm")->value == 24.0);
  CHECK(metric(results, "gc.alloc.rate.norm")->unit == "B/op");
}

TEST_CASE("alloc: an allocation-free iteration shows 0 B/op, 0 allocs/op and no collections") {
  FakeAllocator::reset();
  const auto api = FakeAllocator::api();
  cmh::profilers::AllocProfiler profiler({}, api);
  const auto results = bracket(profiler, 5'000'000, [] {});
  REQUIRE(metric(results, "alloc.rate.norm"));
  CHECK(metric(results, "alloc.rate.norm")->value == 0.0);
  CHECK(metric(results, "alloc.count.norm")->value == 0.0);
  CHECK(metric(results, "gc.count")->value == 0.0);
  CHECK(metric(results, "gc.time")->value == 0.0);
}

TEST_CASE("alloc: threads=live reads the live-threads sum and never goes negative") {
  FakeAllocator::reset();
  FakeAllocator::live_bytes = 10'000'000;
  const auto api = FakeAllocator::api();
  cmh::profilers::AllocProfiler live(cmh::profilers::AllocProfiler::parse({{"threads", "live"}}), api);
  auto results = bracket(live, 100, [] {
    FakeAllocator::bytes += 100'000'000;  // a transient thread's megabyte per op ...
    FakeAllocator::live_bytes += 33'600;  // ... which the live view no longer sees
  });
  REQUIRE(metric(results, "alloc.rate.norm"));
  CHECK(metric(results, "alloc.rate.norm")->value == 336.0);
  CHECK(metric(results, "alloc.rate.norm")->note.find("threads=live") != std::string::npos);
  CHECK(metric(results, "alloc.count.norm") == nullptr);  // the allocator counts allocations process-wide only

  results = bracket(live, 100, [] { FakeAllocator::live_bytes -= 5'000'000; });  // a thread exited
  CHECK(metric(results, "alloc.rate.norm")->value == 0.0);
}

TEST_CASE("alloc: alloc=false keeps only gc.count and gc.time, no all ops, no per-op metrics") {
  FakeAllocator::reset();
  const auto api = FakeAllocator::api();
  cmh::profilers::AllocProfiler gc_only(cmh::profilers::AllocProfiler::parse({{"alloc", "false"}}), api);
  auto results = bracket(gc_only, 10, [] { FakeAllocator::gc_count += 1; });
  REQUIRE(results.size() == 2);
  CHECK(results[0].label == "gc.count");
  CHECK(results[1].label == "gc.time");

  cmh::profilers::AllocProfiler all({}, api);
  results = bracket(all, 0, [] { FakeAllocator::bytes += 10; });
  CHECK(metric(results, "alloc.rate.norm") == nullptr);
  CHECK(metric(results, "alloc.count.norm") == nullptr);
  CHECK(metric(results, "gc.count") != nullptr);
}

TEST_CASE("alloc: bad options are rejected with one clear line") {
  auto error = [](const cmh::ProfilerOptions& o) {
    try {
      cmh::profilers::AllocProfiler::parse(o);
    } catch (const cmh::ProfilerError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(error({{"threads", "dead"}}) == "-prof alloc: option threads=dead: expected all or live");
  CHECK(error({{"alloc", "maybe"}}) == "-prof alloc: option alloc=maybe: expected true or false");
  CHECK(error({{"churn", "true"}}) ==
        "-prof alloc: unknown option 'churn' (it accepts: threads, alloc, paused; see -prof alloc:help)");
}

TEST_CASE("alloc in the registry: gc beside it, help that defines a collection, and no allocator here") {
  cmh::profilers::register_builtins();
  cmh::profilers::register_builtins();  // idempotent
  const cmh::ProfilerInfo* gc = cmh::ProfilerRegistry::instance().find("gc");
  REQUIRE(gc != nullptr);
  CHECK(gc->name == "gc");  // JMH's spelling: its own entry, with JMH's metric names
  CHECK(cmh::profiling::profiler_help_text(*gc).find("gc.alloc.rate.norm") != std::string::npos);
  const cmh::ProfilerInfo* info = cmh::ProfilerRegistry::instance().find("alloc");
  REQUIRE(info != nullptr);
  CHECK(info->name == "alloc");
  const std::string help = cmh::profiling::profiler_help_text(*info);
  CHECK(help.find("What a collection is") != std::string::npos);
  CHECK(help.find("draining frees") != std::string::npos);

  // This unit-test executable is not linked with the bundled allocator (it is built
  // plain and with ASan), so -prof alloc must refuse to run rather than print zeros.
  if (!cmh::profilers::linked_allocator().total_allocated_bytes) {
    const std::string expected = std::string("-prof alloc: not supported here: ") +
                                 cmh::profilers::kAllocatorNotLinked;
    CHECK_THROWS_WITH_AS(cmh::profiling::create_profiler("alloc"), expected.c_str(), cmh::ProfilerError);
    REQUIRE(info->unsupported_reason);
    CHECK(info->unsupported_reason().value_or("") == cmh::profilers::kAllocatorNotLinked);
    const std::string list = cmh::profiling::profiler_list_text();
    const auto unsupported = list.find("Unsupported profilers:");
    const auto alloc_row = list.find("alloc: ");
    REQUIRE(alloc_row != std::string::npos);
    CHECK(alloc_row > unsupported);
    CHECK(list.find(std::string("[") + cmh::profilers::kAllocatorNotLinked + "]") != std::string::npos);
  } else {
    CHECK_NOTHROW(cmh::profiling::create_profiler("gc:threads=live"));
  }
  // Its factory checks the options before the allocator, so a typo is reported as a typo.
  CHECK_THROWS_WITH_AS(info->create({{"threads", "none"}}),
                       "-prof alloc: option threads=none: expected all or live", cmh::ProfilerError);
}
