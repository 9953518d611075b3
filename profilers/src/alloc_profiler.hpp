// SPDX-License-Identifier: MIT
// -prof alloc: allocation rate, bytes and allocations per op, and the allocator's
// collections, from the bundled allocator's exact counters. -prof gc is the same
// profiler under JMH's metric names (gc.alloc.rate, gc.alloc.rate.norm).
//
// The default view (threads=all) is the process-wide total, threads that already
// exited included, so work done in short-lived threads (TAB.separate) is counted;
// threads=live reproduces JMH's pre-JDK-21 per-live-thread view that misses them.
//
// What a thread allocates while the timing is paused (PauseTiming..ResumeTiming of a
// Google Benchmark suite, invocation fixtures) is left out by default, as its time is
// (paused=exclude), and reported apart as alloc.paused.norm; paused=include counts it.
#pragma once

#include <cmh/detail/paused_allocations.hpp>
#include <cmh/profiler.hpp>

#include "alloc_api.hpp"

#include <cstdint>

namespace cmh::profilers {

class AllocProfiler final : public InternalProfiler {
 public:
  enum class ThreadView { all, live };
  struct Config {
    ThreadView threads = ThreadView::all;
    bool alloc = true;  ///< false: only gc.count and gc.time
    /// -prof gc: JMH's names, gc.alloc.rate / gc.alloc.rate.norm (and gc.alloc.count.norm,
    /// which JMH does not have), so tools keyed on JMH's names find them.
    bool jmh_names = false;
    /// false (paused=exclude, the default): allocations made while the timing is paused
    /// are left out of alloc.*; true (paused=include): counted, as JMH's -prof gc does
    /// for invocation fixtures. Either way they are shown as alloc.paused.norm.
    bool count_paused = false;
  };

  /// `api` must outlive the profiler and have every counter (allocator_missing_reason).
  AllocProfiler(Config config, const AllocatorApi& api);
  ~AllocProfiler() override;
  AllocProfiler(const AllocProfiler&) = delete;
  AllocProfiler& operator=(const AllocProfiler&) = delete;
  /// From -prof options; throws ProfilerError on a bad or unknown one.
  static Config parse(const ProfilerOptions& options, const char* name = "alloc");

  void before_iteration(const BenchmarkParams& bp, const IterationParams& ip) override;
  std::vector<ScalarResult> after_iteration(const BenchmarkParams& bp, const IterationParams& ip,
                                            const IterationResult& result) override;

 private:
  struct Snapshot {
    std::uint64_t bytes = 0, allocations = 0, gc_count = 0, gc_ns = 0;
    std::uint64_t paused_bytes = 0, paused_allocations = 0;
  };
  Snapshot snapshot() const;

  Config config_;
  const AllocatorApi& api_;
  Snapshot before_;
  detail::ThreadAllocationCounters thread_counters_;
  bool tracking_paused_ = false;  ///< this profiler installed thread_counters_
  bool foreign_noted_ = false;  ///< the note on gc.* under -XX:Allocator was given
  std::int64_t before_ns_ = 0;
};

}  // namespace cmh::profilers
