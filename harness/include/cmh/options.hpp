// SPDX-License-Identifier: MIT
// Benchmark options: the C++ counterparts of JMH's annotations.
//
// An OptionSet holds every setting as "not set" (an empty optional) or a value.
// Settings resolve as in JMH: command line > benchmark-level > group-level >
// built-in defaults. `OptionSet::overlay` applies a higher-priority set on top.
// The value types users write inside CMH_OPTIONS(...) and CMH_BENCHMARK_OPTIONS(...)
// (cmh::warmup{5, 1s}, cmh::mode::average_time, ...) are in <cmh/option_values.hpp>.
#pragma once

#include <cmh/option_values.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cmh {

using Nanos = std::chrono::nanoseconds;

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
  std::optional<Nanos> subwindow;                ///< -subwin: sub-window target length
  /// Parameter values by name (from -p); replaces the declared defaults.
  std::map<std::string, std::vector<std::string>> params;

  /// Applies every setting that `higher` has set on top of this one.
  /// Fork prepend/append lists are concatenated (this first, then `higher`).
  void overlay(const OptionSet& higher);
};

/// Applies a pack of option values to an OptionSet.
template <class... Opts>
OptionSet make_options(const Opts&... opts) {
  OptionSet o;
  (opts.apply(o), ...);
  return o;
}

}  // namespace cmh
