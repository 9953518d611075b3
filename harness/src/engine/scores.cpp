// SPDX-License-Identifier: MIT
// Score helpers shared by the primary and the secondary results of an iteration.
#include "engine/scores.hpp"

#include <limits>

namespace cmh::engine {

void HistogramSums::add(const SampleHistogram& h) {
  h.for_each([&](double value, std::uint64_t n) {
    weighted += value * static_cast<double>(n);
    count += static_cast<double>(n);
  });
}

double HistogramSums::mean() const {
  return count > 0 ? weighted / count : std::numeric_limits<double>::quiet_NaN();
}

double counter_score(BenchmarkMode mode, TimeUnit unit, const std::vector<CountedWindow>& windows) {
  const double per_unit = nanos_per(unit);
  if (mode == BenchmarkMode::throughput) {
    double sum = 0;
    for (const auto& w : windows)
      if (w.ns > 0) sum += w.ops * per_unit / w.ns;
    return sum;
  }
  double sum = 0;
  int n = 0;
  for (const auto& w : windows) {
    if (w.ops <= 0) continue;
    sum += w.ns / (w.ops * per_unit);
    ++n;
  }
  return n > 0 ? sum / n : std::numeric_limits<double>::quiet_NaN();
}

std::uint64_t scale_ops(std::uint64_t calls, int ops_per_invocation, int batch_size) {
  const unsigned __int128 scaled = static_cast<unsigned __int128>(calls) *
                                   static_cast<unsigned>(ops_per_invocation < 1 ? 1 : ops_per_invocation);
  return static_cast<std::uint64_t>(scaled / static_cast<unsigned>(batch_size < 1 ? 1 : batch_size));
}

}  // namespace cmh::engine
