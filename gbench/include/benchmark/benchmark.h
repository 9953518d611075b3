// SPDX-License-Identifier: MIT
// cmh's Google Benchmark compatibility layer: the <benchmark/benchmark.h> a suite
// written for Google Benchmark includes, implemented on cmh's engine (written for
// cmh from the public API's documentation; no Google Benchmark code is used).
//
// Registration records families as Google Benchmark does; when the program runs
// (BENCHMARK_MAIN, or Initialize + RunSpecifiedBenchmarks), every family is
// expanded into instances named as Google Benchmark names them ("BM_x/8/threads:2"),
// each registered as a cmh benchmark and run by cmh's host: forks, warmup and
// measurement iterations, JMH statistics, profilers and result files.
//
// The State's loop is driven by the engine: a pass is one op, and the loop runs
// until the iteration's stop flag. The code before and after the loop runs
// outside the timed and profiled window (see gbench/src/runner.cpp).
#pragma once

// Google Benchmark's header brings these standard headers; suites rely on them.
#include <stdint.h>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#define BENCHMARK_HAS_CXX11
#define BENCHMARK_HAS_CXX17
#define BENCHMARK_ALWAYS_INLINE __attribute__((always_inline))
#define BENCHMARK_NOINLINE __attribute__((noinline))
#define BENCHMARK_UNUSED [[maybe_unused]]
#define BENCHMARK_EXPORT
#define BENCHMARK_OVERRIDE override
#define BENCHMARK_BUILTIN_EXPECT(x, y) __builtin_expect(x, y)
#define BENCHMARK_DEPRECATED_MSG(msg) __attribute__((deprecated(msg)))
#define BENCHMARK_DISALLOW_COPY_AND_ASSIGN(TypeName) \
  TypeName(const TypeName&) = delete;                \
  TypeName& operator=(const TypeName&) = delete

namespace benchmark {

using IterationCount = std::int64_t;

enum TimeUnit { kNanosecond, kMicrosecond, kMillisecond, kSecond };

/// Asymptotic complexity hints. cmh records them; it computes no Big-O fit.
enum BigO { oNone, o1, oN, oNSquared, oNCubed, oLogN, oNLogN, oAuto, oLambda };
using ComplexityN = std::int64_t;
using BigOFunc = double(IterationCount);
using StatisticsFunc = double(const std::vector<double>&);

enum StatisticUnit { kTime, kPercentage };

// ---- Helpers -------------------------------------------------------------

/// The value must exist (in a register or in memory) at this point.
template <class Tp>
inline BENCHMARK_ALWAYS_INLINE void DoNotOptimize(Tp const& value) {
  asm volatile("" : : "r,m"(value) : "memory");
}

/// The value must exist here and may have been changed by something unknown.
template <class Tp>
inline BENCHMARK_ALWAYS_INLINE void DoNotOptimize(Tp& value) {
  // Integers and pointers in a register. Anything else in memory: with the two-alternative
  // "+m,r", GCC 12 sometimes computed `DoNotOptimize(--d)` on a double member into a stack
  // copy and never stored it back (bench/RESULTS.md section 7, TypedFixture<double>/Decrement).
  if constexpr (std::is_integral_v<Tp> || std::is_pointer_v<Tp> || std::is_enum_v<Tp>) {
    asm volatile("" : "+r"(value) : : "memory");
  } else {
    asm volatile("" : "+m"(value) : : "memory");
  }
}

/// Every store before this point must be done.
inline BENCHMARK_ALWAYS_INLINE void ClobberMemory() { asm volatile("" : : : "memory"); }

// ---- Counters ------------------------------------------------------------

class Counter {
 public:
  enum Flags {
    kDefaults = 0,
    kIsRate = 1 << 0,                ///< divided by the measured time: per second
    kAvgThreads = 1 << 1,            ///< averaged over threads instead of summed
    kAvgThreadsRate = kIsRate | kAvgThreads,
    kIsIterationInvariant = 1 << 2,  ///< multiplied by the iterations
    kIsIterationInvariantRate = kIsRate | kIsIterationInvariant,
    kAvgIterations = 1 << 3,         ///< divided by the iterations: per op
    kAvgIterationsRate = kIsRate | kAvgIterations,
    kInvert = 1 << 31                ///< 1/value, after everything else
  };
  enum OneK { kIs1000 = 1000, kIs1024 = 1024 };

  Counter(double v = 0., Flags f = kDefaults, OneK k = kIs1000) : value(v), flags(f), oneK(k) {}
  operator double const&() const { return value; }  // NOLINT(google-explicit-constructor)
  operator double&() { return value; }              // NOLINT(google-explicit-constructor)

  double value;
  Flags flags;
  OneK oneK;
};

inline constexpr Counter::Flags operator|(const Counter::Flags& a, const Counter::Flags& b) {
  return static_cast<Counter::Flags>(static_cast<int>(a) | static_cast<int>(b));
}

using UserCounters = std::map<std::string, Counter>;

namespace internal {
class Benchmark;
class Runner;
}  // namespace internal

// ---- State ---------------------------------------------------------------

class State {
 public:
  struct StateIterator;
  friend struct StateIterator;

  StateIterator begin();
  StateIterator end();

  /// `while (state.KeepRunning())`: true for each pass.
  BENCHMARK_ALWAYS_INLINE bool KeepRunning() { return KeepRunningBatch(1); }
  /// Each true return counts `n` ops.
  BENCHMARK_ALWAYS_INLINE bool KeepRunningBatch(IterationCount n) {
    if (BENCHMARK_BUILTIN_EXPECT(!started_, false)) {
      if (!StartLoop()) return false;
    }
    if (BENCHMARK_BUILTIN_EXPECT(!watch_->load(std::memory_order_acquire), true)) {
      keep_running_count_ += static_cast<std::uint64_t>(n);
      return true;
    }
    return NextPass(keep_running_count_, static_cast<std::uint64_t>(n));
  }

  /// Time from here to ResumeTiming() is left out of the score (two clock reads).
  void PauseTiming();
  void ResumeTiming();

  /// Ends the benchmark: cmh reports the trial as failed, with this message.
  void SkipWithError(const std::string& msg);
  void SkipWithError(const char* msg) { SkipWithError(std::string(msg)); }
  /// Ends the benchmark: cmh reports the trial as failed ("skipped"), with this message.
  void SkipWithMessage(const std::string& msg);
  void SkipWithMessage(const char* msg) { SkipWithMessage(std::string(msg)); }
  bool error_occurred() const { return skipped_ == 1; }
  bool skipped() const { return skipped_ != 0; }

  /// UseManualTime(): the time of this pass, in seconds; the score is their sum.
  void SetIterationTime(double seconds);

  void SetBytesProcessed(std::int64_t bytes) {
    counters["bytes_per_second"] = Counter(static_cast<double>(bytes), Counter::kIsRate, Counter::kIs1024);
  }
  std::int64_t bytes_processed() const { return CounterValue("bytes_per_second"); }
  void SetItemsProcessed(std::int64_t items) {
    counters["items_per_second"] = Counter(static_cast<double>(items), Counter::kIsRate);
  }
  std::int64_t items_processed() const { return CounterValue("items_per_second"); }
  void SetComplexityN(ComplexityN n) { complexity_n_ = n; }
  ComplexityN complexity_length_n() const { return complexity_n_; }

  /// Text shown with the iteration's results and written as the JSON files' "label".
  void SetLabel(const std::string& label) { label_ = label; }
  void SetLabel(const char* label) { label_ = label; }

  std::int64_t range(std::size_t pos = 0) const { return pos < range_.size() ? range_[pos] : 0; }
  std::int64_t range_x() const { return range(0); }
  std::int64_t range_y() const { return range(1); }

  /// The passes counted in the timed window (final once the loop has ended).
  IterationCount iterations() const { return iterations_; }
  const std::string& name() const { return name_; }
  int threads() const { return threads_; }
  int thread_index() const { return thread_index_; }

  /// Before the loop: the previous iteration's timed passes (at least 1), or Iterations(n).
  /// After it: this iteration's timed passes (cmh stops the loop by time, so no count is planned).
  IterationCount max_iterations = 1;
  UserCounters counters;

 private:
  friend class internal::Runner;
  State() = default;
  State(const State&) = delete;
  State& operator=(const State&) = delete;

  bool StartLoop();
  bool NextPass(std::uint64_t& count, std::uint64_t weight);
  std::int64_t CounterValue(const char* key) const {
    auto it = counters.find(key);
    return it == counters.end() ? 0 : static_cast<std::int64_t>(it->second.value);
  }

  // Hot: the flag the loop polls. When it is set, NextPass decides what comes next.
  const std::atomic<bool>* watch_ = nullptr;
  bool started_ = false;
  std::uint64_t keep_running_count_ = 0;
  internal::Runner* runner_ = nullptr;

  IterationCount iterations_ = 0;
  int skipped_ = 0;  // 1 error, 2 message
  std::string skip_message_;
  std::string label_;
  ComplexityN complexity_n_ = 0;
  std::vector<std::int64_t> range_;
  std::string name_;
  int threads_ = 1;
  int thread_index_ = 0;
};

struct State::StateIterator {
  struct Value {};
  using iterator_category = std::forward_iterator_tag;
  using value_type = Value;
  using reference = Value;
  using pointer = Value;
  using difference_type = std::ptrdiff_t;

  StateIterator() = default;
  explicit StateIterator(State* s) : state(s) {}
  BENCHMARK_ALWAYS_INLINE Value operator*() const { return Value(); }
  BENCHMARK_ALWAYS_INLINE StateIterator& operator++() { return *this; }
  BENCHMARK_ALWAYS_INLINE bool operator!=(const StateIterator&) {
    if (BENCHMARK_BUILTIN_EXPECT(!state->watch_->load(std::memory_order_acquire), true)) {
      ++count;
      return true;
    }
    // NextPass gets a copy: were `count` itself passed by reference, its address would
    // escape and the compiler would keep it in memory, a store-to-load chain of ~5 cycles
    // per pass (BM_empty measured 1.8 ns/op instead of ~0.3).
    std::uint64_t passes = count;
    const bool more = state->NextPass(passes, 1);
    count = passes;
    return more;
  }

  State* state = nullptr;
  std::uint64_t count = 0;
};

// When there is no loop to run (a skip, a second loop), StartLoop leaves watch_
// set and NextPass answers false at the first check.
inline BENCHMARK_ALWAYS_INLINE State::StateIterator State::begin() {
  StartLoop();
  return StateIterator(this);
}
inline BENCHMARK_ALWAYS_INLINE State::StateIterator State::end() { return StateIterator(); }

// ---- Families ------------------------------------------------------------

namespace internal {

class Family;

/// A registered benchmark family and its options, chained as in Google Benchmark.
class Benchmark {
 public:
  virtual ~Benchmark();

  Benchmark* Name(const std::string& name);
  Benchmark* Arg(std::int64_t x);
  Benchmark* Unit(TimeUnit unit);
  Benchmark* Range(std::int64_t start, std::int64_t limit);
  Benchmark* DenseRange(std::int64_t start, std::int64_t limit, int step = 1);
  Benchmark* Args(const std::vector<std::int64_t>& args);
  Benchmark* ArgPair(std::int64_t x, std::int64_t y) { return Args({x, y}); }
  Benchmark* Ranges(const std::vector<std::pair<std::int64_t, std::int64_t>>& ranges);
  Benchmark* ArgsProduct(const std::vector<std::vector<std::int64_t>>& arglists);
  Benchmark* ArgName(const std::string& name);
  Benchmark* ArgNames(const std::vector<std::string>& names);
  Benchmark* RangePair(std::int64_t lo1, std::int64_t hi1, std::int64_t lo2, std::int64_t hi2) {
    return Ranges({{lo1, hi1}, {lo2, hi2}});
  }
  Benchmark* Setup(void (*setup)(const State&));
  Benchmark* Teardown(void (*teardown)(const State&));
  Benchmark* Apply(void (*func)(Benchmark* benchmark));
  Benchmark* RangeMultiplier(int multiplier);
  Benchmark* MinTime(double seconds);
  Benchmark* MinWarmUpTime(double seconds);
  Benchmark* Iterations(IterationCount n);
  Benchmark* Repetitions(int n);
  Benchmark* ReportAggregatesOnly(bool value = true);
  Benchmark* DisplayAggregatesOnly(bool value = true);
  Benchmark* MeasureProcessCPUTime();
  Benchmark* UseRealTime();
  Benchmark* UseManualTime();
  Benchmark* Complexity(BigO complexity = oAuto);
  Benchmark* Complexity(BigOFunc* complexity);
  Benchmark* ComputeStatistics(const std::string& name, StatisticsFunc* statistics,
                               StatisticUnit unit = kTime);
  Benchmark* Threads(int t);
  Benchmark* ThreadRange(int min_threads, int max_threads);
  Benchmark* DenseThreadRange(int min_threads, int max_threads, int stride = 1);
  Benchmark* ThreadPerCpu();

  virtual void Run(State& state) = 0;

  Family& family() { return *family_; }

 protected:
  explicit Benchmark(const char* name);
  explicit Benchmark(const std::string& name);
  void SetName(const char* name);
  void SetName(const std::string& name) { SetName(name.c_str()); }

 private:
  friend class Runner;
  std::unique_ptr<Family> family_;
};

class FunctionBenchmark : public Benchmark {
 public:
  using Function = void(State&);
  FunctionBenchmark(const char* name, Function* func) : Benchmark(name), func_(func) {}
  FunctionBenchmark(const std::string& name, Function* func) : Benchmark(name), func_(func) {}
  void Run(State& st) override { func_(st); }

 private:
  Function* func_;
};

template <class Lambda>
class LambdaBenchmark : public Benchmark {
 public:
  template <class L>
  LambdaBenchmark(const std::string& name, L&& lambda) : Benchmark(name), lambda_(std::forward<L>(lambda)) {}
  void Run(State& st) override { lambda_(st); }

 private:
  Lambda lambda_;
};

/// Takes ownership; returns the family for chaining.
Benchmark* RegisterBenchmarkInternal(Benchmark* benchmark);

}  // namespace internal

inline internal::Benchmark* RegisterBenchmark(const std::string& name, void (*fn)(State&)) {
  return internal::RegisterBenchmarkInternal(new internal::FunctionBenchmark(name, fn));
}

template <class Lambda>
internal::Benchmark* RegisterBenchmark(const std::string& name, Lambda&& fn) {
  using L = std::remove_cv_t<std::remove_reference_t<Lambda>>;
  return internal::RegisterBenchmarkInternal(new internal::LambdaBenchmark<L>(name, std::forward<Lambda>(fn)));
}

template <class Lambda, class... Args>
internal::Benchmark* RegisterBenchmark(const std::string& name, Lambda&& fn, Args&&... args) {
  return RegisterBenchmark(name, [=](State& st) { fn(st, args...); });
}

/// Fixture: SetUp and TearDown run around every run of the benchmark on every
/// thread (one fixture object per family, shared by the threads, as in Google Benchmark).
class Fixture : public internal::Benchmark {
 public:
  Fixture() : internal::Benchmark("") {}
  void Run(State& st) override {
    this->SetUp(st);
    this->BenchmarkCase(st);
    this->TearDown(st);
  }
  virtual void SetUp(const State&) {}
  virtual void TearDown(const State&) {}
  virtual void SetUp(State& st) { SetUp(static_cast<const State&>(st)); }
  virtual void TearDown(State& st) { TearDown(static_cast<const State&>(st)); }

 protected:
  virtual void BenchmarkCase(State&) = 0;
};

// ---- The machine, as suites query it --------------------------------------

struct CPUInfo {
  int num_cpus = 1;               ///< online CPUs
  double cycles_per_second = 0;   ///< from /proc/cpuinfo's "cpu MHz" (0 when unknown)
  bool scaling = false;           ///< a frequency governor other than "performance"
  static const CPUInfo& Get();
};

struct SystemInfo {
  std::string name;  ///< the host name
  static const SystemInfo& Get();
};

// ---- Running -------------------------------------------------------------

/// Reads Google Benchmark's flags (translated to cmh's; see the README) and every
/// other argument, which goes to cmh's command line. Leaves only argv[0].
void Initialize(int* argc, char** argv, void (*HelperPrinterf)() = nullptr);
/// Prints an error and returns true when arguments are left after Initialize.
bool ReportUnrecognizedArguments(int argc, char** argv);
/// Runs the selected benchmarks under cmh. A run that fails (exit status 1, 2
/// or 128+N) exits the process with that status; otherwise returns the number
/// of benchmark instances selected.
std::size_t RunSpecifiedBenchmarks();
std::size_t RunSpecifiedBenchmarks(std::string spec);
void Shutdown();
void SetDefaultTimeUnit(TimeUnit unit);
TimeUnit GetDefaultTimeUnit();
/// A key-value pair for the JSON files' context (and the report's header), as
/// --benchmark_context=key=value; a key given twice keeps its first value.
void AddCustomContext(const std::string& key, const std::string& value);

}  // namespace benchmark

// ---- Registration macros -------------------------------------------------

#define BENCHMARK_PRIVATE_CONCAT2(a, b, c) a##b##c
#define BENCHMARK_PRIVATE_CONCAT(a, b, c) BENCHMARK_PRIVATE_CONCAT2(a, b, c)
#define BENCHMARK_PRIVATE_NAME(...) \
  BENCHMARK_PRIVATE_CONCAT(benchmark_uniq_, __COUNTER__, __VA_ARGS__)
#define BENCHMARK_PRIVATE_DECLARE(n) \
  [[maybe_unused]] static ::benchmark::internal::Benchmark* BENCHMARK_PRIVATE_NAME(n)

#define BENCHMARK(...)                                                             \
  BENCHMARK_PRIVATE_DECLARE(_benchmark_) = ::benchmark::internal::RegisterBenchmarkInternal( \
      new ::benchmark::internal::FunctionBenchmark(#__VA_ARGS__, __VA_ARGS__))

#define BENCHMARK_WITH_ARG(n, a) BENCHMARK(n)->Arg((a))
#define BENCHMARK_WITH_ARG2(n, a1, a2) BENCHMARK(n)->Args({(a1), (a2)})
#define BENCHMARK_WITH_UNIT(n, t) BENCHMARK(n)->Unit((t))
#define BENCHMARK_RANGE(n, lo, hi) BENCHMARK(n)->Range((lo), (hi))
#define BENCHMARK_RANGE2(n, l1, h1, l2, h2) BENCHMARK(n)->RangePair({{(l1), (h1)}, {(l2), (h2)}})

#define BENCHMARK_CAPTURE(func, test_case_name, ...)                                      \
  BENCHMARK_PRIVATE_DECLARE(_benchmark_) = ::benchmark::RegisterBenchmark(                \
      #func "/" #test_case_name, [](::benchmark::State& st) { func(st, __VA_ARGS__); })

#define BENCHMARK_TEMPLATE1(n, a)                                                 \
  BENCHMARK_PRIVATE_DECLARE(n) = ::benchmark::internal::RegisterBenchmarkInternal( \
      new ::benchmark::internal::FunctionBenchmark(#n "<" #a ">", n<a>))
#define BENCHMARK_TEMPLATE2(n, a, b)                                              \
  BENCHMARK_PRIVATE_DECLARE(n) = ::benchmark::internal::RegisterBenchmarkInternal( \
      new ::benchmark::internal::FunctionBenchmark(#n "<" #a "," #b ">", n<a, b>))
#define BENCHMARK_TEMPLATE(n, ...)                                                \
  BENCHMARK_PRIVATE_DECLARE(n) = ::benchmark::internal::RegisterBenchmarkInternal( \
      new ::benchmark::internal::FunctionBenchmark(#n "<" #__VA_ARGS__ ">", n<__VA_ARGS__>))

#define BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method) BaseClass##_##Method##_Benchmark

// The base class comes last: it may hold commas (BaseClass<int, double>).
#define BENCHMARK_PRIVATE_DECLARE_F_NAMED(BaseClass, Method, NameStr, ...) \
  class BaseClass##_##Method##_Benchmark : public __VA_ARGS__ {             \
   public:                                                                  \
    BaseClass##_##Method##_Benchmark() { this->SetName(NameStr); }          \
                                                                            \
   protected:                                                               \
    void BenchmarkCase(::benchmark::State&) override;                      \
  };

#define BENCHMARK_PRIVATE_DECLARE_F(BaseClass, Method) \
  BENCHMARK_PRIVATE_DECLARE_F_NAMED(BaseClass, Method, #BaseClass "/" #Method, BaseClass)
#define BENCHMARK_TEMPLATE1_PRIVATE_DECLARE_F(BaseClass, Method, a) \
  BENCHMARK_PRIVATE_DECLARE_F_NAMED(BaseClass, Method, #BaseClass "<" #a ">/" #Method, BaseClass<a>)
#define BENCHMARK_TEMPLATE2_PRIVATE_DECLARE_F(BaseClass, Method, a, b)                              \
  BENCHMARK_PRIVATE_DECLARE_F_NAMED(BaseClass, Method, #BaseClass "<" #a "," #b ">/" #Method, \
                                    BaseClass<a, b>)
#define BENCHMARK_TEMPLATE_PRIVATE_DECLARE_F(BaseClass, Method, ...)                           \
  BENCHMARK_PRIVATE_DECLARE_F_NAMED(BaseClass, Method, #BaseClass "<" #__VA_ARGS__ ">/" #Method, \
                                    BaseClass<__VA_ARGS__>)

#define BENCHMARK_DEFINE_F(BaseClass, Method) \
  BENCHMARK_PRIVATE_DECLARE_F(BaseClass, Method) void BaseClass##_##Method##_Benchmark::BenchmarkCase
#define BENCHMARK_TEMPLATE1_DEFINE_F(BaseClass, Method, a)  \
  BENCHMARK_TEMPLATE1_PRIVATE_DECLARE_F(BaseClass, Method, a) \
  void BaseClass##_##Method##_Benchmark::BenchmarkCase
#define BENCHMARK_TEMPLATE2_DEFINE_F(BaseClass, Method, a, b)  \
  BENCHMARK_TEMPLATE2_PRIVATE_DECLARE_F(BaseClass, Method, a, b) \
  void BaseClass##_##Method##_Benchmark::BenchmarkCase
#define BENCHMARK_TEMPLATE_DEFINE_F(BaseClass, Method, ...)            \
  BENCHMARK_TEMPLATE_PRIVATE_DECLARE_F(BaseClass, Method, __VA_ARGS__) \
  void BaseClass##_##Method##_Benchmark::BenchmarkCase

#define BENCHMARK_REGISTER_F(BaseClass, Method) \
  BENCHMARK_PRIVATE_REGISTER_F(BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method))
#define BENCHMARK_PRIVATE_REGISTER_F(TestName) \
  BENCHMARK_PRIVATE_DECLARE(TestName) = ::benchmark::internal::RegisterBenchmarkInternal(new TestName())

#define BENCHMARK_F(BaseClass, Method)           \
  BENCHMARK_PRIVATE_DECLARE_F(BaseClass, Method) \
  BENCHMARK_REGISTER_F(BaseClass, Method);       \
  void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE1_F(BaseClass, Method, a)           \
  BENCHMARK_TEMPLATE1_PRIVATE_DECLARE_F(BaseClass, Method, a) \
  BENCHMARK_REGISTER_F(BaseClass, Method);                    \
  void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE2_F(BaseClass, Method, a, b)           \
  BENCHMARK_TEMPLATE2_PRIVATE_DECLARE_F(BaseClass, Method, a, b) \
  BENCHMARK_REGISTER_F(BaseClass, Method);                       \
  void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE_F(BaseClass, Method, ...)                   \
  BENCHMARK_TEMPLATE_PRIVATE_DECLARE_F(BaseClass, Method, __VA_ARGS__) \
  BENCHMARK_REGISTER_F(BaseClass, Method);                             \
  void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase

// Ends with the function body, so that both BENCHMARK_MAIN(); and the older
// BENCHMARK_MAIN() (no semicolon) compile.
#define BENCHMARK_MAIN()                                                \
  int main(int argc, char** argv) {                                     \
    ::benchmark::Initialize(&argc, argv);                               \
    if (::benchmark::ReportUnrecognizedArguments(argc, argv)) return 1; \
    ::benchmark::RunSpecifiedBenchmarks();                              \
    ::benchmark::Shutdown();                                            \
    return 0;                                                           \
  }
