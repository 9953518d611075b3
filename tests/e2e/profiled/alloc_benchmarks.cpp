// SPDX-License-Identifier: MIT
// Purpose-built benchmarks for the profiler end-to-end tests: exact allocation per
// op (one std::vector<int>(1000): 4000 B, 1 allocation), none at all (0 B/op), frees
// made by another thread (the allocator's collections), and a first touch of
// 64 MiB of heap (page faults for -prof rusage with and without -XX:+AlwaysPreTouch).
#include <cmh/cmh.hpp>

#include <cstddef>
#include <memory>
#include <thread>
#include <vector>

using namespace std::chrono_literals;

CMH_OPTIONS(Alloc, cmh::mode::average_time, cmh::output_unit{1ns}, cmh::fork{1});

CMH_BENCHMARK(Alloc, vector_1000, cmh::Blackhole& bh) {
  std::vector<int> v(1000);
  bh.consume(v.data());  // keeps the compiler from eliding the new/delete pair
}

CMH_BENCHMARK(Alloc, nothing, cmh::Blackhole& bh) {
  int x = 42;
  bh.consume(x);
}

CMH_OPTIONS(Gc, cmh::mode::average_time, cmh::output_unit{1us}, cmh::fork{1});

/// 16 blocks of 1 MiB allocated here, freed in a thread started and joined inside the op:
/// more than the heap caches, so collecting them retires memory (a gc episode; a drain of
/// remote frees alone is not one).
CMH_BENCHMARK(Gc, remote_free, cmh::Blackhole& bh) {
  std::vector<std::unique_ptr<char[]>> blocks;
  blocks.reserve(16);
  for (int i = 0; i < 16; ++i) blocks.push_back(std::make_unique<char[]>(1 << 20));
  bh.consume(blocks.data());
  std::thread([b = std::move(blocks)]() mutable { b.clear(); }).join();
}

CMH_OPTIONS(Pages, cmh::mode::single_shot, cmh::output_unit{1ms}, cmh::fork{1}, cmh::warmup{0},
            cmh::measurement{1});

/// 64 MiB, one write per 4 KiB page, in one op: the first time the heap's pages are
/// touched. Without -XX:+AlwaysPreTouch that is one minor fault per page; with it the
/// fork touched the committed heap (-Xms) at start-up and the op faults ~0 times.
CMH_BENCHMARK(Pages, first_touch, cmh::Blackhole& bh) {
  constexpr std::size_t kBytes = std::size_t{64} << 20, kPage = 4096;
  auto p = std::make_unique_for_overwrite<char[]>(kBytes);
  for (std::size_t i = 0; i < kBytes; i += kPage) p[i] = static_cast<char>(i);
  bh.consume(p.get());
}
