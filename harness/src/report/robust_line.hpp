// SPDX-License-Identifier: MIT
// The Robust line under a result: the robust estimate with its interval, the method the
// evidence chose and that evidence (stats/robust_estimate.hpp), then the median of the
// iteration scores, the fork-aware interval and -subwin's median of all sub-windows.
#pragma once

#include "stats/aggregate.hpp"

#include <string>
#include <string_view>

namespace cmh::report {

/// "Robust \"X\": 2.503 [2.471, 2.535] ns/op (95 %, clean sub-windows (mean), 3 forks; ...); median ...",
/// no newline.
std::string robust_line(std::string_view benchmark, const stats::AggregatedBenchmark& b);

/// The estimate's part alone: "2.503 [2.471, 2.535] ns/op (95 %, ...)".
std::string describe_robust(const stats::RobustEstimate& r, const std::string& unit);

}  // namespace cmh::report
