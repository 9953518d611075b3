// SPDX-License-Identifier: MIT
// Small spellings shared by several result formats: JMH's TimeValue text
// ("10 s", "100 ms"), failure kinds, and the primary unit with a fallback for
// benchmarks that produced no result at all.
#pragma once

#include <cmh/result.hpp>

#include "stats/aggregate.hpp"

#include <string>
#include <string_view>

namespace cmh::formats {

/// JMH's TimeValue.toString(): the duration in the largest unit that holds it
/// exactly, "10 s", "100 ms", "1500 ms", "2 min", "0 s".
std::string jmh_time_value(Nanos time);

/// "exception", "signal", "exited_early", ... (the enumerator's name).
std::string_view failure_kind_name(FailureKind kind);

/// The metric's unit, or the benchmark's primary unit when the metric is empty
/// (a benchmark that failed before measuring anything).
std::string primary_unit_of(const stats::AggregatedBenchmark& agg, const BenchmarkParams& params);

}  // namespace cmh::formats
