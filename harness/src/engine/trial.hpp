// SPDX-License-Identifier: MIT
// The worker side's one entry point: run every warmup and measurement iteration
// of one trial (one fork's worth) of one benchmark, in this process.
//
// The host calls it directly for -f 0; the fork worker calls it after receiving
// its plan over the channel. It never prints: everything goes to the observer.
#pragma once

#include <cmh/params.hpp>
#include <cmh/profiler.hpp>
#include <cmh/registry.hpp>
#include <cmh/result.hpp>

#include <optional>
#include <span>

namespace cmh::engine {

class TrialObserver {
 public:
  virtual ~TrialObserver() = default;
  /// Just before iteration `index` (1-based) of kind ip.kind starts.
  virtual void iteration_started(const IterationParams& ip, int index) = 0;
  /// The finished iteration, with profiler results already appended to its secondaries.
  virtual void iteration_finished(const IterationResult& result) = 0;
  /// The iteration failed (exception in the benchmark or a fixture); the trial stops.
  virtual void iteration_failed(const IterationParams& ip, int index, const Failure& failure) = 0;
  /// -pin: where the worker threads run, once, before the first iteration (not called
  /// when the workers are not pinned).
  virtual void workers_pinned(const Pinning&) {}
};

/// Runs the trial. Returns the failure if the benchmark failed, nullopt if it completed.
/// `profilers` are called around every iteration (warmup included), in order before
/// and in reverse order after, as JMH does.
std::optional<Failure> run_trial(const BenchmarkDefinition& def, const BenchmarkParams& plan,
                                 std::span<InternalProfiler* const> profilers,
                                 TrialObserver& observer);

}  // namespace cmh::engine
