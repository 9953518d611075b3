// SPDX-License-Identifier: MIT
// Benchmark selection by include/exclude regexes (see planner_selection.hpp).
#include "host/planner_selection.hpp"

#include <fmt/format.h>

#include <algorithm>

// GCC 12 to 14 report a false -Wmaybe-uninitialized inside libstdc++'s regex
// compiler when it is built with -fsanitize=address (GCC PR 105616; the sanitizer
// test build does that). The pragma covers the standard header only, no cmh code.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <regex>
#pragma GCC diagnostic pop

namespace cmh::host {

namespace {

struct Pattern {
  std::string text;
  std::regex regex;
};

std::vector<Pattern> compile(const std::vector<std::string>& patterns, std::string_view what) {
  std::vector<Pattern> compiled;
  for (const auto& p : patterns) {
    try {
      compiled.push_back({p, std::regex(p, std::regex::ECMAScript)});
    } catch (const std::regex_error& e) {
      throw cli::CommandLineError(fmt::format("Invalid {} regular expression \"{}\": {}", what, p, e.what()));
    }
  }
  return compiled;
}

const Pattern* first_match(const std::vector<Pattern>& patterns, const std::string& name) {
  for (const auto& p : patterns)
    if (std::regex_search(name, p.regex)) return &p;
  return nullptr;
}

/// Registry entries in full-name order (the registry is sorted already, but a
/// hand-built one in a test need not be).
std::vector<const BenchmarkDefinition*> sorted(const std::vector<BenchmarkDefinition>& registry) {
  std::vector<const BenchmarkDefinition*> all;
  all.reserve(registry.size());
  for (const auto& def : registry) all.push_back(&def);
  std::stable_sort(all.begin(), all.end(), [](const BenchmarkDefinition* a, const BenchmarkDefinition* b) {
    return a->full_name() < b->full_name();
  });
  return all;
}

}  // namespace

std::vector<const BenchmarkDefinition*> select_benchmarks(const cli::CommandLine& cl,
                                                          const std::vector<BenchmarkDefinition>& registry) {
  const auto includes = compile(cl.includes, "include");
  const auto excludes = compile(cl.excludes, "exclude (-e)");
  std::vector<const BenchmarkDefinition*> selected;
  for (const BenchmarkDefinition* def : sorted(registry)) {
    const std::string name = def->full_name();
    const bool included = includes.empty() || first_match(includes, name) != nullptr;
    if (included && first_match(excludes, name) == nullptr) selected.push_back(def);
  }
  return selected;
}

}  // namespace cmh::host
