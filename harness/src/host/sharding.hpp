// SPDX-License-Identifier: MIT
// -shard I/N (or CMH_SHARD_INDEX / CMH_TOTAL_SHARDS, as GoogleTest's sharding
// variables): which planned runs this process runs when a suite is spread over
// machines by a CI matrix, a Slurm array or indexed jobs. Deterministic and balanced
// by each run's expected time: the same plan gives the same parts on every machine.
#pragma once

#include <cmh/params.hpp>

#include <optional>
#include <vector>

#include "cli/command_line.hpp"
#include "host/planner.hpp"

namespace cmh::host {

/// -shard when given, else the environment (both variables or neither); nullopt: no sharding.
/// Throws cli::CommandLineError for a bad value or only one of the two variables.
std::optional<cli::Shard> requested_shard(const cli::CommandLine& cl);

/// What a run is expected to take: its forks (with warmup forks) times their warmup and
/// measurement iterations, plus a fixed cost per fork for starting it; single-shot and
/// -prec runs count their budget per iteration or fork.
Nanos expected_time(const BenchmarkParams& params);

/// The runs of part `shard.index`, in plan order. Longest expected time first, each
/// run goes to the part with the least expected time so far (the lowest index on a
/// tie): the parts are disjoint, their union is `runs`, and none exceeds another by
/// more than the longest run.
std::vector<PlannedRun> shard_runs(const std::vector<PlannedRun>& runs, cli::Shard shard);

/// Every run's part, in plan order (for the report line and the tests).
std::vector<int> shard_assignment(const std::vector<Nanos>& expected, int total);

}  // namespace cmh::host
