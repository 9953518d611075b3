// SPDX-License-Identifier: MIT
// main() of cmh::gbench_main, the counterpart of benchmark::benchmark_main.
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();
