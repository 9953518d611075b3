// SPDX-License-Identifier: MIT
// Per-iteration numbers computed from what the workers counted: the sample-time
// mean and the time-normalised score of an arbitrary counter (group members,
// aux ops counters), by the same rules as the primary score.
#pragma once

#include <cmh/histogram.hpp>
#include <cmh/options.hpp>

#include <cstdint>
#include <vector>

namespace cmh::engine {

/// Sum of value x count and count over a histogram's buckets.
struct HistogramSums {
  double weighted = 0;
  double count = 0;
  void add(const SampleHistogram& h);
  double mean() const;  ///< NaN when empty
};

/// One thread's counted operations (any real number) over its timed window.
struct CountedWindow {
  double ops = 0;
  double ns = 0;
};

/// Throughput: sum over threads of ops per unit of time. The time modes: mean
/// over threads of time per op (threads that counted nothing are skipped; NaN
/// when none counted anything).
double counter_score(BenchmarkMode mode, TimeUnit unit, const std::vector<CountedWindow>& windows);

/// calls x ops-per-invocation / batch size, as JMH adjusts op counts.
std::uint64_t scale_ops(std::uint64_t calls, int ops_per_invocation, int batch_size);

}  // namespace cmh::engine
