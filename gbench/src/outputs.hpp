// SPDX-License-Identifier: MIT
// Google Benchmark's two reporters on cmh's result files: the display one
// (--benchmark_format: cmh's report on stdout, or JSON/CSV printed on stdout after
// the run, the report then on stderr) and the file one (--benchmark_out in
// --benchmark_out_format), together or apart, as Google Benchmark allows. cmh
// writes one set of result files (the --benchmark_out file itself where it can,
// so that it is rewritten after every benchmark); after the run the display copy
// is printed and the JSON rows of each repetition are left out where aggregates
// only are asked for.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "flags.hpp"

namespace benchmark::internal {

/// For a JSON row's run_name: whether its repetitions are left out of that output
/// (where the row has aggregates), for the display (true) or the file (false).
using AggregatesOnly = std::function<bool(const std::string& run_name, bool display)>;

class Outputs {
 public:
  /// Throws FlagError when no temporary directory can be made.
  explicit Outputs(const Translation& t);
  ~Outputs();
  Outputs(const Outputs&) = delete;
  Outputs& operator=(const Outputs&) = delete;

  /// -rf and -rff for cmh's command line (empty: no result file).
  const std::vector<std::string>& cmh_args() const { return args_; }
  /// The display is JSON or CSV on stdout: cmh's report must go to stderr.
  bool display_on_stdout() const { return !display_path_.empty(); }
  /// After the run: the --benchmark_out file in its final form, then the display
  /// copy on stdout. Problems are one line each on stderr; returns false then.
  bool finish(const AggregatesOnly& aggregates_only);

 private:
  std::string temp_dir_;
  std::string display_path_;  ///< cmh's file the display prints; empty: none
  std::string display_format_;
  std::string out_path_;      ///< --benchmark_out; empty: none
  std::string out_format_;
  std::string out_source_;    ///< cmh's file the --benchmark_out file is made from
  std::vector<std::string> args_;
};

}  // namespace benchmark::internal
