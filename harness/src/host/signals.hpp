// SPDX-License-Identifier: MIT
// The host's signal handlers: SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGUSR1 are
// interrupts (model/interrupt.hpp says what the first, second and third one do).
// Every other signal keeps its default; SIGPIPE is ignored (process_setup.hpp).
#pragma once

namespace cmh::host {

void install_signal_handlers();
/// The first interrupting signal received, or 0.
int interrupting_signal();

}  // namespace cmh::host
