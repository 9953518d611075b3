// SPDX-License-Identifier: MIT
// The host's view of the results protocol, as a pure state machine: fed the fork's
// decoded messages in order, it knows the fork's phase, whether the next message is
// legal, and what the fork reported. No clock, no process, no I/O: ForkSession
// (fork_runner.cpp) does those and asks this tracker what each message means.
//
// A fork's messages, in order (docs/forks.md):
//   handshake, then per iteration started + finished (or failed), possibly some
//   benchmark errors, then finish; an out-of-memory report may come at any time,
//   even after finish (a static destructor allocates). Iterations of -wm BULK /
//   -wmb bulk warmups come first and name their bulk warmup.
#pragma once

#include <cmh/params.hpp>
#include <cmh/result.hpp>

#include <optional>
#include <string>
#include <vector>

#include "fork/classify.hpp"
#include "wire/messages.hpp"

namespace cmh::forking {

enum class ForkPhase {
  awaiting_handshake,  ///< spawned: the first message must be the handshake
  set_up,              ///< handshake seen, no iteration yet (the trial's set-up fixtures run)
  in_iteration,        ///< an iteration started and has not ended
  between_iterations,  ///< an iteration ended and more of the plan's are due
  tear_down,           ///< the plan's last iteration ended (the trial's tear-down fixtures run)
  finished,            ///< the finish message arrived: only an out-of-memory report may follow
};

/// "awaiting the handshake", "set-up", ... for diagnostics and tests.
const char* phase_name(ForkPhase phase);

/// What a legal message did, beyond the tracker's own state, for the host to act on.
struct ProtocolStep {
  /// The messages now belong to another bulk warmup (or back to the plan's own trial).
  bool bulk_changed = false;
  /// An iteration started, and it is the fork's first.
  bool first_iteration = false;
  /// An iteration result of the plan's own trial (kept); false for a bulk warmup's (shown only).
  bool kept = false;
  /// An iteration failed: the failure as the host reports it.
  std::optional<Failure> iteration_failure;
  /// The host must stop the fork for this (a bulk warmup failed under -foe true).
  std::optional<Failure> stop;
};

class ProtocolTracker {
 public:
  /// `bulk_warmups` (may be null) and `plan` must outlive the tracker.
  ProtocolTracker(const BenchmarkParams& plan, const std::vector<BenchmarkParams>* bulk_warmups,
                  bool fail_on_error);

  /// Takes the fork's next message. Throws ProtocolError (what(): the failure's detail)
  /// when it is not legal in the current phase; the state is then unspecified and the
  /// fork is to be stopped.
  ProtocolStep accept(const Message& message);

  ForkPhase phase() const { return phase_; }
  bool handshake_seen() const { return phase_ != ForkPhase::awaiting_handshake; }
  bool finished() const { return phase_ == ForkPhase::finished; }
  /// The iteration running (phase in_iteration), else null.
  const IterationStarted* open_iteration() const { return open_ ? &*open_ : nullptr; }
  /// The bulk warmup the last messages belonged to, -1: the plan's own trial.
  int bulk() const { return current_bulk_; }
  int bulk_count() const { return bulk_warmups_ ? static_cast<int>(bulk_warmups_->size()) : 0; }
  /// The plan's own iterations that ended with a result.
  int iterations_done() const { return iterations_done_; }

  /// The plan iterations belong to: the fork's own, or bulk warmup `bulk`.
  const BenchmarkParams& plan_of(int bulk) const;
  const IterationParams& params_of(IterationKind kind, int bulk = -1) const;

  /// Where a fork that makes no progress is stuck, between handshake and finish:
  /// "in trial set-up, before the first iteration", ...
  std::string idle_phase_text() const;

  /// The handshake (its allocator state), once seen.
  const std::optional<Handshake>& handshake() const { return handshake_; }
  /// The first failure the fork reported for its own trial (not a bulk warmup's).
  const std::optional<Failure>& worker_failure() const { return worker_failure_; }
  /// The allocator's first out-of-memory report.
  const std::optional<OutOfMemory>& allocator_oom() const { return allocator_oom_; }

  /// Copies what the fork said into `seen` (finished, its failure, the OOM report).
  void report_to(ForkObservations& seen) const;

 private:
  ProtocolStep on(const Handshake& m);
  ProtocolStep on(const PlanMessage& m);
  ProtocolStep on(const IterationStarted& m);
  ProtocolStep on(const IterationFinished& m);
  ProtocolStep on(const IterationFailed& m);
  ProtocolStep on(const BenchmarkError& m);
  ProtocolStep on(const Finish& m);
  ProtocolStep on(const OutOfMemory& m);
  ProtocolStep on(const Pinned& m);
  /// Checks a message's bulk index; true when it differs from the last one.
  bool enter_bulk(int bulk);
  /// The phase after an iteration ended.
  ForkPhase after_iteration() const;

  const BenchmarkParams& plan_;
  const std::vector<BenchmarkParams>* bulk_warmups_;
  bool fail_on_error_;

  ForkPhase phase_ = ForkPhase::awaiting_handshake;
  std::optional<Handshake> handshake_;
  std::optional<IterationStarted> open_;
  bool iterations_seen_ = false;
  int iterations_done_ = 0;
  int current_bulk_ = -1;
  std::optional<Failure> worker_failure_;
  std::optional<OutOfMemory> allocator_oom_;
};

}  // namespace cmh::forking
