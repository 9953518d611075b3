// SPDX-License-Identifier: MIT
// One more fork of a benchmark, for a built-in profiler that measures it a second way
// (-prof icount runs each fork again under Callgrind): started like any other fork (this
// executable, the same fork arguments, the same watchdog), behind the profiler's command
// prefix, printing nothing. Not for benchmark code: declared here so that the profilers
// need no private harness header (harness/src/fork/ implements it on the host side).
#pragma once

#include <cmh/params.hpp>
#include <cmh/profiler.hpp>
#include <cmh/result.hpp>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace cmh::forking {

/// `name` looked up in $PATH (returned as is if it contains a '/'); empty if not found.
std::string find_in_path(const std::string& name);

/// What a plan's fork arguments put in its fork's environment.
struct ForkEnvironment {
  /// -DNAME=value, then CMH_ALLOC (the allocator flags) and LD_PRELOAD (the allocator's
  /// library, nothing inherited) where the arguments set them, the later winning.
  std::map<std::string, std::string> variables;
  /// The fork runs the bundled allocator (no -XX:Allocator=, or -XX:Allocator=cmh).
  bool bundled_allocator = true;
};

/// The environment `fork_args` (validated before the run) give a fork.
ForkEnvironment fork_environment(const std::vector<std::string>& fork_args);

/// Runs fork `fork_index` (1-based) of `plan` to completion, or failure, with `wrapper` as
/// its only external profiler (its command_prefix() wraps the fork; its after_trial() sees
/// the fork's output), printing nothing; the last `tail_lines` lines of output go into a
/// failure's message. Never throws for anything the fork does.
ForkResult run_extra_fork(const BenchmarkParams& plan, int fork_index, ExternalProfiler& wrapper,
                          std::size_t tail_lines);

}  // namespace cmh::forking
