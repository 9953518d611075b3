// SPDX-License-Identifier: MIT
// The host's SIGINT/SIGTERM/SIGHUP handling. The first signal stops the fork
// that is running (forking::stop_current_fork) and is remembered, so the run
// loop ends the run with what has completed, marked incomplete, and exits with
// 128+signal. A second signal exits at once with that status.
#pragma once

namespace cmh::host {

void install_signal_handlers();
/// The first signal received, or 0.
int interrupting_signal();

}  // namespace cmh::host
