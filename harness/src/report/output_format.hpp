// SPDX-License-Identifier: MIT
// The live, human-readable output of a run (JMH's OutputFormat): the host calls
// these as the run proceeds; TextReport prints JMH's text. Machine-readable
// result files are a separate concern (harness/src/formats).
#pragma once

#include <cmh/params.hpp>
#include <cmh/result.hpp>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace cmh::report {

enum class Verbosity { silent, normal, extra };

class OutputFormat {
 public:
  virtual ~OutputFormat() = default;
  /// The per-benchmark header block (# cmh version ... # Parameters: ...).
  virtual void benchmark_header(const BenchmarkParams& bp, const std::vector<std::string>& warnings) = 0;
  /// "# Run progress: 37.50% complete, ETA 00:01:12".
  virtual void run_progress(double fraction_done, std::chrono::seconds eta) = 0;
  /// "# Fork: 1 of 3", "# Warmup Fork: 1 of 1", or the in-process notice (total == 0).
  virtual void fork_start(int index, int total, bool warmup_fork) = 0;
  /// "# Warmup Iteration   1: " / "Iteration   1: " (no newline yet).
  virtual void iteration_start(const BenchmarkParams& bp, const IterationParams& ip, int index) = 0;
  /// Completes the iteration line; secondaries under measurement iterations.
  virtual void iteration_result(const BenchmarkParams& bp, const IterationResult& r) = 0;
  /// "<failure>" and the reason, on the iteration line.
  virtual void iteration_failure(const BenchmarkParams& bp, const Failure& f) = 0;
  /// A fork that failed: "<forked process failed: ...>" and the output tails.
  virtual void fork_failure(const BenchmarkParams& bp, const Failure& f) = 0;
  /// A line the fork wrote to its stdout or stderr, echoed.
  virtual void fork_output(bool is_stderr, std::string_view line) = 0;
  /// The Result "..." block after the last fork of a benchmark.
  virtual void benchmark_end(const BenchmarkRunResult& result) = 0;
  /// "# Run complete. Total time: ...", the reminder, the summary table.
  virtual void run_end(const RunResults& results, std::chrono::seconds total_time) = 0;
  /// Free text (warnings, notices), one line.
  virtual void println(std::string_view line) = 0;
  virtual void verbose_println(std::string_view line) = 0;
};

}  // namespace cmh::report
