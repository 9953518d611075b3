// SPDX-License-Identifier: MIT
#include "stats/precision.hpp"

#include "stats/list_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cmh::stats {

int iteration_cap(int planned) { return std::max(4 * planned, 50); }

double relative_error(const std::vector<double>& scores) {
  if (scores.size() < 3) return std::numeric_limits<double>::quiet_NaN();
  const ListStatistics s(scores);
  const double mean = s.mean();
  if (mean == 0 || !std::isfinite(mean)) return std::numeric_limits<double>::quiet_NaN();
  return s.mean_error_at(kConfidence) / std::fabs(mean);
}

namespace {
bool target_met(const std::vector<double>& scores, double target) {
  const double e = relative_error(scores);
  return !std::isnan(e) && e <= target;
}
}  // namespace

IterationStop next_iteration(const std::vector<double>& scores, double target, int planned, Nanos elapsed,
                             Nanos elapsed_measuring, Nanos budget) {
  const int n = static_cast<int>(scores.size());
  if (n < planned) return IterationStop::keep_going;
  if (target_met(scores, target)) return IterationStop::target;
  if (n >= iteration_cap(planned)) return IterationStop::iteration_cap;
  const Nanos per_iteration = n > 0 ? elapsed_measuring / n : Nanos(0);
  if (elapsed + per_iteration > budget) return IterationStop::time_budget;
  return IterationStop::keep_going;
}

IterationStop why_fork_stopped(const std::vector<double>& scores, double target, int planned) {
  if (target_met(scores, target)) return IterationStop::target;
  if (static_cast<int>(scores.size()) >= iteration_cap(planned)) return IterationStop::iteration_cap;
  return IterationStop::time_budget;
}

const char* describe(IterationStop why) {
  switch (why) {
    case IterationStop::keep_going: return "it had not stopped";
    case IterationStop::target: return "the target was reached";
    case IterationStop::iteration_cap: return "the iteration cap was reached";
    case IterationStop::time_budget: return "the time budget ran out";
  }
  return "";
}

const char* json_name(IterationStop why) {
  switch (why) {
    case IterationStop::keep_going: return "none";
    case IterationStop::target: return "target";
    case IterationStop::iteration_cap: return "iterationCap";
    case IterationStop::time_budget: return "timeBudget";
  }
  return "";
}

}  // namespace cmh::stats
