// SPDX-License-Identifier: MIT
// Which benchmarks a command line selects: JMH's include regexes (matched
// anywhere in "Group.name", ECMAScript syntax) and -e excludes, which win. Used by
// the planner and by the -l/-lp listings.
#pragma once

#include <cmh/registry.hpp>

#include <vector>

#include "cli/command_line.hpp"

namespace cmh::host {

/// The selected benchmarks, sorted by full name. Throws cli::CommandLineError for an
/// invalid regex (include or exclude), naming it.
std::vector<const BenchmarkDefinition*> select_benchmarks(const cli::CommandLine& cl,
                                                          const std::vector<BenchmarkDefinition>& registry);

}  // namespace cmh::host
