// SPDX-License-Identifier: MIT
// What the tools (cmh-compare, cmh-history) read out of a result file, whatever its
// format: one record per benchmark x mode x parameter point, each with its primary
// metric and secondaries, and for every metric the raw values the statistics run on.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cmh::results {

/// Bad input: the message is the one line the tool prints before its bad-input exit.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Summary statistics when a file holds no raw values (Google Benchmark's
/// --benchmark_report_aggregates_only): enough for Welch's t, not for the U test.
struct Summary {
  double mean = 0;
  double stddev = 0;
  int n = 0;
};

struct Metric {
  std::string label;   ///< as written in the file (display)
  std::string key;     ///< the matching key: spelling variants folded (see metric_key)
  std::string unit;
  double score = 0;
  double error = 0;    ///< the file's own error (JMH: 99.9 % half-width); NaN when absent
  /// Raw values: one inner vector per fork (JMH rawData), or one value per repetition
  /// in a single "fork" for Google Benchmark files.
  std::vector<std::vector<double>> raw;
  /// Google Benchmark repetitions are independent processes or runs: treat each as a fork.
  bool raw_are_forks = false;
  std::optional<Summary> summary;  ///< when raw is empty
  bool higher_is_better = false;
  bool exact = false;  ///< a count (B/op, allocs/op): any change is a change, no test
  std::string model;   ///< counted metrics: the counting model from cmh's notes ("" if unknown)
};

/// The prefix of the cmh.environment keys in Record::environment.
inline constexpr const char* kMachinePrefix = "machine.";

struct Record {
  std::string name;                             ///< benchmark name without params/mode
  std::string mode;                             ///< thrpt/avgt/sample/ss, or "time" (Google Benchmark)
  std::map<std::string, std::string> params;
  int threads = 1;
  Metric primary;
  std::vector<Metric> secondaries;
  /// cmh's robust estimate (cmh.robustEstimate), compared instead of the score with
  /// --metric robust; its raw values are the per-iteration values it is made of.
  std::optional<Metric> robust;
  bool failed = false;
  /// What the record ran on, in one vocabulary whatever the format (see environment.cpp):
  /// compiler, compilerFlags, buildType, cpuModel, cpuCount, kernel, numaMode,
  /// allocatorOptions, governor, host, runtime, runtimeArgs, toolVersion; absent when unknown.
  /// cmh.environment, the machine's state (cmh's files only), under "machine.": machine.governor,
  /// machine.boost, machine.smt, machine.thp, machine.numaBalancing, machine.tuned, ... (see
  /// kMachinePrefix), values as cmh wrote them, "unknown" included.
  std::map<std::string, std::string> environment;
  /// cmh's disturbance flags, [fork][iteration] in the primary's raw order; empty when
  /// the file carries none (JMH, Google Benchmark).
  std::vector<std::vector<bool>> disturbed;
};

struct ResultFile {
  std::string path;
  std::string format;  ///< "cmh json", "jmh json", "gbench json (cmh)", "gbench json"
  std::vector<Record> records;
  std::vector<std::string> warnings;  ///< environment warnings carried by the file
  std::string date;                   ///< when the run was made, if the file says (Google Benchmark)
};

/// Reads and validates one result file; throws InputError naming the file and the problem.
ResultFile read_result_file(const std::string& path);
/// The same from text already in memory (tests); `path` only names it in messages.
ResultFile parse_result_text(const std::string& text, const std::string& path);
/// Several files as one (the shards of a suite, or repeated runs): a benchmark point in
/// more than one file pools their forks; its score becomes the mean of all values.
ResultFile merge_result_files(const std::vector<ResultFile>& files);

/// Folds the spellings of one metric across formats and versions: JMH <= 1.36's
/// U+00B7 ("·gc.alloc.rate.norm", "method·p0.99"), JMH's gc.alloc.* vs cmh's
/// alloc.*, and Google Benchmark's allocs_per_iter.
std::string metric_key(const std::string& label);
/// True for metrics that are exact counts per op (bytes, allocations).
bool is_exact_metric(const std::string& key, const std::string& unit);
/// True when a bigger value is better (throughput, rates of work done, IPC).
bool is_higher_better(const std::string& key, const std::string& unit, bool primary);
/// True for the per-op counts of -prof icount (icount.*.norm): deterministic, compared by
/// their difference rather than a significance test.
bool is_icount_metric(const std::string& key);

}  // namespace cmh::results
