// SPDX-License-Identifier: MIT
// Fixture, timing and thread styles of Google Benchmark suites, with a custom main().
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

class MapFixture : public benchmark::Fixture {
 public:
  void SetUp(const benchmark::State& state) override {
    std::lock_guard<std::mutex> lock(mutex);
    if (map.empty())
      for (int i = 0; i < 1000; ++i) map[i] = i;
    (void)state;
  }
  void TearDown(const benchmark::State&) override {}
  std::map<int, int> map;
  std::mutex mutex;
};

BENCHMARK_F(MapFixture, Lookup)(benchmark::State& state) {
  int key = 0;
  for (auto _ : state) {
    auto it = map.find(key);
    benchmark::DoNotOptimize(it);
    key = (key + 7) % 1000;
  }
}

BENCHMARK_DEFINE_F(MapFixture, Iterate)(benchmark::State& state) {
  for (auto _ : state) {
    long sum = 0;
    for (const auto& [k, v] : map) sum += v;
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK_REGISTER_F(MapFixture, Iterate)->Arg(1)->Arg(2);

class MutableFixture : public benchmark::Fixture {
 public:
  void SetUp(benchmark::State& state) override { size = static_cast<std::size_t>(state.range(0)); }
  void TearDown(benchmark::State&) override { size = 0; }
  std::size_t size = 0;
};
BENCHMARK_DEFINE_F(MutableFixture, Reserve)(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<int> v;
    v.reserve(size);
    benchmark::DoNotOptimize(v.data());
  }
}
BENCHMARK_REGISTER_F(MutableFixture, Reserve)->Range(8, 64);

template <class T>
class TypedFixture : public benchmark::Fixture {
 public:
  T value{};
};
BENCHMARK_TEMPLATE_F(TypedFixture, Increment, int)(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(++value);
}
BENCHMARK_TEMPLATE_DEFINE_F(TypedFixture, Decrement, double)(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(--value);
}
BENCHMARK_REGISTER_F(TypedFixture, Decrement);

static void BM_pause_resume(benchmark::State& state) {
  std::vector<int> v(256);
  for (auto _ : state) {
    state.PauseTiming();
    for (auto& x : v) x = 1;
    state.ResumeTiming();
    int s = 0;
    for (int x : v) s += x;
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_pause_resume);

static void BM_manual_time(benchmark::State& state) {
  for (auto _ : state) {
    const auto start = std::chrono::high_resolution_clock::now();
    int x = 0;
    for (int i = 0; i < 100; ++i) benchmark::DoNotOptimize(x += i);
    const auto end = std::chrono::high_resolution_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(end - start).count());
  }
}
BENCHMARK(BM_manual_time)->UseManualTime();

static std::atomic<long> shared_counter{0};
static void BM_threads(benchmark::State& state) {
  if (state.thread_index() == 0) shared_counter = 0;
  for (auto _ : state) shared_counter.fetch_add(1, std::memory_order_relaxed);
  state.counters["threads_seen"] = benchmark::Counter(state.threads(), benchmark::Counter::kAvgThreads);
}
BENCHMARK(BM_threads)->Threads(1)->Threads(2);
BENCHMARK(BM_threads)->Name("threads_range")->ThreadRange(1, 4);
BENCHMARK(BM_threads)->Name("threads_per_cpu")->ThreadPerCpu();

static void BM_skip_error(benchmark::State& state) {
  for (auto _ : state) {
    state.SkipWithError("the input could not be prepared");
    break;
  }
}
BENCHMARK(BM_skip_error);

// SkipWithMessage is Google Benchmark 1.8's; Debian's 1.7 has only SkipWithError.
template <class S>
auto skip_with_message(S& state, const char* message, int) -> decltype(state.SkipWithMessage(message)) {
  state.SkipWithMessage(message);
}
template <class S>
void skip_with_message(S& state, const char* message, long) {
  state.SkipWithError(message);
}

static void BM_skip_before_loop(benchmark::State& state) {
  skip_with_message(state, "nothing to measure here", 0);
  for (auto _ : state) {
  }
}
BENCHMARK(BM_skip_before_loop);

int main(int argc, char** argv) {
  benchmark::RegisterBenchmark("lambda_sum", [](benchmark::State& state) {
    for (auto _ : state) {
      int s = 0;
      for (int i = 0; i < 16; ++i) s += i;
      benchmark::DoNotOptimize(s);
    }
  });
  for (int n : {4, 8})
    benchmark::RegisterBenchmark(("lambda_loop/" + std::to_string(n)).c_str(),
                                 [](benchmark::State& state, int count) {
                                   for (auto _ : state)
                                     for (int i = 0; i < count; ++i) benchmark::DoNotOptimize(i);
                                 },
                                 n);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
