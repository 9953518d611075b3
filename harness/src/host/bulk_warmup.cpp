// SPDX-License-Identifier: MIT
// plan_bulk_warmups (see bulk_warmup.hpp).
#include "host/bulk_warmup.hpp"

#include <algorithm>
#include <memory>

#include "host/planner_resolve.hpp"
#include "host/planner_selection.hpp"

namespace cmh::host {
namespace {

bool same_run(const BenchmarkParams& a, const BenchmarkParams& b) {
  return a.benchmark == b.benchmark && a.mode == b.mode && a.params == b.params;
}

/// A plan that only warms up: its warmup iterations, no measurement, no -prec.
BenchmarkParams warmup_only(BenchmarkParams p) {
  p.measurement.count = 0;
  p.precision = 0;
  return p;
}

}  // namespace

void plan_bulk_warmups(const cli::CommandLine& cl, const std::vector<BenchmarkDefinition>& registry, int cpu_count,
                       std::vector<PlannedRun>& runs) {
  const bool bulk = cl.warmup_mode != cli::WarmupMode::indi;
  if (!bulk && cl.warmup_includes.empty()) return;
  auto list = std::make_shared<std::vector<BenchmarkParams>>();
  auto add = [&](const BenchmarkParams& p) {
    if (std::none_of(list->begin(), list->end(), [&](const BenchmarkParams& q) { return same_run(p, q); }))
      list->push_back(warmup_only(p));
  };
  if (!cl.warmup_includes.empty()) {
    // JMH looks -wmb up with no excludes; -p values apply where the benchmark declares them.
    cli::CommandLine warm = cl;
    warm.includes = cl.warmup_includes;
    warm.excludes.clear();
    for (const auto& run : expand_runs(warm, select_benchmarks(warm, registry), cpu_count)) add(run.params);
  }
  if (bulk)
    for (const auto& run : runs) add(run.params);
  for (auto& run : runs) {
    if (cl.warmup_mode == cli::WarmupMode::bulk) run.params.warmup.count = 0;  // measured at once
    run.bulk_warmups = list;
  }
}

std::string bulk_warmup_label(const BenchmarkParams& plan) {
  std::string label = plan.benchmark;
  if (!plan.params.empty()) {
    std::string params;
    for (const auto& [k, v] : plan.params) params += (params.empty() ? "" : ", ") + k + " = " + v;
    label += " (" + params + ")";
  }
  return label + " [" + std::string(mode_short_label(plan.mode)) + "]";
}

}  // namespace cmh::host
