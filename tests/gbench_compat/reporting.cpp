// SPDX-License-Identifier: MIT
// What a Google Benchmark suite reports, as CI scripts read it back from the JSON:
// labels, counters with each flag, repetitions with their aggregates (some families
// asking for aggregates only), the time unit a suite sets, and context entries added
// by its own main(). Built against Debian's Google Benchmark and against
// cmh::gbench; e2e:gbench_compat_reporting compares the two JSON files.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

// A label with characters JSON must escape, and counters with each flag.
static void BM_labelled(benchmark::State& state) {
  std::vector<int> v(64, 1);
  for (auto _ : state) {
    int sum = 0;
    for (int x : v) sum += x;
    benchmark::DoNotOptimize(sum);
  }
  state.SetLabel("fast \"path\", n=" + std::to_string(state.range(0)));
  state.counters["plain"] = 7;
  state.counters["rate"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["per_pass"] = benchmark::Counter(static_cast<double>(state.iterations()) * 2,
                                                  benchmark::Counter::kAvgIterations);
  state.counters["invariant"] = benchmark::Counter(1, benchmark::Counter::kIsIterationInvariant);
  state.counters["inverted"] = benchmark::Counter(4, benchmark::Counter::kInvert);
}
BENCHMARK(BM_labelled)->Arg(64);

// Repetitions with every row reported, and families that keep only the aggregates.
static void BM_repeated(benchmark::State& state) {
  int x = 0;
  for (auto _ : state) benchmark::DoNotOptimize(++x);
}
BENCHMARK(BM_repeated)->Repetitions(3);
BENCHMARK(BM_repeated)->Name("BM_repeated_aggregates")->Repetitions(3)->ReportAggregatesOnly(true);
BENCHMARK(BM_repeated)->Name("BM_repeated_display")->Repetitions(3)->DisplayAggregatesOnly(true);

// No Unit(): --benchmark_time_unit sets it. With Unit(): kept.
static void BM_unit(benchmark::State& state) {
  int x = 0;
  for (auto _ : state) benchmark::DoNotOptimize(x += 3);
}
BENCHMARK(BM_unit);
BENCHMARK(BM_unit)->Name("BM_unit_ms")->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("suite", "reporting");
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
