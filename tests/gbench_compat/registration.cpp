// SPDX-License-Identifier: MIT
// Registration styles of Google Benchmark suites: plain functions, argument
// expansions, templates, captures, options, counters, KeepRunning loops.
// Built against Debian's Google Benchmark and against cmh::gbench; the test
// compares the two (names, expansions, counters) and runs it under cmh.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

static void BM_empty(benchmark::State& state) {
  for (auto _ : state) {
  }
}
BENCHMARK(BM_empty);

static void BM_accumulate(benchmark::State& state) {
  std::vector<int> v(static_cast<std::size_t>(state.range(0)), 1);
  for (auto _ : state) {
    int sum = std::accumulate(v.begin(), v.end(), 0);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetBytesProcessed(state.iterations() * state.range(0) * static_cast<std::int64_t>(sizeof(int)));
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_accumulate)->RangeMultiplier(4)->Range(16, 1024)->Complexity(benchmark::oN);
BENCHMARK(BM_accumulate)->Name("accumulate_dense")->DenseRange(0, 64, 32)->ArgName("n");

static void BM_negative(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(state.range(0) * 3);
}
BENCHMARK(BM_negative)->Name("accumulate_negative")->Range(-8, 8)->Arg(3);

static void BM_memcpy(benchmark::State& state) {
  std::vector<char> src(static_cast<std::size_t>(state.range(0)), 'x');
  std::vector<char> dst(src.size());
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), src.size());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * state.range(0));
  state.SetLabel("copy " + std::to_string(state.range(0)) + " bytes");
}
BENCHMARK(BM_memcpy)->Arg(64)->Arg(4096)->Unit(benchmark::kMicrosecond);

static void BM_pairs(benchmark::State& state) {
  const auto a = state.range(0), b = state.range(1);
  for (auto _ : state) {
    auto c = a * b;
    benchmark::DoNotOptimize(c);
  }
  state.counters["product"] = static_cast<double>(a * b);
  state.counters["rate"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["per_iter"] = benchmark::Counter(static_cast<double>(state.iterations() * 3),
                                                  benchmark::Counter::kAvgIterations);
  state.counters["kibi"] = benchmark::Counter(2048, benchmark::Counter::kDefaults, benchmark::Counter::OneK::kIs1024);
  state.counters["threads_avg"] = benchmark::Counter(4, benchmark::Counter::kAvgThreads);
}
BENCHMARK(BM_pairs)->Args({1, 2})->Args({3, 4})->ArgNames({"a", "b"});
BENCHMARK(BM_pairs)->Name("pairs_ranges")->Ranges({{1, 8}, {10, 20}});
BENCHMARK(BM_pairs)->Name("pairs_product")->ArgsProduct({{1, 2, 3}, {5, 7}})->ArgNames({"x", ""});

static void custom_args(benchmark::internal::Benchmark* b) {
  for (int i = 1; i <= 3; ++i) b->Args({i, i * 10});
}
BENCHMARK(BM_pairs)->Name("pairs_apply")->Apply(custom_args);

template <class T>
static void BM_fill(benchmark::State& state) {
  std::vector<T> v(64);
  for (auto _ : state) {
    std::fill(v.begin(), v.end(), T(1));
    benchmark::DoNotOptimize(v.data());
  }
}
BENCHMARK_TEMPLATE(BM_fill, int);
BENCHMARK_TEMPLATE(BM_fill, double)->Arg(1);

template <class A, class B>
static void BM_convert(benchmark::State& state) {
  A a = 3;
  for (auto _ : state) {
    B b = static_cast<B>(a);
    benchmark::DoNotOptimize(b);
  }
}
BENCHMARK_TEMPLATE2(BM_convert, int, double);
BENCHMARK_TEMPLATE(BM_convert, long, float);

static void BM_find(benchmark::State& state, std::string haystack, char needle) {
  for (auto _ : state) {
    auto pos = haystack.find(needle);
    benchmark::DoNotOptimize(pos);
  }
}
BENCHMARK_CAPTURE(BM_find, short_hit, std::string("abcdef"), 'e');
BENCHMARK_CAPTURE(BM_find, long_miss, std::string(200, 'a'), 'z');

static void BM_keep_running(benchmark::State& state) {
  int x = 0;
  while (state.KeepRunning()) benchmark::DoNotOptimize(++x);
}
BENCHMARK(BM_keep_running);

static void BM_keep_running_batch(benchmark::State& state) {
  int x = 0;
  while (state.KeepRunningBatch(8)) {
    for (int i = 0; i < 8; ++i) benchmark::DoNotOptimize(++x);
  }
}
BENCHMARK(BM_keep_running_batch);

// One thread: every pass is a timed pass, and both counts agree after the loop.
static void BM_count_passes(benchmark::State& state) {
  benchmark::IterationCount passes = 0;
  for (auto _ : state) ++passes;
  if (passes != state.iterations() || passes != state.max_iterations) state.SkipWithError("pass counts disagree");
}
BENCHMARK(BM_count_passes);

static void BM_options(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(state.iterations());
}
BENCHMARK(BM_options)->Iterations(1000);
BENCHMARK(BM_options)->MinTime(0.05)->UseRealTime();
BENCHMARK(BM_options)->Repetitions(2)->MeasureProcessCPUTime();

BENCHMARK_MAIN();
