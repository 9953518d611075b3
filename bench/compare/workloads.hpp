// SPDX-License-Identifier: MIT
// The workloads cmh and Google Benchmark both measure in bench/ (tables 1 and 2 of
// bench/RESULTS.md), defined once so that both executables run the same code. Each
// takes the harness's sink as a template parameter (cmh::Blackhole::consume or
// benchmark::DoNotOptimize: the same empty asm statement with a "memory" clobber) and
// inputs prepared before measuring. The two trivial ones are inlined into the
// harness's loop: they measure that loop. Every other one is kept out of line
// (CMH_BENCH_OUT_OF_LINE), because inlined into two different loops GCC compiles it differently:
// vector<int>(1000)'s zeroing became `rep stos` in one harness and a scalar store
// loop, ~9x slower, in the other. That measures the compiler, not the harness.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#define CMH_BENCH_OUT_OF_LINE [[gnu::noinline]]

namespace cmh_bench {

/// Inputs every workload may read; built before any measurement.
struct Inputs {
  std::uint64_t seed = 0x2545F4914F6CDD1Dull;
  std::vector<int> unsorted;  ///< 1000 pseudo-random ints, the same sequence in both harnesses

  Inputs() {
    std::uint64_t x = seed;
    unsorted.reserve(1000);
    for (int i = 0; i < 1000; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      unsorted.push_back(static_cast<int>(x >> 33));
    }
  }
};

template <class Sink>
[[gnu::always_inline]] inline void empty(Inputs&) {}

template <class Sink>
[[gnu::always_inline]] inline void consume_int(Inputs&) {
  int value = 42;
  Sink::keep(value);
}

/// 100 dependent steps (x = 3x + i), each waiting for the previous one.
template <class Sink>
CMH_BENCH_OUT_OF_LINE void dependency_chain(Inputs& in) {
  std::uint64_t x = in.seed;
  for (std::uint64_t i = 0; i < 100; ++i) x = x * 3 + i;
  Sink::keep(x);
}

template <class Sink>
CMH_BENCH_OUT_OF_LINE void malloc_free_64(Inputs&) {
  void* p = std::malloc(64);
  Sink::keep(p);
  std::free(p);
}

template <class Sink>
CMH_BENCH_OUT_OF_LINE void string_100(Inputs&) {
  std::string s(100, 'x');
  char* data = s.data();
  Sink::keep(data);
}

template <class Sink>
CMH_BENCH_OUT_OF_LINE void vector_1000(Inputs&) {
  std::vector<int> v(1000);
  int* data = v.data();
  Sink::keep(data);
}

template <class Sink>
CMH_BENCH_OUT_OF_LINE void sort_copy_1000(Inputs& in) {
  std::vector<int> copy = in.unsorted;
  std::sort(copy.begin(), copy.end());
  int* data = copy.data();
  Sink::keep(data);
}

/// One zero-filled MiB, allocated and freed (as the TAB sample's op).
template <class Sink>
CMH_BENCH_OUT_OF_LINE void alloc_1mb(Inputs&) {
  auto block = std::make_unique<std::byte[]>(std::size_t{1} << 20);
  std::byte* data = block.get();
  Sink::keep(data);
}

}  // namespace cmh_bench
