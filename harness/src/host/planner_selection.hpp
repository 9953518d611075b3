// SPDX-License-Identifier: MIT
// Which benchmarks a command line selects: JMH's include regexes (matched
// anywhere in "Group.name", PCRE2's Perl syntax, the closest to Java's) and -e
// excludes, which win. Used by the planner and by the -l/-lp listings.
#pragma once

#include <cmh/registry.hpp>

#include <vector>

#include "cli/command_line.hpp"

namespace cmh::host {

/// The selected benchmarks, sorted by full name. Throws cli::CommandLineError for an
/// invalid regex (include or exclude), one longer than 1000 characters, or one that
/// exceeds PCRE2's match limits on a name, naming it.
std::vector<const BenchmarkDefinition*> select_benchmarks(const cli::CommandLine& cl,
                                                          const std::vector<BenchmarkDefinition>& registry);

}  // namespace cmh::host
