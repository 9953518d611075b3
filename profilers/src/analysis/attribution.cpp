// SPDX-License-Identifier: MIT
// owner_of(): the naming rules behind the user / harness split (see attribution.hpp).
#include "analysis/attribution.hpp"

#include "sampling/code_map.hpp"

namespace cmh::profilers::analysis {
namespace {

// The harness's namespaces (the gbench layer's State is cmh's code too).
constexpr std::string_view kHarnessPrefixes[] = {
    "cmh::detail::", "cmh::engine::", "cmh::Blackhole", "cmh::Control", "cmh::forking::", "cmh::host::",
    "cmh::profilers::", "cmh::report::", "cmh::stats::", "benchmark::State", "benchmark::internal::",
};

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool is_system_library(std::string_view path) {
  return starts_with(path, "/lib") || starts_with(path, "/usr/lib") || path == "[vdso]";
}

CodeOwner owner_by_name(std::string_view function, const BenchmarkIdentity& benchmark) {
  for (const auto& body : benchmark.body_names)
    if (function.find(body) != std::string_view::npos) return CodeOwner::user;
  for (auto prefix : kHarnessPrefixes)
    if (starts_with(function, prefix)) return CodeOwner::harness;
  if (starts_with(function, "cmh::allocator::") || starts_with(function, "cmh_alloc")) return CodeOwner::allocator;
  return CodeOwner::unknown;
}

}  // namespace

std::string_view owner_name(CodeOwner owner) {
  switch (owner) {
    case CodeOwner::user: return "user";
    case CodeOwner::harness: return "harness";
    case CodeOwner::allocator: return "allocator";
    case CodeOwner::library: return "library";
    case CodeOwner::kernel: return "kernel";
    case CodeOwner::unknown: return "unknown";
  }
  return "unknown";
}

BenchmarkIdentity benchmark_identity(std::string_view group, std::string_view name,
                                     const std::vector<std::string>& group_members, std::string executable) {
  BenchmarkIdentity id;
  id.label = std::string(group) + "." + std::string(name);
  // CMH_BENCHMARK / CMH_GROUP_BENCHMARK name the tag type that holds the body (benchmark.hpp).
  if (group_members.empty()) {
    id.body_names.push_back("cmh_benchmark_" + std::string(group) + "_" + std::string(name) + "::run");
  } else {
    for (const auto& m : group_members)
      id.body_names.push_back("cmh_group_member_" + std::string(group) + "_" + std::string(name) + "_" + m + "::run");
  }
  id.executable = std::move(executable);
  return id;
}

bool is_body(const std::string& function, const BenchmarkIdentity& benchmark) {
  for (const auto& body : benchmark.body_names)
    if (function.find(body) != std::string::npos) return true;
  return false;
}

CodeOwner owner_of(const std::string& module, const std::string& function, const std::vector<InlineFrame>& chain,
                   const BenchmarkIdentity& benchmark) {
  if (module == sampling::kKernelModule) return CodeOwner::kernel;
  if (module == sampling::kUnknownModule) return CodeOwner::unknown;
  // The innermost function after inlining decides; the ELF function if there is no DWARF.
  const std::string& innermost = chain.empty() ? function : chain.front().function;
  if (const CodeOwner by_name = owner_by_name(innermost, benchmark); by_name != CodeOwner::unknown) return by_name;
  if (!chain.empty() && chain.front().function == "??") {
    if (const CodeOwner by_symbol = owner_by_name(function, benchmark); by_symbol != CodeOwner::unknown)
      return by_symbol;
  }
  return is_system_library(module) ? CodeOwner::library : CodeOwner::user;
}

}  // namespace cmh::profilers::analysis
