// SPDX-License-Identifier: MIT
// The process-wide benchmark registry: collects registrations during static
// initialisation, builds the sorted list on first read (so that the order of
// translation units does not matter), and answers lookups.
#include <cmh/detail/benchmark_code.hpp>
#include <cmh/registry.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "engine/registry_build.hpp"

namespace cmh::engine {
namespace {

RegistryInput& pending() {
  static RegistryInput input;  // function-local: safe to use from any static initialiser
  return input;
}

std::string where(const BenchmarkDefinition& d) {
  return std::string(d.file) + ":" + std::to_string(d.line);
}

/// Folds the @Group members registered under one name into one definition.
std::optional<BenchmarkDefinition> merge_members(std::vector<BenchmarkDefinition>& parts,
                                                 std::vector<std::string>& problems) {
  std::sort(parts.begin(), parts.end(), [](const BenchmarkDefinition& a, const BenchmarkDefinition& b) {
    return a.group_members.front() < b.group_members.front();
  });
  BenchmarkDefinition merged = parts.front();
  merged.group_members.clear();
  merged.group_threads.clear();
  merged.params.clear();
  auto code = std::make_shared<detail::BenchmarkCode>();
  for (const auto& part : parts) {
    const std::string& member = part.group_members.front();
    if (!merged.group_members.empty() && merged.group_members.back() == member) {
      problems.push_back("group member " + merged.full_name() + "/" + member + " is defined twice (" +
                         where(parts.front()) + ", " + where(part) + ")");
      return std::nullopt;
    }
    if (part.group_threads.front() < 1) {
      problems.push_back("group member " + merged.full_name() + "/" + member +
                         " must run on at least one thread (" + where(part) + ")");
      return std::nullopt;
    }
    merged.group_members.push_back(member);
    merged.group_threads.push_back(part.group_threads.front());
    code->members.push_back(part.code->members.front());
    for (const auto& p : part.params) {
      const bool known = std::any_of(merged.params.begin(), merged.params.end(),
                                     [&](const ParamDecl& q) { return q.name == p.name; });
      if (!known) merged.params.push_back(p);
    }
  }
  std::sort(merged.params.begin(), merged.params.end(),
            [](const ParamDecl& a, const ParamDecl& b) { return a.name < b.name; });
  merged.code = std::move(code);
  return merged;
}

}  // namespace

BuiltRegistry build_registry(RegistryInput input) {
  BuiltRegistry out;
  std::map<std::string, std::vector<BenchmarkDefinition>> by_name;
  for (auto& d : input.definitions) by_name[d.full_name()].push_back(std::move(d));

  for (auto& [name, parts] : by_name) {
    const bool all_members = std::all_of(parts.begin(), parts.end(), [](const BenchmarkDefinition& d) {
      return !d.group_members.empty();
    });
    if (all_members) {
      if (auto merged = merge_members(parts, out.problems)) out.benchmarks.push_back(std::move(*merged));
    } else if (parts.size() == 1) {
      out.benchmarks.push_back(std::move(parts.front()));
    } else {
      std::string places;
      for (const auto& p : parts) places += (places.empty() ? "" : ", ") + where(p);
      out.problems.push_back("benchmark " + name + " is defined more than once (" + places + ")");
    }
  }

  for (auto& def : out.benchmarks) {
    for (const auto& [group, options] : input.group_options)
      if (group == def.group) def.group_options.overlay(options);
  }
  for (const auto& pending_options : input.benchmark_options) {
    auto it = std::find_if(out.benchmarks.begin(), out.benchmarks.end(), [&](const BenchmarkDefinition& d) {
      return d.group == pending_options.group && d.name == pending_options.name;
    });
    if (it == out.benchmarks.end()) {
      out.problems.push_back("CMH_BENCHMARK_OPTIONS(" + pending_options.group + ", " + pending_options.name +
                             ") names no benchmark (" + pending_options.file + ":" +
                             std::to_string(pending_options.line) + ")");
      continue;
    }
    it->benchmark_options.overlay(pending_options.options);
  }
  std::sort(out.benchmarks.begin(), out.benchmarks.end(),
            [](const BenchmarkDefinition& a, const BenchmarkDefinition& b) { return a.full_name() < b.full_name(); });
  return out;
}

}  // namespace cmh::engine

namespace cmh {

const std::vector<BenchmarkDefinition>& registered_benchmarks() {
  static const std::vector<BenchmarkDefinition> all = [] {
    engine::BuiltRegistry built = engine::build_registry(std::move(engine::pending()));
    if (!built.problems.empty()) {
      // A programming error in the benchmark sources: say what, and stop before anything runs.
      for (const auto& p : built.problems) std::fprintf(stderr, "cmh: %s\n", p.c_str());
      std::exit(1);
    }
    return std::move(built.benchmarks);
  }();
  return all;
}

const BenchmarkDefinition* find_benchmark(std::string_view full_name) {
  const auto& all = registered_benchmarks();
  auto it = std::lower_bound(all.begin(), all.end(), full_name,
                             [](const BenchmarkDefinition& d, std::string_view n) { return d.full_name() < n; });
  return it != all.end() && it->full_name() == full_name ? &*it : nullptr;
}

std::optional<std::string> check_param_value(const BenchmarkDefinition& def, std::string_view name,
                                             std::string_view value) {
  if (!def.code) return std::nullopt;
  for (const auto& member : def.code->members) {
    for (const auto& check : member.param_checks) {
      if (check.name == name && !check.accepts(value)) {
        return "'" + std::string(value) + "' is not a valid " + check.type_name + " for parameter '" +
               std::string(name) + "' of " + def.full_name();
      }
    }
  }
  return std::nullopt;
}

namespace detail {

void register_benchmark(BenchmarkDefinition def) { engine::pending().definitions.push_back(std::move(def)); }

void register_group_options(std::string group, OptionSet options) {
  engine::pending().group_options.emplace_back(std::move(group), std::move(options));
}

void register_benchmark_options(std::string group, std::string name, OptionSet options, const char* file,
                                int line) {
  engine::pending().benchmark_options.push_back(
      {std::move(group), std::move(name), std::move(options), file, line});
}

void adopt_group_options(const char* group, OptionSet* options) {
  const std::unique_ptr<OptionSet> owned(options);
  register_group_options(group, std::move(*owned));
}

void adopt_benchmark_options(const char* group, const char* name, OptionSet* options, const char* file,
                             int line) {
  const std::unique_ptr<OptionSet> owned(options);
  register_benchmark_options(group, name, std::move(*owned), file, line);
}

}  // namespace detail
}  // namespace cmh
