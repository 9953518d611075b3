// SPDX-License-Identifier: MIT
// Google Benchmark's --benchmark_* flags, translated to cmh's command line.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace benchmark::internal {

struct FlagError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Translation {
  std::vector<std::string> cmh_args;  ///< everything after argv[0], for cmh's parser
  /// "--benchmark_filter=BM_x  ->  BM_x", one per gbench flag, for -v EXTRA.
  std::vector<std::string> notes;
  bool list_tests = false;
  std::optional<std::string> filter;  ///< the regexp --benchmark_filter gave, for --benchmark_list_tests
  bool negative_filter = false;
  /// --benchmark_format=json|csv: the result file cmh writes, printed to stdout after the run.
  std::optional<std::string> stdout_format;
  bool verbose_extra = false;  ///< -v EXTRA among the cmh arguments
};

/// Throws FlagError naming the flag: unknown --benchmark_* flags, flags with no
/// cmh equivalent, bad values, conflicting flags.
Translation translate_flags(const std::vector<std::string>& args);

}  // namespace benchmark::internal
