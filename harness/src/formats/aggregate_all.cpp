// SPDX-License-Identifier: MIT
// The statistics every result format starts from: stats::aggregate() of each
// benchmark collected so far, in run order.
#include "formats/renderers.hpp"

namespace cmh::formats {

std::vector<stats::AggregatedBenchmark> aggregate_all(const RunResults& results) {
  std::vector<stats::AggregatedBenchmark> out;
  out.reserve(results.benchmarks.size());
  for (const auto& run : results.benchmarks) {
    out.push_back(stats::aggregate(run));
    out.back().run = &run;  // formats read params and failures through it
  }
  return out;
}

}  // namespace cmh::formats
