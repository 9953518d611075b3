// SPDX-License-Identifier: MIT
// The -l and -lp listings, as JMH prints them: "Benchmarks: " and one full name a
// line, and for -lp each parameter as `  param "x" = {a, b}` with -p values
// applied. They return the text; the host prints it.
#pragma once

#include <cmh/registry.hpp>

#include <string>
#include <vector>

#include "cli/command_line.hpp"

namespace cmh::host {

/// -l: the benchmarks the regexes select. Throws cli::CommandLineError for a bad regex.
std::string list_benchmarks(const cli::CommandLine& cl, const std::vector<BenchmarkDefinition>& registry);

/// -lp: as -l, with every parameter's values (-p wins over the declared defaults).
std::string list_benchmarks_with_params(const cli::CommandLine& cl,
                                        const std::vector<BenchmarkDefinition>& registry);

}  // namespace cmh::host
