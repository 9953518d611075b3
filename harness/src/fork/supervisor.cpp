// SPDX-License-Identifier: MIT
// Reaping and stopping a fork's process (see supervisor.hpp).
#include "fork/supervisor.hpp"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <utility>

#include "fork/adopted.hpp"
#include "model/interrupt.hpp"

namespace cmh::forking {

ForkSupervisor::~ForkSupervisor() {
  if (child_.pid > 0 && !reaped_) {
    ::kill(-child_.pid, SIGKILL);
    int status = 0;
    while (::waitpid(child_.pid, &status, 0) < 0 && errno == EINTR) {
    }
    kill_adopted_children();
  }
  release();
}

void ForkSupervisor::adopt(ChildProcess child) {
  child_ = child;
  interrupt::set_fork_group(child_.pid);
}

void ForkSupervisor::try_reap() {
  if (reaped_ || child_.pid <= 0) return;
  int status = 0;
  const pid_t r = ::waitpid(child_.pid, &status, WNOHANG);
  if (r != child_.pid) return;
  reaped_ = true;
  status_ = status;
  reaped_time_ = Clock::now();
  // Anything the fork left behind in its group goes with it, and so does
  // anything it orphaned outside its group (re-parented to the subreaper host).
  ::kill(-child_.pid, SIGKILL);
  kill_adopted_children();
}

void ForkSupervisor::terminate() {
  if (term_sent_ || reaped_) return;
  ::kill(-child_.pid, SIGTERM);
  term_sent_ = true;
  term_time_ = Clock::now();
}

void ForkSupervisor::kill_now() {
  if (kill_sent_ || reaped_) return;
  ::kill(-child_.pid, SIGKILL);
  kill_sent_ = true;
}

void ForkSupervisor::escalate(Clock::time_point now) {
  if (!term_sent_ || kill_sent_ || reaped_ || now < term_time_ + kTerminateGrace) return;
  // A stopped process cannot act on SIGTERM: say which it was.
  kill_note_ = process_state(child_.pid) == 'T' ? " (it was stopped, SIGSTOP, and was killed with SIGKILL)"
                                                : " (it ignored SIGTERM and was killed with SIGKILL)";
  ::kill(-child_.pid, SIGKILL);
  kill_sent_ = true;
}

ForkSupervisor::Clock::time_point ForkSupervisor::next_deadline() const {
  auto next = Clock::time_point::max();
  if (term_sent_ && !kill_sent_) next = std::min(next, term_time_ + kTerminateGrace);
  if (reaped_) next = std::min(next, reaped_time_ + kDrainGrace);
  return next;
}

void ForkSupervisor::release() {
  close_child_fds(child_);
  interrupt::set_fork_group(0);
}

}  // namespace cmh::forking
