// SPDX-License-Identifier: MIT
// The benchmark registry: every CMH_BENCHMARK registers one BenchmarkDefinition
// at static-initialisation time; group options (CMH_OPTIONS) are merged in when
// the registry is first read, so their order across translation units does not matter.
#pragma once

#include <cmh/options.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cmh {

/// A parameter declared on a state (JMH's @Param).
struct ParamDecl {
  std::string name;
  std::vector<std::string> defaults;  ///< as strings, converted when injected
  std::string type_name;              ///< for -lp and error messages
};

namespace detail {
/// The type-erased code of one benchmark: defined by the engine (harness/src/engine).
class BenchmarkCode;
}  // namespace detail

struct BenchmarkDefinition {
  std::string group;  ///< "TAB"
  std::string name;   ///< "inline" (for @Group benchmarks: the group tag); empty for
                      ///< run-time registered benchmarks named as their own framework names them
  std::string full_name() const { return name.empty() ? group : group + "." + name; }
  OptionSet group_options;      ///< CMH_OPTIONS(group, ...)
  OptionSet benchmark_options;  ///< per-benchmark options; wins over group options
  std::vector<ParamDecl> params;  ///< sorted by name, from every state the benchmark uses
  /// @Group benchmarks: member names and default threads per member; empty otherwise.
  std::vector<std::string> group_members;
  std::vector<int> group_threads;
  std::shared_ptr<const detail::BenchmarkCode> code;
  const char* file = "";
  int line = 0;
};

/// Every registered benchmark, sorted by full name (JMH runs in sorted order).
const std::vector<BenchmarkDefinition>& registered_benchmarks();
/// nullptr when there is no benchmark of that full name.
const BenchmarkDefinition* find_benchmark(std::string_view full_name);
/// nullopt when `value` converts to the type of parameter `name` in every state of
/// `def` that declares it (or none does); else a one-line reason, for -p checking.
std::optional<std::string> check_param_value(const BenchmarkDefinition& def, std::string_view name,
                                             std::string_view value);

namespace detail {
void register_benchmark(BenchmarkDefinition def);
void register_group_options(std::string group, OptionSet options);
}  // namespace detail

}  // namespace cmh
