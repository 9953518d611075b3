// SPDX-License-Identifier: MIT
// Memory-bound bodies for bench/machine/run, which measures what the knobs of
// cmh-system and -pin do to their spread:
//   Memory.sum     sums a buffer of `kib` KiB per op (bandwidth-bound for a buffer
//                  larger than the caches, cache-bound for a small one);
//   Memory.chase   follows a random cyclic permutation through `mib` MiB, one
//                  dependent load per op (latency- and TLB-bound), on memory
//                  madvise()d for huge pages or against them (`huge`): what
//                  transparent huge pages change, measured without changing the
//                  machine's THP setting (its "madvise" mode lets a process ask).
// Each worker has its own buffer, touched first on its own thread (a ThreadState
// is created and set up on the worker), so -pin also decides where its pages are.
#include <cmh/cmh.hpp>

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace std::chrono_literals;

struct SumBuffer : cmh::ThreadState {
  int kib = 0;
  std::vector<std::uint64_t> words;
  static constexpr auto params = cmh::params(cmh::param("kib", &SumBuffer::kib, "256", "65536"));
  void setup_trial() { words.assign(static_cast<std::size_t>(kib) * 1024 / sizeof(std::uint64_t), 1); }
};

CMH_OPTIONS(Memory, cmh::warmup{2, 300ms}, cmh::measurement{5, 300ms}, cmh::fork{3},
            cmh::mode::average_time, cmh::output_unit{1us});

CMH_BENCHMARK(Memory, sum, SumBuffer& b) { return std::accumulate(b.words.begin(), b.words.end(), std::uint64_t{0}); }

struct ChaseRing : cmh::ThreadState {
  int mib = 0;
  bool huge = false;
  std::uint32_t* next = nullptr;
  std::size_t slots = 0;
  std::uint32_t at = 0;
  static constexpr auto params =
      cmh::params(cmh::param("mib", &ChaseRing::mib, "256"), cmh::param("huge", &ChaseRing::huge, "false", "true"));
  void setup_trial() {
    const std::size_t bytes = static_cast<std::size_t>(mib) << 20;
    slots = bytes / sizeof(std::uint32_t);
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("mmap failed");
    ::madvise(p, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    next = static_cast<std::uint32_t*>(p);
    // One cycle through every slot, in random order: each load depends on the last.
    std::vector<std::uint32_t> order(slots);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), std::mt19937_64(42));
    for (std::size_t i = 0; i < slots; ++i) next[order[i]] = order[(i + 1) % slots];
  }
  void teardown_trial() {
    // What the kernel gave: the run script checks that huge=true got huge pages.
    std::ifstream rollup("/proc/self/smaps_rollup");
    for (std::string line; std::getline(rollup, line);)
      if (line.rfind("AnonHugePages:", 0) == 0) std::printf("HUGEPAGES huge=%d %s\n", huge ? 1 : 0, line.c_str());
    ::munmap(next, slots * sizeof(std::uint32_t));
  }
};

CMH_BENCHMARK(Memory, chase, ChaseRing& r) {
  r.at = r.next[r.at];
  return r.at;
}
CMH_BENCHMARK_OPTIONS(Memory, chase, cmh::output_unit{1ns});
