// SPDX-License-Identifier: MIT
// The two time-per-op figures cmh reports beside JMH's primary score:
//  - cpu.time.norm: CPU nanoseconds per op, the CPU time of every worker's timed
//    window (CLOCK_THREAD_CPUTIME_ID) summed over workers and divided by the ops of
//    all workers: Google Benchmark's cpu_time. Other processes running on the
//    same CPU lengthen wall time, not this.
//  - total.time.norm (average-time mode, more than one thread): the whole
//    process's wall time per op, 1 / (sum over threads of ops per unit of time):
//    Google Benchmark's real_time. JMH's primary average time is per thread.
#pragma once

#include <cmh/result.hpp>

#include "stats/aggregate.hpp"

#include <optional>
#include <vector>

namespace cmh::stats {

/// One iteration's cpu.time.norm in ns/op; NaN when CPU time was not measured.
double cpu_time_per_op(const std::vector<ThreadMeasurement>& threads);

/// One iteration's whole-process wall time per op in `unit`; NaN without ops.
double total_time_per_op(TimeUnit unit, const std::vector<ThreadMeasurement>& threads);

/// cpu.time.norm over the pooled measurement iterations of `forks` (as the primary:
/// mean, 99.9 % t error, raw values by fork); nullopt unless every iteration measured it.
std::optional<AggregatedMetric> aggregate_cpu_time(const std::vector<const ForkResult*>& forks);

/// total.time.norm likewise; nullopt unless average-time mode with more than one thread.
std::optional<AggregatedMetric> aggregate_total_time(const BenchmarkParams& p,
                                                     const std::vector<const ForkResult*>& forks);

/// What the primary score of `p` means, in a few words ("per-thread average time").
std::string score_meaning(const BenchmarkParams& p);

}  // namespace cmh::stats
