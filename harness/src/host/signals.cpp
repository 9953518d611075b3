// SPDX-License-Identifier: MIT
// Signal handlers of the host (see signals.hpp). The handler only hands the
// signal to cmh::interrupt, which is async-signal-safe.
#include "host/signals.hpp"

#include <signal.h>

#include <initializer_list>

#include "model/interrupt.hpp"

namespace cmh::host {

namespace {

void on_signal(int sig) { interrupt::on_signal(sig); }

}  // namespace

void install_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: poll() in the fork loop wakes up with EINTR
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1}) ::sigaction(sig, &sa, nullptr);
}

int interrupting_signal() { return interrupt::signal(); }

}  // namespace cmh::host
