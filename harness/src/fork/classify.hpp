// SPDX-License-Identifier: MIT
// classify(): why a fork failed, from what was observed of it, as a pure
// function. It implements the fault table of docs/forks.md ("Failures are
// reported, contained, and never lose results"); ForkSession (fork_runner.cpp) only does
// the process and I/O work and fills in a ForkObservations. Everything here is
// typed (frames, wait status, counters); the output tails are read only for a
// sanitizer's report, which is text by nature.
#pragma once

#include <cmh/result.hpp>

#include <optional>
#include <string>
#include <vector>

namespace cmh::forking {

struct ForkObservations {
  // What the fork said on the results channel.
  bool finished = false;                    ///< the finish frame arrived
  bool channel_truncated = false;           ///< the channel ended inside a frame
  std::optional<Failure> worker_failure;    ///< the first failure the worker reported
  std::optional<std::string> allocator_oom;  ///< the allocator's OOM report line (typed frame), if any
  bool allocator_heap_limit = false;         ///< ... and it was -Xmx that refused (else the OS)

  // What the host did.
  std::optional<Failure> host_failure;  ///< why the host stopped it: watchdog, protocol error, interrupt
  std::string kill_note;                ///< set when SIGKILL followed SIGTERM after the grace period

  // How it ended.
  int wait_status = 0;  ///< waitpid()'s status
  std::optional<long> oom_kills_before, oom_kills_after;  ///< the kernel's oom_kill counter around the fork
  std::vector<std::string> stdout_tail, stderr_tail;
};

/// The failure to report, or nullopt for a fork that did everything right.
std::optional<Failure> classify(const ForkObservations& seen);

/// "out of memory: std::bad_alloc" (...) for a failure of kind out_of_memory
/// whose message does not say so yet; idempotent.
void describe_out_of_memory(Failure& f);

/// The first line of a sanitizer's report in the tails ("AddressSanitizer: SEGV on
/// unknown address ...", "runtime error: ..."), or nullopt.
std::optional<std::string> sanitizer_report(const ForkObservations& seen);

}  // namespace cmh::forking
