// SPDX-License-Identifier: MIT
// Observer -> report adapters of the host (see trial_observers.hpp).
#include "host/trial_observers.hpp"

#include "host/bulk_warmup.hpp"
#include "model/allocator_state.hpp"

namespace cmh::host {

void ForkReportObserver::iteration_started(const IterationParams& ip, int index) {
  output_.iteration_start(*shown_, ip, index);
}

void ForkReportObserver::iteration_finished(const IterationResult& result) { output_.iteration_result(*shown_, result); }

void ForkReportObserver::iteration_failed(const IterationParams&, int, const Failure& failure) {
  if (shown_ == &bp_) failure_shown_ = true;
  output_.iteration_failure(*shown_, failure);
}

void ForkReportObserver::bulk_warmup(const BenchmarkParams* plan, int index, int count) {
  shown_ = plan != nullptr ? plan : &bp_;
  output_.println(bulk_warmup_line(plan, index, count, bp_));
}

void BulkWarmupObserver::iteration_started(const IterationParams& ip, int index) {
  output_.iteration_start(plan_, ip, index);
}

void BulkWarmupObserver::iteration_finished(const IterationResult& result) { output_.iteration_result(plan_, result); }

void BulkWarmupObserver::iteration_failed(const IterationParams&, int, const Failure& failure) {
  output_.iteration_failure(plan_, failure);
}

std::string bulk_warmup_line(const BenchmarkParams* plan, int index, int count, const BenchmarkParams& own) {
  if (plan == nullptr) return "# Bulk warmup done; " + bulk_warmup_label(own) + " itself:";
  return "# Bulk warmup " + std::to_string(index + 1) + " of " + std::to_string(count) + ": " + bulk_warmup_label(*plan);
}

void ForkReportObserver::fork_output(bool is_stderr, std::string_view line) { output_.fork_output(is_stderr, line); }

void ForkReportObserver::verbose(std::string_view line) { output_.verbose_println(line); }

// The fork's own view, which its fork arguments can make differ from the host's.
void ForkReportObserver::fork_allocator(const AllocatorState& state) {
  output_.println("# Fork NUMA: " + model::numa_summary(state));
  output_.println("# Fork allocator options: " + state.options);
}

void InProcessObserver::iteration_started(const IterationParams& ip, int index) {
  if (on_boundary_) on_boundary_();
  output_.iteration_start(bp_, ip, index);
}

void InProcessObserver::iteration_finished(const IterationResult& result) {
  auto& list = result.kind == IterationKind::warmup ? collected_.warmup : collected_.measurement;
  list.push_back(result);
  output_.iteration_result(bp_, result);
  if (on_boundary_) on_boundary_();
}

void InProcessObserver::iteration_failed(const IterationParams&, int, const Failure& failure) {
  failure_shown_ = true;
  output_.iteration_failure(bp_, failure);
}

}  // namespace cmh::host
