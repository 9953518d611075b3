// SPDX-License-Identifier: MIT
// The blocks printed when a benchmark ends (JMH's Result.extendedInfo): the
// Result "..." block with score, error, min/avg/max, stdev and CI, or for sample
// and single-shot modes the distribution block (N, mean, histogram, percentiles);
// then one Secondary result "...:label" block per secondary metric.
#pragma once

#include "stats/aggregate.hpp"

#include <string>
#include <string_view>

namespace cmh::report {

/// "  12.752 ±(99.9%) 0.107 ns/op [Average]" ... for a metric (N <= 2: "  12.752 ns/op").
std::string simple_block(const stats::AggregatedMetric& m);

/// "  N = 91190", "  mean = ...", the histogram and the percentiles (N <= 2: as simple_block).
std::string distribution_block(const stats::AggregatedMetric& m);

/// Every block of one benchmark, each followed by a blank line. Sample-time mode's
/// derived percentiles get no block of their own: the distribution block shows them.
/// Then cmh's own blocks: cpu.time.norm, total.time.norm (multi-threaded average
/// time) and the disturbance line, with disturbance_warning() when the score is likely inflated.
std::string result_blocks(std::string_view benchmark, const stats::AggregatedBenchmark& b);

/// "# *** WARNING: <benchmark>: the score is likely inflated by other work ... ***" (no newline).
std::string disturbance_warning(std::string_view benchmark);

}  // namespace cmh::report
