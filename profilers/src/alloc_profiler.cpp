// SPDX-License-Identifier: MIT
// AllocProfiler: snapshots of the allocator's counters around each iteration.
//
// Nothing is allocated between the two snapshots: before_iteration reads the
// counters and the clock into members, after_iteration reads them again before it
// builds its result vector, so the profiler never counts itself.
#include "alloc_profiler.hpp"
#include "builtin_infos.hpp"

#include <cmh/profiler_options.hpp>

#include <algorithm>
#include <chrono>

namespace cmh::profilers {
namespace {

std::int64_t monotonic_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Counters only grow, but the live-threads sum shrinks when a thread exits.
std::uint64_t grown(std::uint64_t before, std::uint64_t after) { return after > before ? after - before : 0; }

constexpr double kBytesPerMegabyte = 1024.0 * 1024.0;  // JMH's MB/sec is MiB/s

}  // namespace

AllocProfiler::AllocProfiler(Config config, const AllocatorApi& api) : config_(config), api_(api) {
  // The workers' paused stretches read the allocating thread's own counters; one
  // profiler installs them (-prof alloc and -prof gc together share the totals).
  if (config_.alloc && api_.thread_allocated_bytes && api_.thread_allocations) {
    thread_counters_ = {api_.thread_allocated_bytes, api_.thread_allocations};
    const detail::ThreadAllocationCounters* none = nullptr;
    tracking_paused_ = detail::g_paused_counters.compare_exchange_strong(none, &thread_counters_);
  }
}

AllocProfiler::~AllocProfiler() {
  if (tracking_paused_) detail::set_paused_counters(nullptr);
}

AllocProfiler::Config AllocProfiler::parse(const ProfilerOptions& options, const char* name) {
  ProfilerOptionReader reader(name, options);
  Config config;
  config.threads = reader.choice("threads", {"all", "live"}, "all") == "live" ? ThreadView::live
                                                                              : ThreadView::all;
  config.alloc = reader.flag("alloc", true);
  config.count_paused = reader.choice("paused", {"exclude", "include"}, "exclude") == "include";
  reader.finish();
  return config;
}

AllocProfiler::Snapshot AllocProfiler::snapshot() const {
  Snapshot s;
  s.bytes = config_.threads == ThreadView::all ? api_.total_allocated_bytes()
                                               : api_.live_threads_allocated_bytes();
  s.allocations = api_.total_allocations();
  s.gc_count = api_.gc_count();
  s.gc_ns = api_.gc_time_ns();
  const detail::PausedTotals paused = detail::paused_totals();
  s.paused_bytes = paused.bytes;
  s.paused_allocations = paused.count;
  return s;
}

void AllocProfiler::before_iteration(const BenchmarkParams&, const IterationParams&) {
  before_ = snapshot();
  before_ns_ = monotonic_ns();  // last, so the window is as tight as the snapshot allows
}

std::vector<ScalarResult> AllocProfiler::after_iteration(const BenchmarkParams&, const IterationParams& ip,
                                                         const IterationResult& result) {
  const Snapshot after = snapshot();  // first: nothing may allocate before this read
  const std::int64_t after_ns = monotonic_ns();

  std::vector<ScalarResult> out;
  if (config_.alloc) {
    const std::uint64_t paused_bytes = grown(before_.paused_bytes, after.paused_bytes);
    const std::uint64_t paused_allocations = grown(before_.paused_allocations, after.paused_allocations);
    std::uint64_t all_bytes = grown(before_.bytes, after.bytes);
    std::uint64_t allocations = grown(before_.allocations, after.allocations);
    if (!config_.count_paused) {
      all_bytes -= std::min(all_bytes, paused_bytes);
      allocations -= std::min(allocations, paused_allocations);
    }
    const bool paused = paused_bytes > 0 || paused_allocations > 0;
    const double bytes = static_cast<double>(all_bytes);
    const double seconds = static_cast<double>(after_ns - before_ns_) / 1e9;
    const bool live = config_.threads == ThreadView::live;
    const std::string note = live ? "threads=live: threads alive at the end of the iteration only" : "";
    const std::string prefix = config_.jmh_names ? "gc." : "";
    if (seconds > 0)
      out.push_back({prefix + "alloc.rate", bytes / kBytesPerMegabyte / seconds, "MB/sec",
                     AggregationPolicy::average, note});
    if (result.all_ops > 0) {
      const double ops = static_cast<double>(result.all_ops);
      std::string norm_note = note;
      if (paused)  // which rule applies, said where the number is (report and JSON notes)
        norm_note += std::string(norm_note.empty() ? "" : "; ") +
                     (config_.count_paused ? "includes what was allocated while the timing was paused "
                                             "(alloc.paused.norm)"
                                           : "excludes what was allocated while the timing was paused "
                                             "(alloc.paused.norm); paused=include counts it");
      if (const char* foreign = foreign_allocator(api_); foreign && !foreign_noted_ && ip.kind == IterationKind::measurement) {
        foreign_noted_ = true;  // once per fork: its first measurement iteration
        norm_note += std::string(norm_note.empty() ? "" : "; ") + "gc.count and gc.time omitted: the fork runs on " +
                     foreign + " (-XX:Allocator), whose collections cmh cannot see";
      }
      out.push_back({prefix + "alloc.rate.norm", bytes / ops, "B/op", AggregationPolicy::average, norm_note});
      // The allocator counts allocations process-wide only; the live view has no count.
      if (!live)
        out.push_back({prefix + "alloc.count.norm", static_cast<double>(allocations) / ops, "allocs/op",
                       AggregationPolicy::average});
      if (paused)
        out.push_back({prefix + "alloc.paused.norm", static_cast<double>(paused_bytes) / ops, "B/op",
                       AggregationPolicy::average,
                       std::string("allocated while the timing was paused (PauseTiming, invocation fixtures); ") +
                           (config_.count_paused ? "counted in" : "left out of") + " the other alloc metrics"});
    }
  }
  if (foreign_allocator(api_)) return out;  // never fake zeros: the other allocator has no such counters
  out.push_back({"gc.count", static_cast<double>(grown(before_.gc_count, after.gc_count)), "counts",
                 AggregationPolicy::sum});
  out.push_back({"gc.time", static_cast<double>(grown(before_.gc_ns, after.gc_ns)) / 1e6, "ms",
                 AggregationPolicy::sum});
  return out;
}

namespace {

constexpr const char* kAllocHelp = R"(Options:
  threads=all|live  all (default): the bytes every thread of the fork allocated during the
                    iteration, threads that exited before it ended included (the allocator's
                    exact process-wide total, like JDK 21's getTotalThreadAllocatedBytes).
                    live: only threads alive at the end of the iteration (the sum of their
                    counters, after minus before) - JMH's pre-JDK-21 view, kept to show what it
                    misses: work in short-lived threads (TAB.separate). No alloc.count.norm then.
  alloc=true|false  false leaves out alloc.rate, alloc.rate.norm and alloc.count.norm.
  paused=exclude|include
                    exclude (default): what a thread allocates while the timing is paused is
                    left out of the alloc.* metrics, as its time is left out of the score: a
                    Google Benchmark suite's PauseTiming()..ResumeTiming(), and invocation
                    fixtures (setup_invocation/teardown_invocation, run outside each call's
                    timing). include: counted, as JMH's -prof gc counts invocation fixtures.
                    Either way, when there was any, alloc.paused.norm shows it and the
                    alloc.rate.norm note says which applies.

Metrics:
  alloc.rate        MB/sec     average  bytes allocated during the iteration / its duration (MiB/s)
  alloc.rate.norm   B/op       average  bytes allocated / all ops (ramp-up and ramp-down included)
  alloc.count.norm  allocs/op  average  allocations / all ops
  alloc.paused.norm B/op       average  bytes allocated while the timing was paused / all ops
                                        (only when there was any)
  gc.count          counts     sum      the allocator's collections during the iteration
  gc.time           ms         sum      wall time spent in them
An allocation-free benchmark shows 0 B/op. Requested sizes are counted (calloc n*size,
realloc the new size when it moves, the growth when it grows in place).

What a collection is: C++ frees explicitly, so a collection is one episode of the bundled
allocator's own reclamation work - draining frees other threads made into this thread's
pages, retiring empty pages or regions to the node's pool, adopting the heap of a thread
that exited, or returning memory to the OS after the decay time (-XX:DecayTime). Refilling a
page from its own free list is allocation, not collection. Episodes run on the allocation
slow path, never on a background thread; with several threads gc.time can exceed wall time.
-gc true runs a full collection (cmh_alloc_collect) between iterations, like JMH's System.gc().

Under the fork argument -XX:Allocator=glibc|jemalloc|tcmalloc|mimalloc|<path.so> the fork runs
on that allocator and the alloc.* metrics stay exact (a counting layer forwards every call);
gc.count and gc.time are left out there, with a note, since its collections are not visible.
)";

ProfilerInfo alloc_info(const char* name, bool jmh_names) {
  ProfilerInfo info;
  info.name = name;
  info.description = jmh_names
                         ? "JMH's -prof gc: the alloc profiler under JMH's names (gc.alloc.rate, gc.alloc.rate.norm)"
                         : "Allocation and collection profiling via the bundled allocator's exact counters";
  info.internal = true;
  info.unsupported_reason = [] { return allocator_missing_reason(linked_allocator()); };
  info.help = [jmh_names] {
    std::string help = kAllocHelp;
    if (jmh_names)
      help = "-prof gc is -prof alloc with JMH's metric names: gc.alloc.rate, gc.alloc.rate.norm and\n"
             "gc.alloc.count.norm for the alloc.* metrics below; gc.count and gc.time as they are.\n\n" +
             help;
    return help;
  };
  info.create = [name, jmh_names](const ProfilerOptions& options) -> std::unique_ptr<Profiler> {
    AllocProfiler::Config config = AllocProfiler::parse(options, name);
    config.jmh_names = jmh_names;
    if (auto reason = allocator_missing_reason(linked_allocator()))
      throw ProfilerError(std::string("-prof ") + name + ": not supported here: " + *reason);
    return std::make_unique<AllocProfiler>(config, linked_allocator());
  };
  return info;
}

}  // namespace

ProfilerInfo alloc_profiler_info() { return alloc_info("alloc", false); }
ProfilerInfo gc_profiler_info() { return alloc_info("gc", true); }

}  // namespace cmh::profilers
