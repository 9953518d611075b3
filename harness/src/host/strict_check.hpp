// SPDX-License-Identifier: MIT
// -strict: a run whose precision will be stated refuses to start on a machine that
// is not fit for it (governor, turbo, load, unpinned workers), one line per reason;
// without -strict the same reasons are warnings in the report header, each once.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "model/run_context.hpp"
#include "report/environment.hpp"

namespace cmh::host {

/// Every reason, machine's first, in the words of the header's warnings.
std::vector<std::string> strict_reasons(const report::EnvironmentFacts& facts, const cli::CommandLine& cl);

/// With -strict and reasons: prints "-strict: <reason>" per reason on stderr and
/// returns the exit status 1. Otherwise nullopt.
std::optional<int> refuse_if_strict(const cli::CommandLine& cl);

/// Without -strict: adds the reasons the environment warnings lack (unpinned
/// workers) to the context's warnings.
void add_strict_warnings(const cli::CommandLine& cl, model::RunContext& context);

}  // namespace cmh::host
