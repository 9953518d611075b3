// SPDX-License-Identifier: MIT
// The short texts of the results model: aggregation policies and primary-result
// units ("ops/s", "ns/op"), spelled as JMH spells them. (The labels of modes and
// time units live with OptionSet in model/options.cpp.)
#include <cmh/options.hpp>
#include <cmh/result.hpp>

#include <string>
#include <string_view>

namespace cmh {

std::string_view policy_label(AggregationPolicy p) {
  switch (p) {
    case AggregationPolicy::average: return "Average";
    case AggregationPolicy::sum: return "Sum";
    case AggregationPolicy::max: return "Maximum";
    case AggregationPolicy::min: return "Minimum";
  }
  return "?";
}

std::string primary_unit(BenchmarkMode mode, TimeUnit unit) {
  const std::string u(unit_label(unit));
  return mode == BenchmarkMode::throughput ? "ops/" + u : u + "/op";
}

}  // namespace cmh
