// SPDX-License-Identifier: MIT
// Sample 14, SyncIterations: with several threads, measure only while all of them run.
//
// Threads do not start at the same instant. If each thread simply timed itself from
// its own start to its own stop, the first to start and the last to finish would
// run for a while alone, without the contention the benchmark is about, and the
// score would be too good. So by default the harness synchronises iterations: every
// thread calls the body untimed until all have started, all switch to measuring
// together at the go signal, and after the stop every thread keeps calling, untimed,
// until the last one has stopped measuring. `synchronised` and `unsynchronised` run
// the same contended increment on every CPU; the second turns the synchronisation
// off (-si false). The gap grows with the thread count and the start-up skew, and
// shrinks with longer iterations: try -r 10ms.
//
//   cmh-samples SyncIterations
//   cmh-samples SyncIterations -r 10ms -i 20
#include <cmh/cmh.hpp>

#include <atomic>
#include <cstdint>

using namespace std::chrono_literals;

CMH_OPTIONS(SyncIterations, cmh::threads{cmh::threads::max}, cmh::mode::throughput,
            cmh::output_unit{1us}, cmh::warmup{3, 100ms}, cmh::measurement{10, 100ms},
            cmh::fork{1});

namespace {
struct Counter : cmh::BenchmarkState {
  std::atomic<std::uint64_t> value{0};
};
}  // namespace

CMH_BENCHMARK(SyncIterations, synchronised, Counter& c) {
  return c.value.fetch_add(1, std::memory_order_relaxed);
}

CMH_BENCHMARK(SyncIterations, unsynchronised, Counter& c) {
  return c.value.fetch_add(1, std::memory_order_relaxed);
}
CMH_BENCHMARK_OPTIONS(SyncIterations, unsynchronised, cmh::sync_iterations{false});
