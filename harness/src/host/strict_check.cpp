// SPDX-License-Identifier: MIT
// See strict_check.hpp.
#include "host/strict_check.hpp"

#include <algorithm>
#include <cstdio>

#include "engine/pinning.hpp"

namespace cmh::host {

namespace {

std::optional<std::string> pinning_reason(const cli::CommandLine& cl) {
  if (engine::pins_workers(cl.pin)) return std::nullopt;
  return "The worker threads are not pinned (-pin none): the scheduler may move them between CPUs during an "
         "iteration; -pin cores gives each its own core.";
}

}  // namespace

std::vector<std::string> strict_reasons(const report::EnvironmentFacts& facts, const cli::CommandLine& cl) {
  std::vector<std::string> reasons = report::unfit_machine_reasons(facts);
  if (auto r = pinning_reason(cl)) reasons.push_back(*r);
  return reasons;
}

std::optional<int> refuse_if_strict(const cli::CommandLine& cl) {
  if (!cl.strict) return std::nullopt;
  const auto reasons = strict_reasons(report::probe_environment(), cl);
  if (reasons.empty()) return std::nullopt;
  for (const auto& r : reasons) std::fprintf(stderr, "-strict: %s\n", r.c_str());
  return 1;
}

void add_strict_warnings(const cli::CommandLine& cl, model::RunContext& context) {
  if (cl.strict) return;
  if (auto r = pinning_reason(cl); r && std::find(context.warnings.begin(), context.warnings.end(), *r) == context.warnings.end())
    context.warnings.push_back(*r);
}

}  // namespace cmh::host
