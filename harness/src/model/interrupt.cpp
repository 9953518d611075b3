// SPDX-License-Identifier: MIT
// The host's interrupt state (see interrupt.hpp).
#include "model/interrupt.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>

namespace cmh::interrupt {

namespace {

struct State {
  std::atomic<int> first_signal{0};
  std::atomic<int> count{0};
  std::atomic<pid_t> fork_group{0};
  std::atomic<bool> in_process{false};
};
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<pid_t>::is_always_lock_free &&
                  std::atomic<bool>::is_always_lock_free,
              "on_signal() must be async-signal-safe");

State g_state;

}  // namespace

void on_signal(int sig) noexcept {
  const int n = g_state.count.fetch_add(1) + 1;
  int first = 0;
  g_state.first_signal.compare_exchange_strong(first, sig);
  first = g_state.first_signal.load();
  const pid_t group = g_state.fork_group.load();
  if (n == 1) {
    if (group > 0) ::kill(-group, SIGTERM);
  } else if (n == 2 && !g_state.in_process.load()) {
    if (group > 0) ::kill(-group, SIGKILL);
  } else {
    ::_exit(128 + first);
  }
}

int signal() noexcept { return g_state.first_signal.load(); }
int count() noexcept { return g_state.count.load(); }
void set_fork_group(pid_t group) noexcept { g_state.fork_group.store(group); }
void set_in_process(bool in_process) noexcept { g_state.in_process.store(in_process); }

}  // namespace cmh::interrupt
