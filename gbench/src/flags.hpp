// SPDX-License-Identifier: MIT
// Google Benchmark's command line (1.7-1.9), read as Google Benchmark reads it
// and translated to cmh's: every --benchmark_* flag and --v, spelled with one
// dash or two, from the command line or from its BENCHMARK_* environment
// variable (the command line wins), a repeated flag keeping its last value.
// docs/google-benchmark.md has the table of what each flag becomes.
#pragma once

#include <benchmark/benchmark.h>

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace benchmark::internal {

struct FlagError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The flags Google Benchmark applies only to families that do not set the same thing
/// themselves (MinTime, MinWarmUpTime, Iterations, Repetitions, Unit): defaults of the
/// registered benchmarks, below cmh's own command line (-r, -f, -tu ... still win).
struct FamilyDefaults {
  std::optional<double> min_time;           ///< seconds (--benchmark_min_time=0.5s)
  std::optional<long long> iterations;      ///< a fixed count (--benchmark_min_time=100x)
  std::optional<double> min_warmup_time;    ///< seconds; 0: no warmup
  std::optional<int> repetitions;           ///< forks
  std::optional<TimeUnit> unit;             ///< --benchmark_time_unit
};

struct Translation {
  std::vector<std::string> cmh_args;  ///< everything after argv[0], for cmh's parser
  /// "--benchmark_filter=BM_x  ->  BM_x", one per gbench flag, for -v EXTRA.
  std::vector<std::string> notes;
  /// Flags accepted and ignored: one line each saying why, always shown (on stderr).
  std::vector<std::string> ignored;
  bool list_tests = false;
  std::optional<std::string> filter;  ///< the regexp --benchmark_filter gave, for --benchmark_list_tests
  bool negative_filter = false;
  /// --benchmark_format=json|csv: the cmh format ("gbench", "csv") printed on stdout
  /// after the run, the report going to stderr; nullopt: cmh's report on stdout.
  std::optional<std::string> display_format;
  /// --benchmark_out=F: the file and the cmh format (-rf) of --benchmark_out_format.
  std::optional<std::string> out_file;
  std::string out_format = "gbench";
  bool report_aggregates_only = false;   ///< --benchmark_report_aggregates_only
  bool display_aggregates_only = false;  ///< --benchmark_display_aggregates_only
  std::vector<std::pair<std::string, std::string>> context;  ///< --benchmark_context, in order
  FamilyDefaults defaults;
  bool verbose_extra = false;  ///< -v EXTRA (or --v >= 1)
  bool help = false;           ///< --help among the arguments
};

/// Looks up an environment variable; nullptr when unset.
using EnvLookup = std::function<const char*(const char* name)>;

/// Throws FlagError with one line naming the flag: an unknown --benchmark_* flag, a
/// missing or malformed value. `env` defaults to the process environment.
Translation translate_flags(const std::vector<std::string>& args, const EnvLookup& env = {});

}  // namespace benchmark::internal
