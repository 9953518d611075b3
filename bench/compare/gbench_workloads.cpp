// SPDX-License-Identifier: MIT
// Google Benchmark's side of the comparison: the same workloads.hpp functions as
// BM_<name>, consumed through benchmark::DoNotOptimize, in the recommended ranged-for
// loop. Built twice by bench/compare.cmake: linked with cmh's allocator and on glibc.
// CMH_BENCH_EXTRA_THREAD=1 makes the process multi-threaded before measuring, as a cmh
// fork always is (control thread + worker): glibc's malloc skips its arena locks only
// while a process has never had a second thread, so without this the two harnesses
// would run the allocation workloads under different malloc code paths.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string_view>
#include <thread>

#include "workloads.hpp"

namespace {
struct GbenchSink {
  template <class T>
  [[gnu::always_inline]] static void keep(T& value) {
    benchmark::DoNotOptimize(value);
  }
};

cmh_bench::Inputs& inputs() {
  static cmh_bench::Inputs prepared;  // built before the first timed loop
  return prepared;
}

template <void (*Workload)(cmh_bench::Inputs&)>
void measure(benchmark::State& state) {
  cmh_bench::Inputs& in = inputs();
  for (auto _ : state) Workload(in);
}
}  // namespace

BENCHMARK(measure<cmh_bench::empty<GbenchSink>>)->Name("empty");
BENCHMARK(measure<cmh_bench::consume_int<GbenchSink>>)->Name("consume_int");
BENCHMARK(measure<cmh_bench::dependency_chain<GbenchSink>>)->Name("dependency_chain");
BENCHMARK(measure<cmh_bench::malloc_free_64<GbenchSink>>)->Name("malloc_free_64");
BENCHMARK(measure<cmh_bench::string_100<GbenchSink>>)->Name("string_100");
BENCHMARK(measure<cmh_bench::vector_1000<GbenchSink>>)->Name("vector_1000");
BENCHMARK(measure<cmh_bench::sort_copy_1000<GbenchSink>>)->Name("sort_copy_1000");
BENCHMARK(measure<cmh_bench::alloc_1mb<GbenchSink>>)->Name("alloc_1mb");

int main(int argc, char** argv) {
  if (const char* extra = std::getenv("CMH_BENCH_EXTRA_THREAD"); extra && std::string_view(extra) == "1")
    std::thread([] {}).join();  // glibc stays in multi-threaded mode from now on
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
