// SPDX-License-Identifier: MIT
// "# Run progress: 37.50% complete, ETA 00:01:12", as JMH computes it: the plan's
// projected time (forks + warmup forks) x (warmup + measurement time) per
// benchmark, single-shot counted as 1 ms an iteration, and once work is done
// the remaining projection rescaled by the actual time it took so far.
#pragma once

#include <cmh/params.hpp>

#include <chrono>
#include <vector>

namespace cmh::host {

class RunProgress {
 public:
  using Clock = std::chrono::steady_clock;

  explicit RunProgress(const std::vector<const BenchmarkParams*>& plans, Clock::time_point start = Clock::now());

  /// Before a fork (or an in-process trial): the fraction done and the ETA.
  double fraction_done() const;
  std::chrono::seconds eta() const;
  /// After a fork (or in-process trial) of `bp` ended at `now`.
  void fork_done(const BenchmarkParams& bp, Clock::time_point now = Clock::now());

  /// Projected time of one fork of `bp`, in nanoseconds.
  static double single_fork_ns(const BenchmarkParams& bp);

 private:
  double projected_total_ns_ = 0;
  double projected_done_ns_ = 0;
  double actual_done_ns_ = 0;
  Clock::time_point mark_;
};

}  // namespace cmh::host
