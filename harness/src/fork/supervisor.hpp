// SPDX-License-Identifier: MIT
// The fork as a process, on the host: it is reaped once, stopped with SIGTERM to its
// process group and, if it is still there kTerminateGrace later, SIGKILL; whatever it
// leaves behind (in its group, or orphaned to this subreaper host) is killed with it.
// It never outlives the host's ForkSession, even when that unwinds on an exception.
// Why the host stops a fork is the session's business (fork_runner.cpp); this class
// only knows how.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>

#include "fork/spawner.hpp"

namespace cmh::forking {

class ForkSupervisor {
 public:
  using Clock = std::chrono::steady_clock;
  /// SIGTERM -> SIGKILL.
  static constexpr std::chrono::seconds kTerminateGrace{2};
  /// Reaped, but something it started still holds its pipes: how long the host listens on.
  static constexpr std::chrono::seconds kDrainGrace{1};

  ForkSupervisor() = default;
  ForkSupervisor(const ForkSupervisor&) = delete;
  ForkSupervisor& operator=(const ForkSupervisor&) = delete;
  /// A child still running here (the session threw) is killed and reaped; descriptors closed.
  ~ForkSupervisor();

  /// Takes charge of a spawned child; the user's Ctrl-C now reaches its group too.
  void adopt(ChildProcess child);
  /// The child's pid and host-side descriptors (the session reads and closes these).
  ChildProcess& child() { return child_; }
  pid_t pid() const { return child_.pid; }

  /// Reaps the child if it exited (never blocks); the group and its orphans are killed then.
  void try_reap();
  bool reaped() const { return reaped_; }
  /// waitpid()'s status, once reaped.
  int wait_status() const { return status_; }
  /// Reaped more than kDrainGrace ago: stop waiting for its pipes to close.
  bool drain_expired(Clock::time_point now) const { return reaped_ && now > reaped_time_ + kDrainGrace; }

  /// SIGTERM to its process group, once; nothing once reaped.
  void terminate();
  bool terminate_sent() const { return term_sent_; }
  /// SIGKILL to its group now (the user asked twice: the signal handler did so already).
  void kill_now();
  /// SIGKILL once kTerminateGrace has passed since terminate() and it is still there.
  void escalate(Clock::time_point now);
  /// Why SIGKILL followed SIGTERM, for the failure message; empty if it did not.
  const std::string& kill_note() const { return kill_note_; }

  /// The earliest moment escalate() or drain_expired() may change, or Clock::time_point::max().
  Clock::time_point next_deadline() const;

  /// The run is over: closes the host-side descriptors and stops forwarding Ctrl-C.
  void release();

 private:
  ChildProcess child_;
  bool reaped_ = false;
  int status_ = 0;
  bool term_sent_ = false;
  bool kill_sent_ = false;
  std::string kill_note_;
  Clock::time_point term_time_, reaped_time_;
};

}  // namespace cmh::forking
