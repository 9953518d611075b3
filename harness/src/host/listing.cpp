// SPDX-License-Identifier: MIT
// The -l and -lp listings (see listing.hpp).
#include "host/listing.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "host/planner_resolve.hpp"
#include "host/planner_selection.hpp"

namespace cmh::host {

namespace {

std::string listing(const cli::CommandLine& cl, const std::vector<BenchmarkDefinition>& registry,
                    bool with_params) {
  std::string out = "Benchmarks: \n";
  for (const BenchmarkDefinition* def : select_benchmarks(cl, registry)) {
    out += def->full_name();
    out += '\n';
    if (!with_params) continue;
    const OptionSet options = effective_options(*def, cl);
    for (const ParamDecl* p : declared_params(*def)) {
      const auto given = options.params.find(p->name);
      const auto& values = given != options.params.end() ? given->second : p->defaults;
      out += fmt::format("  param \"{}\" = {{{}}}\n", p->name, fmt::join(values, ", "));
    }
  }
  return out;
}

}  // namespace

std::string list_benchmarks(const cli::CommandLine& cl, const std::vector<BenchmarkDefinition>& registry) {
  return listing(cl, registry, false);
}

std::string list_benchmarks_with_params(const cli::CommandLine& cl,
                                        const std::vector<BenchmarkDefinition>& registry) {
  return listing(cl, registry, true);
}

}  // namespace cmh::host
