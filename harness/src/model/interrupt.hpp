// SPDX-License-Identifier: MIT
// The host's interrupt: the one piece of state a signal handler shares with the
// run (replacing a signal global in host/ and a stop flag and a fork-group global
// in fork/). The handler (host/signals.cpp) calls on_signal(); the fork runner
// registers the fork it runs and polls signal(); the run loop polls signal().
//
//  1st signal: remembered; the running fork's process group gets SIGTERM; the run
//              ends with what completed, files marked incomplete, status 128+N.
//  2nd signal: the fork's group gets SIGKILL at once, so the files are still
//              written within moments; in-process (-f 0) the host exits at once.
//  3rd signal: the host exits at once (_exit(128+N)), whatever it was doing.
//
// Lock-free atomics only: everything here is async-signal-safe.
#pragma once

#include <sys/types.h>

namespace cmh::interrupt {

/// From the signal handler only.
void on_signal(int sig) noexcept;

/// The first interrupting signal, or 0.
int signal() noexcept;
/// How many interrupting signals arrived.
int count() noexcept;

/// The process group of the fork now running (0: none), which an interrupt stops.
void set_fork_group(pid_t group) noexcept;
/// True while a benchmark runs in the host process (-f 0): nothing to kill there.
void set_in_process(bool in_process) noexcept;

}  // namespace cmh::interrupt
