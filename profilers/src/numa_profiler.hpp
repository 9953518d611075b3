// SPDX-License-Identifier: MIT
// -prof numa: where the bundled allocator put memory, in the spirit of G1's
// gc+heap+numa log: the NUMA mode the fork runs in (and why it is off), the heap in
// use and committed per node, and how many pages landed on the node they were
// requested for.
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
  const AllocatorApi& api_;
  cmh_alloc_stats_t stats_;  // a member: 5 KiB, filled in place, never allocated
};

}  // namespace cmh::profilers
