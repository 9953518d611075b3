// SPDX-License-Identifier: MIT
// Known allocations per op, for -prof alloc on a Google Benchmark suite: the
// code before and after the loop allocates too, and must not be counted.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

// 4000 bytes, one allocation per pass; 1 MB allocated before the loop and
// counters set after it, outside the measured window.
static void BM_vector1000(benchmark::State& state) {
  std::vector<char> before(1 << 20, 'x');
  benchmark::DoNotOptimize(before.data());
  for (auto _ : state) {
    std::vector<int> v(1000);
    benchmark::DoNotOptimize(v.data());
  }
  state.counters["after_loop"] = 1;
  state.SetLabel(std::string(100, 'l'));
}
BENCHMARK(BM_vector1000);

// Nothing allocated per pass.
static void BM_no_allocation(benchmark::State& state) {
  int x = 0;
  for (auto _ : state) benchmark::DoNotOptimize(++x);
}
BENCHMARK(BM_no_allocation);

// 512 MiB per pass: fails under -jvmArgs -Xmx32m (the allocator's heap limit).
static void BM_large(benchmark::State& state) {
  for (auto _ : state) {
    std::unique_ptr<char[]> p(new char[512u << 20]);  // not touched: no page faults
    benchmark::DoNotOptimize(p.get());
  }
}
BENCHMARK(BM_large)->Iterations(1);

// main() comes from the library: cmh::gbench_main, or benchmark::benchmark_main.
