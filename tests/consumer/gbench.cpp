// SPDX-License-Identifier: MIT
// A user's Google Benchmark suite, unchanged, built against the installed cmh::gbench_main
// (or pkg-config cmh-gbench-main) instead of benchmark::benchmark_main: <benchmark/benchmark.h>
// must be cmh's even where Google Benchmark's own is in /usr/include. The loop makes one
// std::vector<int>(1000), exactly 4000 bytes per pass; the vector before it is not counted.
#include <benchmark/benchmark.h>

#include <vector>

static void BM_consumer_vector(benchmark::State& state) {
  std::vector<char> before(1 << 16, 'x');
  benchmark::DoNotOptimize(before.data());
  for (auto _ : state) {
    std::vector<int> v(1000);
    benchmark::DoNotOptimize(v.data());
  }
}
BENCHMARK(BM_consumer_vector);
// main() comes from the library (BENCHMARK_MAIN).
