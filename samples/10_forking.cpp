// SPDX-License-Identifier: MIT
// Sample 10, Forking: one process per benchmark, because a process remembers.
//
// C++ has no JIT profile to pollute, but a process carries plenty from one benchmark
// to the next: threads a library started, the heap's free lists and fragmentation,
// pages already faulted in, the floating-point environment (an object built with
// -ffast-math turns on flush-to-zero for the whole process), function-local statics.
// Here `a_with_pool` uses a library whose worker pool spin-waits for work, as some
// OpenMP runtimes do, and never stops it; `b_compute` is plain arithmetic that runs
// next (benchmarks run sorted by name). Forked (the default), `b_compute` starts in
// a fresh process and shows its real cost. With -f 0 both run in one process, the
// pool's threads are still spinning on every core, and `b_compute` looks slower for
// reasons that have nothing to do with its code. -f 0 is for debugging only.
//
//   cmh-samples Forking            each benchmark in its own process
//   cmh-samples Forking -f 0       b_compute inherits a_with_pool's spinning threads
#include <cmh/cmh.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

using namespace std::chrono_literals;

CMH_OPTIONS(Forking, cmh::mode::average_time, cmh::output_unit{1ns}, cmh::warmup{3, 500ms},
            cmh::measurement{5, 500ms}, cmh::fork{1});

namespace {
/// Starts, once per process, one spinning thread per CPU that lives for 15 s.
void start_spinning_pool() {
  static const bool started = [] {
    const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < cpus; ++i) {
      std::thread([] {
        const auto until = std::chrono::steady_clock::now() + 15s;
        std::atomic<std::uint64_t> spins{0};
        while (std::chrono::steady_clock::now() < until) spins.fetch_add(1, std::memory_order_relaxed);
      }).detach();
    }
    return true;
  }();
  (void)started;
}

struct Work : cmh::ThreadState {
  std::uint64_t seed = 12345;
};

/// A dependent chain of 64 multiply-adds: pure CPU work, no memory.
std::uint64_t compute(Work& w) {
  std::uint64_t x = w.seed;
  for (int i = 0; i < 64; ++i) x = x * 6364136223846793005ull + 1442695040888963407ull;
  return x;
}
}  // namespace

CMH_BENCHMARK(Forking, a_with_pool, Work& w) {
  start_spinning_pool();
  return compute(w);
}

CMH_BENCHMARK(Forking, b_compute, Work& w) { return compute(w); }
