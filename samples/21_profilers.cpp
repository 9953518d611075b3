// SPDX-License-Identifier: MIT
// Sample 21, Profilers: ask the machine why a number is what it is.
//
// A score says how fast; profilers say what the code did meanwhile, per op, from
// inside the fork. Each benchmark below is made to light up one of them:
//   -prof alloc     bytes and allocations per op, and the allocator's collections:
//                   `vector` allocates exactly 4000 B and 1 allocation per op, `sum`
//                   nothing (0 B/op), `handoff` frees in another thread, which the
//                   allocator reclaims in collections (gc.count, gc.time).
//   -prof rusage    page faults and context switches per op: `first_touch` faults once
//                   per new heap page unless the fork pre-touched its heap;
//                   `handoff` switches context to start and join its thread.
//   -prof perfnorm  perf_event counters per op (cycles and instructions need a hardware
//                   PMU; -lprof says if this machine has none; software events always).
//   -prof numa      bytes per NUMA node and whether pages landed where they were asked.
// Several at once: -prof alloc -prof rusage. Each profiler's options: -prof alloc:help.
//
//   cmh-samples Profilers -prof alloc -prof rusage
//   cmh-samples Profilers.first_touch -prof rusage -jvmArgsAppend "-Xms256m -XX:+AlwaysPreTouch"
#include <cmh/cmh.hpp>

#include <cstddef>
#include <memory>
#include <numeric>
#include <thread>
#include <vector>

using namespace std::chrono_literals;

CMH_OPTIONS(Profilers, cmh::warmup{3, 500ms}, cmh::measurement{5, 500ms}, cmh::fork{1},
            cmh::mode::average_time, cmh::output_unit{1ns});

/// One heap allocation of exactly 1000 ints per op. Consuming the pointer keeps the
/// compiler from eliding the new/delete pair, which C++ allows it to do.
CMH_BENCHMARK(Profilers, vector, cmh::Blackhole& bh) {
  std::vector<int> v(1000);
  bh.consume(v.data());
}

/// Reads a prepared array: no allocation at all, so alloc.rate.norm is 0 B/op.
namespace {
struct Numbers : cmh::ThreadState {
  std::vector<int> values = std::vector<int>(1000, 1);
};
}  // namespace
CMH_BENCHMARK(Profilers, sum, Numbers& n) {
  return std::accumulate(n.values.begin(), n.values.end(), 0);
}

/// 64 MiB of new heap written once per 4 KiB page, in one single-shot op: the first
/// touch of those pages is a minor fault each (16384), unless the fork committed and
/// touched its heap at start-up (-Xms256m -XX:+AlwaysPreTouch), which also takes the
/// cost out of the score. Later touches of reused memory never fault, which is why
/// this is a single shot.
CMH_BENCHMARK_OPTIONS(Profilers, first_touch, cmh::mode::single_shot, cmh::warmup{0}, cmh::measurement{1},
                      cmh::output_unit{1ms});
CMH_BENCHMARK(Profilers, first_touch, cmh::Blackhole& bh) {
  constexpr std::size_t kBytes = std::size_t{64} << 20, kPage = 4096;
  auto p = std::make_unique_for_overwrite<char[]>(kBytes);
  for (std::size_t i = 0; i < kBytes; i += kPage) p[i] = static_cast<char>(i);
  bh.consume(p.get());
}

/// 64 blocks allocated here and freed by another thread: remote frees the allocator
/// drains later, and a thread whose heap it adopts when the thread exits.
CMH_BENCHMARK(Profilers, handoff, cmh::Blackhole& bh) {
  std::vector<std::unique_ptr<int[]>> blocks;
  blocks.reserve(64);
  for (int i = 0; i < 64; ++i) blocks.push_back(std::make_unique<int[]>(64));
  bh.consume(blocks.data());
  std::thread([b = std::move(blocks)]() mutable { b.clear(); }).join();
}
