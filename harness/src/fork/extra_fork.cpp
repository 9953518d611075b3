// SPDX-License-Identifier: MIT
// One more fork for a profiler (cmh/detail/extra_fork.hpp), on the host side.
#include <cmh/detail/extra_fork.hpp>

#include "fork/fork_args.hpp"
#include "fork/fork_runner.hpp"

namespace cmh::forking {
namespace {

/// The extra fork prints nothing: its results are read from what run_fork returns.
class QuietObserver final : public ForkObserver {
 public:
  void iteration_started(const IterationParams&, int) override {}
  void iteration_finished(const IterationResult&) override {}
  void iteration_failed(const IterationParams&, int, const Failure&) override {}
  void fork_output(bool, std::string_view) override {}
  void verbose(std::string_view) override {}
};

}  // namespace

ForkEnvironment fork_environment(const std::vector<std::string>& fork_args) {
  const ForkSettings settings = parse_fork_args(fork_args);
  ForkEnvironment env;
  for (const auto& [name, value] : settings.environment) env.variables[name] = value;
  if (!settings.allocator_flags.empty()) env.variables["CMH_ALLOC"] = allocator_env_value(settings);
  if (!settings.preload.empty()) env.variables["LD_PRELOAD"] = preload_env_value(settings, nullptr);
  env.bundled_allocator = settings.allocator.empty() || settings.allocator == "cmh";
  return env;
}

ForkResult run_extra_fork(const BenchmarkParams& plan, int fork_index, ExternalProfiler& wrapper,
                          std::size_t tail_lines) {
  ForkRequest request;
  request.plan = &plan;
  request.index = fork_index;
  request.external_profilers = {&wrapper};
  request.tail_lines = tail_lines;
  QuietObserver observer;
  return run_fork(request, observer);
}

}  // namespace cmh::forking
