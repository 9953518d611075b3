// SPDX-License-Identifier: MIT
// The -rf html page's per-benchmark charts beyond the score chart (html.cpp), inline
// SVG, no script: every measurement iteration in run order with the disturbed ones
// marked, each fork's distribution as a box, and how a metric's value is written
// (JMH's console precision, or every digit for exact counts per op).
#pragma once

#include "stats/aggregate.hpp"

#include <string>

namespace cmh::formats {

/// Iterations fork after fork (forks separated), disturbed ones as red rings with why.
std::string timeline_svg(const stats::AggregatedBenchmark& agg);

/// One row per fork: min-max whisker, quartile box, median line, mean dot, the count.
std::string forks_svg(const stats::AggregatedMetric& m);

/// "20510.123 ± 41.527" (JMH's three decimals, "≈ 10⁻⁴" below them), or for exact counts per
/// op (B/op, allocs/op) every digit: "1,000,016".
std::string metric_value_html(const stats::AggregatedMetric& m);

}  // namespace cmh::formats
