// SPDX-License-Identifier: MIT
// The numa profiler against a fake allocator: the mode as a 0/1 metric with the
// allocator's reason in the note, per-node heap figures, the placement ratio, and
// what it says in an executable without the bundled allocator (this one).
#include <doctest/doctest.h>

#include <cmh/profilers/builtins.hpp>

#include "numa_profiler.hpp"
#include "profiling/profiler_factory.hpp"
#include "results_fixture.hpp"

namespace {

struct FakeNuma {
  static inline int mode = CMH_ALLOC_NUMA_OFF;
  static inline const char* reason = "Only a single NUMA node is available";
  static inline cmh_alloc_stats_t stats{};
  static inline bool version_ok = true;
  // Per-node allocation counters: the first call of an iteration returns `before`, the
  // second `after` (the profiler reads them in before_iteration and after_iteration).
  static inline cmh_alloc_node_alloc_t before[2]{}, after[2]{};
  static inline int reads = 0;
  static inline bool per_node = false;
  static cmh::profilers::AllocatorApi api() {
    cmh::profilers::AllocatorApi a;
    a.numa_mode = [](const char** r) {
      if (r) *r = reason;
      return mode;
    };
    a.stats_get = [](cmh_alloc_stats_t* s) {
      if (!version_ok || s->size != sizeof(cmh_alloc_stats_t) || s->version != CMH_ALLOC_STATS_VERSION) return 0;
      const auto size = s->size;
      const auto version = s->version;
      *s = stats;
      s->size = size;
      s->version = version;
      return 1;
    };
    if (per_node)
      a.node_allocations = [](cmh_alloc_node_alloc_t* rows, std::size_t capacity) -> std::size_t {
        const cmh_alloc_node_alloc_t* from = reads++ % 2 == 0 ? before : after;
        for (std::size_t i = 0; i < 2 && i < capacity; ++i) rows[i] = from[i];
        return 2;
      };
    return a;
  }
};

std::vector<cmh::ScalarResult> one_iteration(cmh::profilers::NumaProfiler& p) {
  cmh::BenchmarkParams bp;
  cmh::IterationResult ir;
  ir.all_ops = 10;
  p.before_iteration(bp, bp.measurement);
  return p.after_iteration(bp, bp.measurement, ir);
}

using cmh::test::metric;

}  // namespace

TEST_CASE("numa: mode off, one pool, the allocator's reason in the note") {
  FakeNuma::mode = CMH_ALLOC_NUMA_OFF;
  FakeNuma::version_ok = true;
  FakeNuma::stats = {};
  FakeNuma::stats.node_count = 1;
  FakeNuma::stats.nodes[0].node_id = -1;
  FakeNuma::stats.nodes[0].in_use_bytes = 2 * 1024 * 1024;
  FakeNuma::stats.nodes[0].committed_bytes = 8 * 1024 * 1024;
  FakeNuma::stats.nodes[0].page_requests = 100;
  FakeNuma::stats.nodes[0].page_hits = 100;
  const auto api = FakeNuma::api();
  cmh::profilers::NumaProfiler profiler(api);
  const auto results = one_iteration(profiler);
  const auto* enabled = metric(results, "numa.enabled");
  REQUIRE(enabled != nullptr);
  CHECK(enabled->value == 0.0);
  CHECK(enabled->unit == "bool");
  CHECK(enabled->policy == cmh::AggregationPolicy::min);
  CHECK(enabled->note ==
        "off: Only a single NUMA node is available; bytes per node and numa.local.ratio: unknown (the heap is not "
        "placed by node)");
  CHECK(metric(results, "numa.local.ratio") == nullptr);  // unknown, not guessed
  REQUIRE(metric(results, "numa.nodes") != nullptr);
  CHECK(metric(results, "numa.nodes")->value == 1.0);
  REQUIRE(metric(results, "numa.pool.used") != nullptr);
  CHECK(metric(results, "numa.pool.used")->value == 2048.0);
  CHECK(metric(results, "numa.pool.used")->unit == "KiB");
  CHECK(metric(results, "numa.pool.committed")->value == 8192.0);
  CHECK(metric(results, "numa.placement.match") == nullptr);  // no placement to judge with one pool
}

TEST_CASE("numa: membind on two nodes, placement ratio over all nodes") {
  FakeNuma::mode = CMH_ALLOC_NUMA_MEMBIND;
  FakeNuma::reason = "2 nodes, CPU and memory masks agree";
  FakeNuma::stats = {};
  FakeNuma::stats.node_count = 2;
  FakeNuma::stats.nodes[0] = {};
  FakeNuma::stats.nodes[0].node_id = 0;
  FakeNuma::stats.nodes[0].in_use_bytes = 1024;
  FakeNuma::stats.nodes[0].page_requests = 30;
  FakeNuma::stats.nodes[0].page_hits = 30;
  FakeNuma::stats.nodes[1] = {};
  FakeNuma::stats.nodes[1].node_id = 1;
  FakeNuma::stats.nodes[1].in_use_bytes = 4096;
  FakeNuma::stats.nodes[1].page_requests = 10;
  FakeNuma::stats.nodes[1].page_hits = 6;
  const auto api = FakeNuma::api();
  cmh::profilers::NumaProfiler profiler(api);
  const auto results = one_iteration(profiler);
  CHECK(metric(results, "numa.enabled")->value == 1.0);
  CHECK(metric(results, "numa.enabled")->note == "membind: 2 nodes, CPU and memory masks agree");
  CHECK(metric(results, "numa.node0.used")->value == 1.0);
  CHECK(metric(results, "numa.node1.used")->value == 4.0);
  REQUIRE(metric(results, "numa.placement.match") != nullptr);
  CHECK(metric(results, "numa.placement.match")->value == doctest::Approx(36.0 / 40.0));
  CHECK(metric(results, "numa.placement.match")->unit == "ratio");
}

TEST_CASE("numa: bytes per op from each node and the local share, from the per-node counters") {
  FakeNuma::mode = CMH_ALLOC_NUMA_MEMBIND;
  FakeNuma::reason = "UseNUMA is enabled in 'membind' mode on nodes 0-1";
  FakeNuma::stats = {};
  FakeNuma::stats.node_count = 2;
  FakeNuma::per_node = true;
  FakeNuma::reads = 0;
  FakeNuma::before[0] = {0, 1000, 10, 900, 9};
  FakeNuma::before[1] = {1, 500, 5, 500, 5};
  FakeNuma::after[0] = {0, 1000 + 300, 13, 900 + 300, 12};  // 300 B in the iteration, all local
  FakeNuma::after[1] = {1, 500 + 100, 6, 500 + 90, 6};     // 100 B, 90 local
  const auto api = FakeNuma::api();
  cmh::profilers::NumaProfiler profiler(api);
  const auto results = one_iteration(profiler);  // 10 ops
  REQUIRE(metric(results, "numa.node0.alloc.norm") != nullptr);
  CHECK(metric(results, "numa.node0.alloc.norm")->value == doctest::Approx(30.0));
  CHECK(metric(results, "numa.node0.alloc.norm")->unit == "B/op");
  CHECK(metric(results, "numa.node1.alloc.norm")->value == doctest::Approx(10.0));
  REQUIRE(metric(results, "numa.local.ratio") != nullptr);
  CHECK(metric(results, "numa.local.ratio")->value == doctest::Approx(390.0 / 400.0));
  CHECK(metric(results, "numa.local.ratio")->policy == cmh::AggregationPolicy::average);
  FakeNuma::per_node = false;
}

TEST_CASE("numa: a stats version mismatch still reports the mode") {
  FakeNuma::mode = CMH_ALLOC_NUMA_INTERLEAVE;
  FakeNuma::version_ok = false;
  const auto api = FakeNuma::api();
  cmh::profilers::NumaProfiler profiler(api);
  const auto results = one_iteration(profiler);
  REQUIRE(results.size() == 1);
  CHECK(results[0].label == "numa.enabled");
  CHECK(results[0].value == 1.0);
  CHECK(results[0].note.find("interleave") == 0);
  FakeNuma::version_ok = true;
}

TEST_CASE("numa in the registry: unsupported without the bundled allocator, options rejected") {
  cmh::profilers::register_builtins();
  const cmh::ProfilerInfo* info = cmh::ProfilerRegistry::instance().find("numa");
  REQUIRE(info != nullptr);
  CHECK_THROWS_WITH_AS(info->create({{"nodes", "1"}}),
                       "-prof numa: unknown option 'nodes' (it takes no options; see -prof numa:help)",
                       cmh::ProfilerError);
  if (!cmh::profilers::linked_allocator().stats_get) {
    CHECK(info->unsupported_reason().value_or("") == cmh::profilers::kAllocatorNotLinked);
    CHECK_THROWS_AS(cmh::profiling::create_profiler("numa"), cmh::ProfilerError);
  }
}
