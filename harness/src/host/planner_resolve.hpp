// SPDX-License-Identifier: MIT
// The parts of planning that the listings and the tests need on their own:
// plan_runs with a given CPU count, JMH's thread-count rule (max = every CPU,
// halfmax = (cpus+1)/2, rounded up to a multiple of the group), option layering
// and a benchmark's parameters in planning order.
#pragma once

#include <vector>

#include "host/planner.hpp"

namespace cmh::host {

/// plan_runs() as if the machine had `cpu_count` CPUs (plan_runs passes the real count).
std::vector<PlannedRun> plan_runs(const cli::CommandLine& cl, const std::vector<BenchmarkDefinition>& registry,
                                  int cpu_count);

/// The selected benchmarks expanded by mode and parameter point, every option
/// resolved, without plan_runs' checks of the command line as a whole.
std::vector<PlannedRun> expand_runs(const cli::CommandLine& cl, const std::vector<const BenchmarkDefinition*>& selected,
                                    int cpu_count);

/// `requested` (a count, kThreadsMax or kThreadsHalfMax) as a thread count, rounded
/// up to a multiple of `group_size` (the sum of a group's threads; 1 otherwise).
int resolve_thread_count(int requested, int cpu_count, int group_size);

/// The options of `def` with every level laid over the one below:
/// group < benchmark < command line.
OptionSet effective_options(const BenchmarkDefinition& def, const cli::CommandLine& cl);

/// The benchmark's parameters sorted by name; when two states declare the same
/// name, the first declaration wins.
std::vector<const ParamDecl*> declared_params(const BenchmarkDefinition& def);

/// CPUs this process may run on (its affinity mask), at least 1: what JMH's
/// Threads.MAX means.
int available_cpu_count();

}  // namespace cmh::host
