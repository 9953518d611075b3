// SPDX-License-Identifier: MIT
// -prof numa: where the bundled allocator put memory, in the spirit of G1's
// gc+heap+numa log: the NUMA mode the fork runs in (and why it is off), the heap in
// use and committed per node, how many pages landed on the node they were requested
// for, the bytes per op allocated from each node and the share of them that was local
// to the allocating thread (JEP 345's "mutators get memory from the local node").
#pragma once

#include <cmh/profiler.hpp>

#include "alloc_api.hpp"

namespace cmh::profilers {

class NumaProfiler final : public InternalProfiler {
 public:
  /// `api` must outlive the profiler and have numa_mode and stats_get.
  explicit NumaProfiler(const AllocatorApi& api);

  void before_iteration(const BenchmarkParams& bp, const IterationParams& ip) override;
  std::vector<ScalarResult> after_iteration(const BenchmarkParams& bp, const IterationParams& ip,
                                            const IterationResult& result) override;

  /// "off", "membind" or "interleave" (cmh_alloc_numa_t).
  static const char* mode_name(int mode);

 private:
  /// numa.node<N>.alloc.norm and numa.local.ratio for the iteration that just ended.
  void add_allocation_rows(std::vector<ScalarResult>& out, const cmh_alloc_node_alloc_t* after, std::size_t count,
                           std::uint64_t ops);
  /// Per-node allocation rows now into `rows`; the number of nodes (0 if unavailable).
  std::size_t read_node_allocations(cmh_alloc_node_alloc_t* rows) const;

  const AllocatorApi& api_;
  cmh_alloc_stats_t stats_;  // a member: 5 KiB, filled in place, never allocated
  cmh_alloc_node_alloc_t before_[CMH_ALLOC_MAX_NODES];  // at the start of the iteration
  std::size_t before_count_ = 0;
};

}  // namespace cmh::profilers
