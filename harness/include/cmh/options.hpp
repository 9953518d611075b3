// SPDX-License-Identifier: MIT
// Benchmark options: the C++ counterparts of JMH's annotations.
//
// An OptionSet holds every setting as "not set" (an empty optional) or a value.
// Settings resolve as in JMH: command line > benchmark-level > group-level >
// built-in defaults. `OptionSet::overlay` applies a higher-priority set on top.
// The small value types at the bottom (cmh::warmup{5, 1s}, cmh::mode::average_time,
// ...) are what users write inside CMH_OPTIONS(...) and CMH_BENCHMARK_OPTIONS(...).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cmh {

using Nanos = std::chrono::nanoseconds;

/// JMH's benchmark modes. `all` is not a mode of its own: it expands to the four.
enum class BenchmarkMode { throughput, average_time, sample_time, single_shot };

/// Output time units, as JMH's TimeUnit subset it prints (ns, us, ms, s, min, hr, day).
enum class TimeUnit { ns, us, ms, s, min, hr, day };

/// Nanoseconds in one unit.
constexpr double nanos_per(TimeUnit u) {
  switch (u) {
    case TimeUnit::ns: return 1.0;
    case TimeUnit::us: return 1e3;
    case TimeUnit::ms: return 1e6;
    case TimeUnit::s: return 1e9;
    case TimeUnit::min: return 60e9;
    case TimeUnit::hr: return 3600e9;
    case TimeUnit::day: return 86400e9;
  }
  return 1.0;
}

/// "ns", "us", "ms", "s", "min", "hr", "day".
std::string_view unit_label(TimeUnit u);
/// "thrpt", "avgt", "sample", "ss".
std::string_view mode_short_label(BenchmarkMode m);
/// "Throughput, ops/time", "Average time, time/op", "Sampling time", "Single shot invocation time".
std::string_view mode_long_label(BenchmarkMode m);

/// Thread-count sentinels, as JMH's Threads.MAX and Threads.HALF_MAX.
inline constexpr int kThreadsMax = -1;
inline constexpr int kThreadsHalfMax = -2;

struct IterationOptions {
  std::optional<int> iterations;
  std::optional<Nanos> time;
  std::optional<int> batch_size;
};

struct ForkOptions {
  std::optional<int> count;    ///< 0 = run in the host process
  std::optional<int> warmups;  ///< forks whose results are discarded
  /// Replaces the inherited fork arguments when set (JMH's jvmArgs).
  std::optional<std::vector<std::string>> args;
  std::vector<std::string> args_prepend;
  std::vector<std::string> args_append;
};

/// Every setting a benchmark can carry. Empty = not set at this level.
struct OptionSet {
  std::vector<BenchmarkMode> modes;
  std::optional<TimeUnit> output_unit;
  IterationOptions warmup;
  IterationOptions measurement;
  ForkOptions fork;
  std::optional<int> threads;                    ///< may be kThreadsMax / kThreadsHalfMax
  std::optional<std::vector<int>> thread_groups; ///< threads per group member (@GroupThreads / -tg)
  std::optional<int> ops_per_invocation;
  std::optional<Nanos> timeout;                  ///< per iteration
  std::optional<bool> sync_iterations;
  std::optional<bool> gc_between_iterations;
  /// Parameter values by name (from -p); replaces the declared defaults.
  std::map<std::string, std::vector<std::string>> params;

  /// Applies every setting that `higher` has set on top of this one.
  /// Fork prepend/append lists are concatenated (this first, then `higher`).
  void overlay(const OptionSet& higher);
};

// ---- Values users write in CMH_OPTIONS / CMH_BENCHMARK_OPTIONS ----

/// Warmup iterations: count, minimum time each, calls per op (batch size).
struct warmup {
  int iterations;
  Nanos time = std::chrono::seconds(1);
  int batch_size = 1;
  void apply(OptionSet& o) const {
    o.warmup.iterations = iterations;
    o.warmup.time = time;
    o.warmup.batch_size = batch_size;
  }
};

/// Measurement iterations: count, minimum time each, calls per op (batch size).
struct measurement {
  int iterations;
  Nanos time = std::chrono::seconds(1);
  int batch_size = 1;
  void apply(OptionSet& o) const {
    o.measurement.iterations = iterations;
    o.measurement.time = time;
    o.measurement.batch_size = batch_size;
  }
};

/// Forks: count, and fork arguments that *replace* the inherited ones.
struct fork {
  int count;
  std::vector<std::string> args = {};
  int warmups = 0;
  void apply(OptionSet& o) const {
    o.fork.count = count;
    o.fork.warmups = warmups;
    if (!args.empty()) o.fork.args = args;
  }
};
struct fork_warmups {
  int count;
  void apply(OptionSet& o) const { o.fork.warmups = count; }
};
struct fork_args_prepend {
  std::vector<std::string> args;
  void apply(OptionSet& o) const {
    o.fork.args_prepend.insert(o.fork.args_prepend.end(), args.begin(), args.end());
  }
};
struct fork_args_append {
  std::vector<std::string> args;
  void apply(OptionSet& o) const {
    o.fork.args_append.insert(o.fork.args_append.end(), args.begin(), args.end());
  }
};

/// Output time unit, given as a duration of one unit: cmh::output_unit{1ms}.
struct output_unit {
  TimeUnit unit;
  output_unit(TimeUnit u) : unit(u) {}  // NOLINT(google-explicit-constructor)
  template <class Rep, class Period>
  output_unit(std::chrono::duration<Rep, Period> d)  // NOLINT(google-explicit-constructor)
      : unit(from_nanos(std::chrono::duration_cast<Nanos>(d).count())) {}
  void apply(OptionSet& o) const { o.output_unit = unit; }

 private:
  static TimeUnit from_nanos(long long n) {
    if (n <= 1) return TimeUnit::ns;
    if (n <= 1'000) return TimeUnit::us;
    if (n <= 1'000'000) return TimeUnit::ms;
    if (n <= 1'000'000'000) return TimeUnit::s;
    if (n <= 60'000'000'000) return TimeUnit::min;
    if (n <= 3'600'000'000'000) return TimeUnit::hr;
    return TimeUnit::day;
  }
};

/// Worker threads; cmh::threads::max / cmh::threads::half_max as in JMH.
struct threads {
  int count;
  static constexpr int max = kThreadsMax;
  static constexpr int half_max = kThreadsHalfMax;
  void apply(OptionSet& o) const { o.threads = count; }
};

/// Operations counted per call of the benchmark body (@OperationsPerInvocation).
struct ops_per_invocation {
  int count;
  void apply(OptionSet& o) const { o.ops_per_invocation = count; }
};

/// Per-iteration timeout (@Timeout).
struct timeout {
  Nanos time;
  void apply(OptionSet& o) const { o.timeout = time; }
};

/// Synchronised iterations (-si); on by default.
struct sync_iterations {
  bool on;
  void apply(OptionSet& o) const { o.sync_iterations = on; }
};

/// Benchmark mode values: cmh::mode::throughput, ..., cmh::mode::all.
struct mode_option {
  std::vector<BenchmarkMode> modes;
  void apply(OptionSet& o) const {
    for (auto m : modes) {
      bool present = false;
      for (auto have : o.modes) present = present || have == m;
      if (!present) o.modes.push_back(m);
    }
  }
};
namespace mode {
inline const mode_option throughput{{BenchmarkMode::throughput}};
inline const mode_option average_time{{BenchmarkMode::average_time}};
inline const mode_option sample_time{{BenchmarkMode::sample_time}};
inline const mode_option single_shot{{BenchmarkMode::single_shot}};
inline const mode_option all{{BenchmarkMode::throughput, BenchmarkMode::average_time,
                              BenchmarkMode::sample_time, BenchmarkMode::single_shot}};
}  // namespace mode

/// Applies a pack of option values to an OptionSet.
template <class... Opts>
OptionSet make_options(const Opts&... opts) {
  OptionSet o;
  (opts.apply(o), ...);
  return o;
}

}  // namespace cmh
