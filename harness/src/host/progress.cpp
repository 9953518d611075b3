// SPDX-License-Identifier: MIT
// JMH's run-progress estimate (see progress.hpp; Runner.etaBeforeBenchmark).
#include "host/progress.hpp"

#include <algorithm>
#include <cmath>

namespace cmh::host {

RunProgress::RunProgress(const std::vector<const BenchmarkParams*>& plans, Clock::time_point start) : mark_(start) {
  for (const BenchmarkParams* bp : plans)
    projected_total_ns_ += (std::max(1, bp->forks) + bp->warmup_forks) * single_fork_ns(*bp);
}

double RunProgress::single_fork_ns(const BenchmarkParams& bp) {
  if (bp.mode == BenchmarkMode::single_shot) return (bp.warmup.count + bp.measurement.count) * 1e6;
  return bp.warmup.count * static_cast<double>(bp.warmup.time.count()) +
         bp.measurement.count * static_cast<double>(bp.measurement.time.count());
}

double RunProgress::fraction_done() const {
  return projected_total_ns_ > 0 ? std::min(1.0, projected_done_ns_ / projected_total_ns_) : 0.0;
}

std::chrono::seconds RunProgress::eta() const {
  const double done = fraction_done();
  const double eta_ns = done > 0 ? actual_done_ns_ * (1.0 / done - 1.0) : projected_total_ns_;
  return std::chrono::seconds(static_cast<long long>(std::llround(std::max(0.0, eta_ns) / 1e9)));
}

void RunProgress::fork_done(const BenchmarkParams& bp, Clock::time_point now) {
  projected_done_ns_ += single_fork_ns(bp);
  actual_done_ns_ += static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(now - mark_).count());
  mark_ = now;
}

}  // namespace cmh::host
