// SPDX-License-Identifier: MIT
// TextReport: the console report, JMH's text adapted to C++. The header of each
// benchmark with the environment warnings, run progress, fork lines, iteration
// lines with their secondaries, the Result blocks, and at the end the reminder and
// the summary table. Writes to a std::FILE* or a std::ostream.
#pragma once

#include "model/run_context.hpp"
#include "report/output_format.hpp"

#include <cstdio>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace cmh::report {

class TextReport final : public OutputFormat {
 public:
  /// Writes to `out`; fork stderr lines go to `err` (defaults to `out`).
  TextReport(std::FILE* out, model::RunContext context, Verbosity verbosity = Verbosity::normal,
             std::FILE* err = nullptr);
  TextReport(std::ostream& out, model::RunContext context, Verbosity verbosity = Verbosity::normal);

  void benchmark_header(const BenchmarkParams& bp, const std::vector<std::string>& warnings) override;
  void run_progress(double fraction_done, std::chrono::seconds eta) override;
  void fork_start(int index, int total, bool warmup_fork) override;
  void iteration_start(const BenchmarkParams& bp, const IterationParams& ip, int index) override;
  void iteration_result(const BenchmarkParams& bp, const IterationResult& r) override;
  void iteration_failure(const BenchmarkParams& bp, const Failure& f) override;
  void fork_failure(const BenchmarkParams& bp, const Failure& f) override;
  void fork_output(bool is_stderr, std::string_view line) override;
  void benchmark_end(const BenchmarkRunResult& result) override;
  void run_end(const RunResults& results, std::chrono::seconds total_time) override;
  void println(std::string_view line) override;
  void verbose_println(std::string_view line) override;

 private:
  using Sink = std::function<void(std::string_view)>;

  void write(std::string_view text);
  /// Ends a line left open by iteration_start (something else must be printed).
  void break_open_line();
  /// Makes sure the output ends in at least `count` blank lines (none at the very start).
  void blank_lines(int count);

  Sink out_;
  Sink err_;
  std::function<void()> flush_;
  model::RunContext context_;
  Verbosity verbosity_;
  int trailing_newlines_ = -1;  // -1: nothing written yet
  std::string open_prefix_;     // "Iteration   3: " while that line waits for its result
  bool line_open_ = false;
  bool line_broken_ = false;    // other output interrupted the open iteration line
  bool after_progress_ = false;
};

/// The header block of one benchmark (every line ends in '\n', no trailing blank line).
std::string header_text(const BenchmarkParams& bp, const model::RunContext& context,
                        const std::vector<std::string>& warnings);

/// The closing reminder printed before the summary table.
std::string_view closing_reminder();

}  // namespace cmh::report
