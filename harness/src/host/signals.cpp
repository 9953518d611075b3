// SPDX-License-Identifier: MIT
// Signal handlers of the host (see signals.hpp). Only async-signal-safe calls
// in the handler: an atomic store, kill() through stop_current_fork, _exit.
#include "host/signals.hpp"

#include <signal.h>
#include <unistd.h>

#include <csignal>

#include "fork/fork_runner.hpp"

namespace cmh::host {

namespace {

volatile std::sig_atomic_t g_signal = 0;

void on_signal(int sig) {
  if (g_signal != 0) ::_exit(128 + g_signal);  // asked twice: stop now
  g_signal = sig;
  forking::stop_current_fork();
}

}  // namespace

void install_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: poll() in the fork loop wakes up with EINTR
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &sa, nullptr);
}

int interrupting_signal() { return g_signal; }

}  // namespace cmh::host
