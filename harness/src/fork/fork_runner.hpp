// SPDX-License-Identifier: MIT
// Forked execution, host side and worker side.
//
// Host: run_fork() fork+execs this executable with the hidden worker option,
// sends the plan over a dedicated channel (never the fork's stdout), relays
// iteration results to the observer as they arrive, captures and echoes the
// fork's stdout/stderr, enforces the timeout watchdog, and turns every way a
// fork can die into a Failure. Worker: maybe_run_worker() is called first
// thing in main(); in a fork it runs the trial and returns the exit status.
#pragma once

#include <cmh/params.hpp>
#include <cmh/profiler.hpp>
#include <cmh/result.hpp>

#include <optional>
#include <string>
#include <vector>

#include "engine/trial.hpp"

namespace cmh::forking {

class ForkObserver : public engine::TrialObserver {
 public:
  /// A line the fork wrote to stdout (is_stderr = false) or stderr.
  virtual void fork_output(bool is_stderr, std::string_view line) = 0;
  /// -v EXTRA: the fork's command line, and other verbose notes.
  virtual void verbose(std::string_view line) = 0;
  /// The fork's allocator decisions, from its handshake (before its first iteration).
  virtual void fork_allocator(const AllocatorState&) {}
  /// The iterations that follow are the warmup of bulk warmup `index` (0-based) of
  /// `count` (-wm BULK, -wmb), whose plan is `plan`; plan == nullptr: the fork's own
  /// benchmark again. Their results are shown, never kept.
  virtual void bulk_warmup(const BenchmarkParams* /*plan*/, int /*index*/, int /*count*/) {}
};

struct ForkRequest {
  const BenchmarkParams* plan = nullptr;
  int index = 1;               ///< 1-based among forks of its kind
  bool warmup_fork = false;
  std::string executable;      ///< path of this executable (/proc/self/exe)
  std::vector<ExternalProfiler*> external_profilers;
  std::size_t tail_lines = 20;
  /// -v EXTRA: echo the fork's output even when an external profiler consumes it.
  bool echo_all_output = false;
  /// -wm BULK / -wmb: plans the fork warms up first (measurement count 0); null: none.
  const std::vector<BenchmarkParams>* bulk_warmups = nullptr;
  /// -foe true: a failed bulk warmup fails the fork (else it is shown and the fork goes on, as in JMH).
  bool fail_on_error = false;
  /// -forkStartTimeout; nullopt: the automatic bound (fork/start_bound.hpp).
  std::optional<Nanos> start_timeout;
  /// The host's own start-up (exec to main), which the automatic bound scales with.
  Nanos host_startup{0};
};

/// The worker's exit status when its results channel fails under it (the benchmark
/// closed or replaced fd 3): rare enough that the host can tell it from exit(3).
inline constexpr int kChannelLostExitCode = 121;

/// How long a fork that has sent "finish" may take to exit before the host stops it:
/// 3 s, or ten times the fork's start-up (spawn to handshake) where that is longer, so
/// that a slow machine (an emulated guest starts a fork in seconds) is not taken for a
/// fork with stray threads.
Nanos shutdown_grace(Nanos startup);

/// Runs one fork to completion (or failure). Never throws for anything the fork does.
ForkResult run_fork(const ForkRequest& request, ForkObserver& observer);

/// If argv carries the hidden worker option, runs this process as a fork worker and
/// returns its exit status; otherwise returns nullopt and main() goes on as the host.
std::optional<int> maybe_run_worker(int argc, char** argv);

/// Validates fork arguments (allocator flags, numactl bindings, -DNAME=value) before any
/// fork starts. Returns an error message for the first bad one, or nullopt.
std::optional<std::string> validate_fork_args(const std::vector<std::string>& args);

}  // namespace cmh::forking
