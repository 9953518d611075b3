// SPDX-License-Identifier: MIT
// The run loop of the host: for every planned benchmark, its header, its warmup
// forks and forks (or the in-process trial of -f 0) with the run progress
// before each, its Result block, and its result files rewritten; then the
// summary. It decides the exit status: 0, 2 when a benchmark failed (or a result
// file could not be written), 128+N when signal N interrupted the run.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "formats/result_format.hpp"
#include "host/planner.hpp"
#include "model/run_context.hpp"
#include "report/output_format.hpp"

namespace cmh::host {

struct RunSetup {
  const cli::CommandLine* command_line = nullptr;
  std::vector<PlannedRun> plans;
  report::OutputFormat* output = nullptr;
  std::vector<std::unique_ptr<formats::ResultWriter>> writers;
  model::RunContext context;
  std::string executable;  ///< what forks exec (this executable)
  Nanos host_startup{0};   ///< this process's own start-up, exec to main (forking::process_age())
};

/// Runs everything; returns the exit status.
int run_benchmarks(RunSetup& setup);

}  // namespace cmh::host
