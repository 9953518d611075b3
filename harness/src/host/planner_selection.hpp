// SPDX-License-Identifier: MIT
// Which benchmarks a command line selects: JMH's include regexes (matched
// anywhere in "Group.name", ECMAScript syntax) and -e excludes, which win. Used by
// the planner and by the -l/-lp listings; explain_selection is the -v EXTRA
// account of why each benchmark was or was not selected.
#pragma once

#include <cmh/registry.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "cli/command_line.hpp"

namespace cmh::host {

/// JMH's two lines for a selection that matched nothing (the host prints them, exit 1).
inline constexpr std::string_view kNoMatchingBenchmarks =
    "No matching benchmarks. Miss-spelled regexp?\nUse EXTRA verbose mode to debug the pattern matching.";

/// The selected benchmarks, sorted by full name. Throws cli::CommandLineError for an
/// invalid regex (include or exclude), naming it.
std::vector<const BenchmarkDefinition*> select_benchmarks(const cli::CommandLine& cl,
                                                          const std::vector<BenchmarkDefinition>& registry);

/// One line per registered benchmark (sorted): which pattern included or excluded it.
/// Throws like select_benchmarks.
std::vector<std::string> explain_selection(const cli::CommandLine& cl,
                                           const std::vector<BenchmarkDefinition>& registry);

}  // namespace cmh::host
