// SPDX-License-Identifier: MIT
// Planning: select benchmarks by the include/exclude regexes, expand each by mode
// and by the outer product of its parameters, and resolve every option
// (command line > benchmark > group > defaults) into one BenchmarkParams each.
#pragma once

#include <cmh/params.hpp>
#include <cmh/registry.hpp>

#include <memory>
#include <vector>

#include "cli/command_line.hpp"

namespace cmh::host {

struct PlannedRun {
  const BenchmarkDefinition* definition = nullptr;
  BenchmarkParams params;
  /// -wm BULK / BULK_INDI, -wmb: the plans whose warmup iterations run first in each
  /// fork (measurement count 0), in JMH's order; shared by every run; null when none.
  std::shared_ptr<const std::vector<BenchmarkParams>> bulk_warmups{};
};

/// Throws cli::CommandLineError for a bad regex, an unknown -p parameter, a parameter
/// with no values, or a thread-group list that does not fit the benchmark.
/// Returns an empty vector when nothing matches (the caller prints JMH's message).
std::vector<PlannedRun> plan_runs(const cli::CommandLine& cl,
                                  const std::vector<BenchmarkDefinition>& registry);

/// The defaults written in -h and the README: 3 forks, 3 x 1 s warmup, 5 x 1 s
/// measurement, 1 thread, 10 min timeout, ops/s (throughput) or ns/op (time modes).
BenchmarkParams default_params(BenchmarkMode mode);

}  // namespace cmh::host
