// SPDX-License-Identifier: MIT
// Building blocks for the statistics, report and profiler tests: iteration results with a
// given score, unit and secondaries, as a worker would report them, and checks on them.
// Shared helpers live here, not in each test's anonymous namespace: the unit tests are a
// unity build (tests/CMakeLists.txt), where two files' local helpers of one name clash.
#pragma once

#include <cmh/result.hpp>

#include <cmath>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cmh::test {

inline IterationResult make_iteration(double score, std::string unit, std::vector<ScalarResult> secondaries = {},
                                      IterationKind kind = IterationKind::measurement, int index = 1) {
  IterationResult r;
  r.kind = kind;
  r.index = index;
  r.primary = {"", score, std::move(unit), AggregationPolicy::average};
  r.secondaries = std::move(secondaries);
  return r;
}

/// The result labelled `label`, or null.
inline const ScalarResult* metric(const std::vector<ScalarResult>& results, std::string_view label) {
  for (const auto& r : results)
    if (r.label == label) return &r;
  return nullptr;
}

/// `actual` within `rel` (relative) of `expected`.
inline bool close_rel(double actual, double expected, double rel = 1e-9) {
  return std::fabs(actual - expected) <= rel * std::fabs(expected);
}

}  // namespace cmh::test
