// SPDX-License-Identifier: MIT
// Building the registry from what the macros registered at static-init time:
// @Group members merged into one definition, group and benchmark options
// attached, duplicates and dangling options reported. A pure function, so that
// tests can feed it bad input without touching the process-wide registry.
#pragma once

#include <cmh/options.hpp>
#include <cmh/registry.hpp>

#include <string>
#include <utility>
#include <vector>

namespace cmh::engine {

struct PendingBenchmarkOptions {
  std::string group;
  std::string name;
  OptionSet options;
  std::string file;
  int line = 0;
};

struct RegistryInput {
  std::vector<BenchmarkDefinition> definitions;
  std::vector<std::pair<std::string, OptionSet>> group_options;
  std::vector<PendingBenchmarkOptions> benchmark_options;
};

struct BuiltRegistry {
  std::vector<BenchmarkDefinition> benchmarks;  ///< sorted by full name
  std::vector<std::string> problems;            ///< one line each; empty when all is well
};

BuiltRegistry build_registry(RegistryInput input);

}  // namespace cmh::engine
