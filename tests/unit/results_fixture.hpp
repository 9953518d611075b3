// SPDX-License-Identifier: MIT
// Building blocks for the statistics and report tests: iteration results with a
// given score, unit and secondaries, as a worker would report them.
#pragma once

#include <cmh/result.hpp>

#include <string>
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

}  // namespace cmh::test
