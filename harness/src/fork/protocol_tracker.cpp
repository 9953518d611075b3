// SPDX-License-Identifier: MIT
// The protocol's phases and the legality of each message in them (see
// protocol_tracker.hpp). The ProtocolError texts are the failure messages users
// see after "the fork corrupted the results channel: ".
#include "fork/protocol_tracker.hpp"

#include <utility>
#include <variant>

namespace cmh::forking {

const char* phase_name(ForkPhase phase) {
  switch (phase) {
    case ForkPhase::awaiting_handshake: return "awaiting the handshake";
    case ForkPhase::set_up: return "set-up";
    case ForkPhase::in_iteration: return "in an iteration";
    case ForkPhase::between_iterations: return "between iterations";
    case ForkPhase::tear_down: return "tear-down";
    case ForkPhase::finished: return "finished";
  }
  return "?";
}

ProtocolTracker::ProtocolTracker(const BenchmarkParams& plan, const std::vector<BenchmarkParams>* bulk_warmups,
                                 bool fail_on_error)
    : plan_(plan), bulk_warmups_(bulk_warmups), fail_on_error_(fail_on_error) {}

ProtocolStep ProtocolTracker::accept(const Message& message) {
  // The allocator may run out of memory in a static destructor, after "finish".
  if (phase_ == ForkPhase::finished && !std::holds_alternative<OutOfMemory>(message))
    throw ProtocolError("a frame after the finish frame");
  if (phase_ == ForkPhase::awaiting_handshake && !std::holds_alternative<Handshake>(message))
    throw ProtocolError("the first frame is not a handshake");
  return std::visit([this](const auto& m) { return on(m); }, message);
}

const BenchmarkParams& ProtocolTracker::plan_of(int bulk) const {
  return bulk >= 0 ? (*bulk_warmups_)[static_cast<std::size_t>(bulk)] : plan_;
}

const IterationParams& ProtocolTracker::params_of(IterationKind kind, int bulk) const {
  const BenchmarkParams& plan = plan_of(bulk);
  return kind == IterationKind::warmup ? plan.warmup : plan.measurement;
}

std::string ProtocolTracker::idle_phase_text() const {
  switch (phase_) {
    case ForkPhase::between_iterations: return "between iterations";
    case ForkPhase::tear_down: return "in trial tear-down, after the last iteration";
    default: return "in trial set-up, before the first iteration";
  }
}

void ProtocolTracker::report_to(ForkObservations& seen) const {
  seen.finished = finished();
  seen.worker_failure = worker_failure_;
  if (allocator_oom_) {
    seen.allocator_oom = allocator_oom_->line;
    seen.allocator_heap_limit = allocator_oom_->heap_limit;
  }
}

bool ProtocolTracker::enter_bulk(int bulk) {
  if (bulk < -1 || bulk >= bulk_count())
    throw ProtocolError("an iteration of bulk warmup " + std::to_string(bulk) + ", of " + std::to_string(bulk_count()));
  if (bulk == current_bulk_) return false;
  current_bulk_ = bulk;
  return true;
}

ForkPhase ProtocolTracker::after_iteration() const {
  // An iteration can fail without having started (a bulk warmup whose benchmark the
  // fork lacks): the fork is then still where it was.
  if (!iterations_seen_) return ForkPhase::set_up;
  const int total = plan_.warmup.count + plan_.measurement.count;
  return iterations_done_ >= total ? ForkPhase::tear_down : ForkPhase::between_iterations;
}

ProtocolStep ProtocolTracker::on(const Handshake& m) {
  if (handshake_) throw ProtocolError("a second handshake");
  if (m.version != kProtocolVersion)
    throw ProtocolError("the fork speaks protocol version " + std::to_string(m.version) + ", the host " +
                        std::to_string(kProtocolVersion));
  handshake_ = m;
  phase_ = ForkPhase::set_up;
  return {};
}

ProtocolStep ProtocolTracker::on(const PlanMessage&) { throw ProtocolError("a plan frame from the fork"); }

ProtocolStep ProtocolTracker::on(const IterationStarted& m) {
  if (open_) throw ProtocolError("an iteration started while another was running");
  ProtocolStep step;
  step.bulk_changed = enter_bulk(m.bulk);
  step.first_iteration = !iterations_seen_;
  iterations_seen_ = true;
  open_ = m;
  phase_ = ForkPhase::in_iteration;
  return step;
}

ProtocolStep ProtocolTracker::on(const IterationFinished& m) {
  if (!open_ || open_->kind != m.result.kind || open_->index != m.result.index)
    throw ProtocolError("an iteration result that does not match the iteration that started");
  ProtocolStep step;
  step.kept = open_->bulk < 0;  // another benchmark's warmup: shown, never kept
  open_.reset();
  if (step.kept) ++iterations_done_;
  phase_ = after_iteration();
  return step;
}

ProtocolStep ProtocolTracker::on(const IterationFailed& m) {
  open_.reset();
  ProtocolStep step;
  step.bulk_changed = enter_bulk(m.bulk);
  phase_ = after_iteration();
  Failure failure = m.failure;
  // Said as what it is on the iteration line already; the allocator's line is added at the end.
  if (failure.kind == FailureKind::out_of_memory) describe_out_of_memory(failure);
  if (m.bulk >= 0) {
    // JMH goes on with the next action; with -foe the fork (and so the run) stops here.
    if (fail_on_error_) {
      Failure why = failure;
      why.message = "the bulk warmup of " + plan_of(m.bulk).benchmark + " failed (-foe true): " + failure.message;
      step.stop = std::move(why);
    }
  } else if (!worker_failure_) {
    worker_failure_ = failure;
  }
  step.iteration_failure = std::move(failure);
  return step;
}

ProtocolStep ProtocolTracker::on(const BenchmarkError& m) {
  if (!worker_failure_) worker_failure_ = m.failure;
  return {};
}

ProtocolStep ProtocolTracker::on(const Finish&) {
  open_.reset();
  phase_ = ForkPhase::finished;
  return {};
}

ProtocolStep ProtocolTracker::on(const OutOfMemory& m) {
  if (!allocator_oom_) allocator_oom_ = m;
  return {};
}

// -pin: the worker reports where its threads run once they are pinned, in set-up or (for
// a benchmark whose threads start late) later; legal anywhere between handshake and finish.
ProtocolStep ProtocolTracker::on(const Pinned&) { return {}; }

}  // namespace cmh::forking
