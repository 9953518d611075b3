// SPDX-License-Identifier: MIT
// What a Google Benchmark family records (the chained options of BENCHMARK(...)->...)
// and the instances it expands into: one per argument tuple x thread count, named
// as Google Benchmark names them, each of which becomes one cmh benchmark.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace benchmark::internal {

class Family {
 public:
  std::string name;
  std::vector<std::vector<std::int64_t>> args;  ///< one tuple per instance
  std::vector<std::string> arg_names;
  int range_multiplier = 8;
  std::optional<TimeUnit> unit;
  std::optional<double> min_time;         ///< seconds
  std::optional<double> min_warmup_time;  ///< seconds
  IterationCount iterations = 0;          ///< 0: time-based
  int repetitions = 0;                    ///< 0: not set
  bool measure_process_cpu_time = false;
  bool use_real_time = false;
  bool use_manual_time = false;
  BigO complexity = oNone;
  std::vector<int> thread_counts;  ///< empty: one thread, and no "/threads:" in the name
  void (*setup)(const State&) = nullptr;
  void (*teardown)(const State&) = nullptr;
  std::vector<std::string> statistics;  ///< ComputeStatistics names (not computed by cmh)
  /// ReportAggregatesOnly / DisplayAggregatesOnly, as Google Benchmark keeps them: once
  /// either is called the family's choice replaces the --benchmark_*_aggregates_only flags.
  bool aggregates_mode_set = false;
  bool file_aggregates_only = false;     ///< --benchmark_out's JSON
  bool display_aggregates_only = false;  ///< the JSON --benchmark_format=json prints
};

/// One runnable instance: a cmh benchmark.
struct Instance {
  std::string name;  ///< "BM_x/8/threads:2"
  Benchmark* benchmark = nullptr;
  const Family* family = nullptr;
  std::vector<std::int64_t> args;
  std::vector<std::string> param_names;  ///< cmh parameter per argument: the ArgName, else arg<i>
  int threads = 1;
};

/// Every family registered so far, in registration order.
std::vector<Benchmark*>& families();
/// Expands the families into instances (once; later calls return the same list).
const std::vector<Instance>& instances();
/// The expanded values of Range(lo, hi) with multiplier `mult`, as Google Benchmark
/// documents them: lo, the powers of mult strictly between, hi.
std::vector<std::int64_t> range_values(std::int64_t lo, std::int64_t hi, int mult);

}  // namespace benchmark::internal
