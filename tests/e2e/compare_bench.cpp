// SPDX-License-Identifier: MIT
// cmh-compare-bench: the benchmarks cmh-compare's end-to-end tests run for real.
// Compare.work does a fixed amount of arithmetic plus `extra` percent more, and
// `allocs` heap allocations per op, so a run with extra=20 allocs=2 is a known
// 20 % slowdown with one extra allocation against extra=0 allocs=1.
#include <cmh/cmh.hpp>

#include <memory>

using namespace std::chrono_literals;

struct Work : cmh::BenchmarkState {
  int extra = 0;
  int allocs = 1;
  static constexpr auto params =
      cmh::params(cmh::param("extra", &Work::extra, "0"), cmh::param("allocs", &Work::allocs, "1"));
};

CMH_OPTIONS(Compare, cmh::mode::average_time, cmh::output_unit{1us});

CMH_BENCHMARK(Compare, work, Work& w, cmh::Blackhole& bh) {
  // A dependent chain, so the time is proportional to the count whatever the core does.
  const unsigned n = 20000u * static_cast<unsigned>(100 + w.extra) / 100u;
  unsigned x = 1;
  for (unsigned i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    bh.consume(x);
  }
  for (int i = 0; i < w.allocs; ++i) bh.consume(std::make_unique<char[]>(64).get());
}

// A second benchmark, for --baseline within one file.
CMH_BENCHMARK(Compare, half, cmh::Blackhole& bh) {
  unsigned x = 1;
  for (unsigned i = 0; i < 10000u; ++i) {
    x = x * 1664525u + 1013904223u;
    bh.consume(x);
  }
}
