// SPDX-License-Identifier: MIT
// JMH's bulk warmup (-wm BULK / BULK_INDI, -wmb): which benchmarks warm up first in
// each fork, in which order, and what the measured runs keep of their own warmup.
#pragma once

#include <cmh/registry.hpp>

#include <vector>

#include "cli/command_line.hpp"
#include "host/planner.hpp"

namespace cmh::host {

/// Sets every run's bulk_warmups and, under -wm BULK, drops its own warmup iterations.
/// The list is JMH's (Runner.getActionPlans): the benchmarks -wmb selects (excludes do
/// not apply), then, under BULK and BULK_INDI, every selected run, each once, in
/// planning order (sorted by name, then mode, then parameters); each keeps its own
/// warmup settings and is not measured. Throws cli::CommandLineError for a bad -wmb regex.
void plan_bulk_warmups(const cli::CommandLine& cl, const std::vector<BenchmarkDefinition>& registry, int cpu_count,
                       std::vector<PlannedRun>& runs);

/// "Group.name (param = v, ...) [mode]": how the report names a bulk warmup.
std::string bulk_warmup_label(const BenchmarkParams& plan);

}  // namespace cmh::host
