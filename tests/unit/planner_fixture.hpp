// SPDX-License-Identifier: MIT
// Hand-built registries and command lines for the planner tests: the planner never
// runs a benchmark's code, so definitions need only names, options and parameters.
#pragma once

#include <cmh/registry.hpp>

#include <initializer_list>
#include <string>
#include <vector>

#include "cli/command_line.hpp"

namespace planner_test {

inline cmh::BenchmarkDefinition bench(std::string group, std::string name,
                                      std::vector<cmh::ParamDecl> params = {}) {
  cmh::BenchmarkDefinition def;
  def.group = std::move(group);
  def.name = std::move(name);
  def.params = std::move(params);
  return def;
}

inline cmh::BenchmarkDefinition group_bench(std::string group, std::string name, std::vector<std::string> members,
                                            std::vector<int> threads = {}) {
  cmh::BenchmarkDefinition def = bench(std::move(group), std::move(name));
  def.group_members = std::move(members);
  def.group_threads = std::move(threads);
  return def;
}

inline cmh::cli::CommandLine command_line(std::initializer_list<const char*> args) {
  std::vector<const char*> argv{"bench"};
  argv.insert(argv.end(), args.begin(), args.end());
  return cmh::cli::parse_command_line(static_cast<int>(argv.size()), argv.data());
}

/// The message of the CommandLineError `f` throws, or "(no error)".
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const cmh::cli::CommandLineError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace planner_test
