// SPDX-License-Identifier: MIT
// NumaProfiler: the allocator's NUMA decision and per-node statistics at the end of
// each iteration, as metrics.
//
// The mode is a number (numa.enabled, 1 or 0) with the allocator's sentence saying why
// in the result's note, so it flows through the same statistics, report and result
// files as every other metric. Per-node figures are read once, after the iteration
// (cmh_alloc_stats_get walks the regions, so it stays out of before_iteration).
#include "numa_profiler.hpp"

#include "builtin_infos.hpp"

#include <cmh/profiler_options.hpp>

#include <string>

namespace cmh::profilers {
namespace {

constexpr double kKiB = 1024.0;

std::string node_label(std::int64_t node_id, const char* what) {
  const std::string node = node_id < 0 ? "pool" : "node" + std::to_string(node_id);
  return "numa." + node + "." + what;
}

constexpr const char* kNumaHelp = R"(This profiler takes no options.

Metrics (read from the bundled allocator at the end of each iteration):
  numa.enabled             bool   minimum  1 when the allocator binds regions to nodes
                                           (membind or interleave), 0 when NUMA mode is off;
                                           the result's note gives the mode and the allocator's
                                           reason ("off: Only a single NUMA node is available")
  numa.nodes               nodes  maximum  nodes the allocator keeps pools for (1 pool when off)
  numa.node<N>.used        KiB    maximum  heap in use on node N (numa.pool.used when off)
  numa.node<N>.committed   KiB    maximum  heap committed on node N (numa.pool.committed when off)
  numa.placement.match     ratio  average  pages that landed on the node they were requested for
                                           / pages requested, since the fork started (NUMA on only)
  numa.node<N>.alloc.norm  B/op   average  bytes allocated from node N's memory in the iteration,
                                           per op, all threads (NUMA on only)
  numa.local.ratio         ratio  average  share of the iteration's allocated bytes that came from
                                           the allocating thread's own node (its node at its last
                                           page refill); 1.0 = every byte local (NUMA on only)
When NUMA mode is off the heap is one pool placed by the kernel's policy, not by node:
the per-node and local figures are then unknown, and numa.enabled's note says so.
The mode is decided at start-up from the CPU and memory binding (-XX:+UseNUMA, numactl
--cpunodebind/--membind in the fork arguments): see docs/numa.md.
)";

}  // namespace

NumaProfiler::NumaProfiler(const AllocatorApi& api) : api_(api), stats_{} {}

const char* NumaProfiler::mode_name(int mode) {
  switch (mode) {
    case CMH_ALLOC_NUMA_OFF: return "off";
    case CMH_ALLOC_NUMA_MEMBIND: return "membind";
    case CMH_ALLOC_NUMA_INTERLEAVE: return "interleave";
    default: return "unknown";
  }
}

std::size_t NumaProfiler::read_node_allocations(cmh_alloc_node_alloc_t* rows) const {
  if (!api_.node_allocations) return 0;  // an allocator older than the per-node counters
  const std::size_t n = api_.node_allocations(rows, CMH_ALLOC_MAX_NODES);
  return n < CMH_ALLOC_MAX_NODES ? n : CMH_ALLOC_MAX_NODES;
}

void NumaProfiler::before_iteration(const BenchmarkParams&, const IterationParams&) {
  before_count_ = read_node_allocations(before_);
}

void NumaProfiler::add_allocation_rows(std::vector<ScalarResult>& out, const cmh_alloc_node_alloc_t* after,
                                       std::size_t count, std::uint64_t ops) {
  if (count == 0 || count != before_count_ || ops == 0) return;
  std::uint64_t bytes = 0, local = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t b = after[i].alloc_bytes - before_[i].alloc_bytes;
    bytes += b;
    local += after[i].local_bytes - before_[i].local_bytes;
    out.push_back({node_label(after[i].node_id, "alloc.norm"), static_cast<double>(b) / static_cast<double>(ops),
                   "B/op", AggregationPolicy::average});
  }
  if (bytes > 0)
    out.push_back({"numa.local.ratio", static_cast<double>(local) / static_cast<double>(bytes), "ratio",
                   AggregationPolicy::average});
}

std::vector<ScalarResult> NumaProfiler::after_iteration(const BenchmarkParams&, const IterationParams&,
                                                        const IterationResult& result) {
  // First, before this method allocates anything itself.
  cmh_alloc_node_alloc_t after[CMH_ALLOC_MAX_NODES];
  const std::size_t after_count = read_node_allocations(after);
  stats_ = cmh_alloc_stats_t{};
  stats_.size = sizeof(cmh_alloc_stats_t);
  stats_.version = CMH_ALLOC_STATS_VERSION;
  const bool have_stats = api_.stats_get(&stats_) == 1;
  const char* reason = nullptr;
  const int mode = api_.numa_mode(&reason);

  std::vector<ScalarResult> out;
  const bool on = mode != CMH_ALLOC_NUMA_OFF;
  std::string note = std::string(mode_name(mode)) + (reason && *reason ? std::string(": ") + reason : "");
  if (!on) note += "; bytes per node and numa.local.ratio: unknown (the heap is not placed by node)";
  out.push_back({"numa.enabled", on ? 1.0 : 0.0, "bool", AggregationPolicy::min, note});
  if (on) add_allocation_rows(out, after, after_count, result.all_ops);
  if (!have_stats) return out;  // a different stats version: the mode is all we can say
  if (foreign_allocator(api_)) return out;  // -XX:Allocator: the other allocator places memory itself

  const std::uint64_t rows = stats_.node_count < CMH_ALLOC_MAX_NODES ? stats_.node_count : CMH_ALLOC_MAX_NODES;
  out.push_back({"numa.nodes", static_cast<double>(rows), "nodes", AggregationPolicy::max});
  std::uint64_t requests = 0, hits = 0;
  for (std::uint64_t i = 0; i < rows; ++i) {
    const cmh_alloc_node_stats_t& node = stats_.nodes[i];
    out.push_back({node_label(node.node_id, "used"), static_cast<double>(node.in_use_bytes) / kKiB, "KiB",
                   AggregationPolicy::max});
    out.push_back({node_label(node.node_id, "committed"), static_cast<double>(node.committed_bytes) / kKiB,
                   "KiB", AggregationPolicy::max});
    requests += node.page_requests;
    hits += node.page_hits;
  }
  if (on && requests > 0)
    out.push_back({"numa.placement.match", static_cast<double>(hits) / static_cast<double>(requests), "ratio",
                   AggregationPolicy::average});
  return out;
}

ProfilerInfo numa_profiler_info() {
  ProfilerInfo info;
  info.name = "numa";
  info.description = "NUMA mode, heap per node and page placement via the bundled allocator";
  info.internal = true;
  info.unsupported_reason = [] { return allocator_numa_missing_reason(linked_allocator()); };
  info.limitation = []() -> std::optional<std::string> {
    const AllocatorApi& api = linked_allocator();
    if (allocator_numa_missing_reason(api)) return std::nullopt;
    const char* reason = nullptr;
    const int mode = api.numa_mode(&reason);
    if (mode != CMH_ALLOC_NUMA_OFF) return std::nullopt;
    return std::string("NUMA mode is off in this process") + (reason && *reason ? std::string(": ") + reason : "") +
           "; forks may differ with their own fork arguments";
  };
  info.help = [] { return std::string(kNumaHelp); };
  info.create = [](const ProfilerOptions& options) -> std::unique_ptr<Profiler> {
    ProfilerOptionReader("numa", options).finish();
    if (auto reason = allocator_numa_missing_reason(linked_allocator()))
      throw ProfilerError("-prof numa: not supported here: " + *reason);
    return std::make_unique<NumaProfiler>(linked_allocator());
  };
  return info;
}

}  // namespace cmh::profilers
