// SPDX-License-Identifier: MIT
// bench/compile (issue 10): the same file for Google Benchmark, 1 benchmark.
// The same bodies as cmh_1.cpp;
// bench/run compiles both and compares (keep the bodies identical).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>

static void sqrt(benchmark::State& state) {
  for (auto _ : state) { double x = 2.0; benchmark::DoNotOptimize(x); benchmark::DoNotOptimize(std::sqrt(x)); }
}
BENCHMARK(sqrt);
