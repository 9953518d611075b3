// SPDX-License-Identifier: MIT
// Allocations while the timing is paused: each pass builds its 1000-byte input
// between PauseTiming() and ResumeTiming() and allocates 1024 bytes in the timed
// part. -prof alloc reports the timed code, 1024 B/op and 1 allocation per op;
// with paused=include, 2024 B/op and 2.
#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>

static void BM_paused_input(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    std::unique_ptr<char[]> input(new char[1000]);
    std::memset(input.get(), 'x', 1000);
    state.ResumeTiming();
    std::unique_ptr<char[]> output(new char[1024]);
    std::memcpy(output.get(), input.get(), 1000);
    benchmark::DoNotOptimize(output.get());
  }
}
BENCHMARK(BM_paused_input);
// Two threads pausing at their own times: each thread's paused stretches are its own.
BENCHMARK(BM_paused_input)->Threads(2);

// The same work, nothing paused: 2024 B/op either way.
static void BM_timed_input(benchmark::State& state) {
  for (auto _ : state) {
    std::unique_ptr<char[]> input(new char[1000]);
    std::memset(input.get(), 'x', 1000);
    std::unique_ptr<char[]> output(new char[1024]);
    std::memcpy(output.get(), input.get(), 1000);
    benchmark::DoNotOptimize(output.get());
  }
}
BENCHMARK(BM_timed_input);

BENCHMARK_MAIN();
