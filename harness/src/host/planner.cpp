// SPDX-License-Identifier: MIT
// plan_runs: the selected benchmarks, each expanded by mode and then by the outer
// product of its parameters, with every option resolved as JMH resolves them
// (command line > benchmark > group > defaults) into one BenchmarkParams each.
// Everything that can be wrong with a plan is found here, before anything runs.
#include "host/planner.hpp"

#include <cmh/profiler.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sched.h>

#include <algorithm>
#include <array>
#include <set>
#include <thread>

#include "fork/fork_runner.hpp"
#include "host/bulk_warmup.hpp"
#include "host/planner_resolve.hpp"
#include "host/planner_selection.hpp"

namespace cmh::host {

namespace {

/// Profilers are called in order before an iteration and in reverse order after it, so
/// the last one brackets the workers most tightly. The allocation profiler goes last:
/// another profiler's after_iteration (which builds its result vector) must not land
/// inside its window, or an allocation-free benchmark would not read exactly 0 B/op.
std::vector<std::string> profilers_in_call_order(std::vector<std::string> specs) {
  auto is_alloc = [](const std::string& spec) {
    const auto* info = ProfilerRegistry::instance().find(std::string_view(spec).substr(0, spec.find(':')));
    return info != nullptr && info->name == "alloc";
  };
  std::stable_partition(specs.begin(), specs.end(), [&](const std::string& s) { return !is_alloc(s); });
  return specs;
}

using cli::CommandLineError;
using std::chrono::seconds;

constexpr std::array kModeOrder = {BenchmarkMode::throughput, BenchmarkMode::average_time,
                                   BenchmarkMode::sample_time, BenchmarkMode::single_shot};

/// The modes to run, once each, in JMH's order (its benchmark list is sorted by mode).
std::vector<BenchmarkMode> modes_of(const OptionSet& o) {
  if (o.modes.empty()) return {BenchmarkMode::throughput};
  std::vector<BenchmarkMode> modes;
  for (auto m : kModeOrder)
    if (std::find(o.modes.begin(), o.modes.end(), m) != o.modes.end()) modes.push_back(m);
  return modes;
}

using ParamPoint = std::vector<std::pair<std::string, std::string>>;

/// The outer product, first parameter (by name) outermost, values in the order given,
/// as JMH explodes @Param values.
std::vector<ParamPoint> param_points(const BenchmarkDefinition& def, const OptionSet& o) {
  std::vector<ParamPoint> points{ParamPoint{}};
  for (const ParamDecl* p : declared_params(def)) {
    const auto given = o.params.find(p->name);
    const std::vector<std::string>& values = given != o.params.end() ? given->second : p->defaults;
    if (values.empty())
      throw CommandLineError(fmt::format(
          "Benchmark {} has the parameter \"{}\" but no values for it: declare default values, or give "
          "them with -p {}=value1,value2",
          def.full_name(), p->name, p->name));
    // A value the parameter's type cannot take is a command-line error, not a failed trial.
    for (const auto& v : values)
      if (auto reason = check_param_value(def, p->name, v))
        throw CommandLineError(given != o.params.end() ? "Option -p: " + *reason : *reason);
    std::vector<ParamPoint> next;
    next.reserve(points.size() * values.size());
    for (const auto& point : points)
      for (const auto& v : values) {
        next.push_back(point);
        next.back().emplace_back(p->name, v);
      }
    points = std::move(next);
  }
  return points;
}

/// -p names that no selected benchmark declares are a typo, not a no-op.
void check_param_names(const cli::CommandLine& cl, const std::vector<const BenchmarkDefinition*>& selected) {
  std::set<std::string> declared;
  for (const auto* def : selected)
    for (const auto& p : def->params) declared.insert(p.name);
  for (const auto& [name, values] : cl.overrides.params) {
    if (declared.count(name) != 0) continue;
    throw CommandLineError(fmt::format(
        "Option -p: no selected benchmark has a parameter \"{}\" ({})", name,
        declared.empty() ? std::string("the selected benchmarks have no parameters")
                         : fmt::format("their parameters: {}", fmt::join(declared, ", "))));
  }
}

/// Threads per member for a @Group benchmark: -tg > benchmark > group > declared > 1 each.
std::vector<int> thread_groups_of(const BenchmarkDefinition& def, const OptionSet& o, const cli::CommandLine& cl) {
  const std::size_t members = def.group_members.size();
  std::vector<int> groups;
  if (o.thread_groups) {
    groups = *o.thread_groups;
  } else if (!def.group_threads.empty()) {
    groups = def.group_threads;
  } else {
    groups.assign(members, 1);
  }
  const bool from_command_line = cl.overrides.thread_groups.has_value();
  if (groups.size() != members) {
    const std::string names = fmt::format("{}", fmt::join(def.group_members, ", "));
    if (from_command_line)
      throw CommandLineError(fmt::format(
          "Option -tg {}: benchmark {} has {} group members ({}), so -tg needs {} thread counts",
          fmt::join(groups, ","), def.full_name(), members, names, members));
    throw CommandLineError(fmt::format("Benchmark {}: {} group thread counts ({}) for {} members ({})",
                                       def.full_name(), groups.size(), fmt::join(groups, ","), members, names));
  }
  int total = 0;
  for (int g : groups) {
    if (g < 0)
      throw CommandLineError(fmt::format("Benchmark {}: a negative group thread count in {}", def.full_name(),
                                         fmt::join(groups, ",")));
    total += g;
  }
  if (total <= 0)
    throw CommandLineError(fmt::format("Benchmark {}: the group thread counts {} add up to 0", def.full_name(),
                                       fmt::join(groups, ",")));
  return groups;
}

/// Options set in code are checked as the command line is: a bad value is an error
/// before anything runs, not a surprise in the middle of the run.
void check_code_values(const BenchmarkDefinition& def, const BenchmarkParams& bp) {
  auto require = [&](bool ok, std::string_view what, long long value) {
    if (!ok) throw CommandLineError(fmt::format("Benchmark {}: {} is {}, which is out of range", def.full_name(), what, value));
  };
  require(bp.warmup.count >= 0, "the warmup iteration count", bp.warmup.count);
  require(bp.measurement.count >= 1, "the measurement iteration count", bp.measurement.count);
  require(bp.warmup.batch_size >= 1, "the warmup batch size", bp.warmup.batch_size);
  require(bp.measurement.batch_size >= 1, "the measurement batch size", bp.measurement.batch_size);
  require(bp.warmup.time.count() >= 0, "the warmup time (ns)", bp.warmup.time.count());
  require(bp.measurement.time.count() >= 0, "the measurement time (ns)", bp.measurement.time.count());
  require(bp.ops_per_invocation >= 1, "the operations per invocation", bp.ops_per_invocation);
  require(bp.timeout.count() > 0, "the timeout (ns)", bp.timeout.count());
  require(bp.forks >= 0, "the fork count", bp.forks);
  require(bp.warmup_forks >= 0, "the warmup fork count", bp.warmup_forks);
}

std::vector<std::string> effective_fork_args(const OptionSet& o) {
  std::vector<std::string> args = o.fork.args_prepend;
  if (o.fork.args) args.insert(args.end(), o.fork.args->begin(), o.fork.args->end());
  args.insert(args.end(), o.fork.args_append.begin(), o.fork.args_append.end());
  return args;
}

/// The plan of `def` in `mode`; the caller fills in each parameter point.
BenchmarkParams resolve(const BenchmarkDefinition& def, const OptionSet& o, BenchmarkMode mode,
                        const cli::CommandLine& cl, int cpu_count) {
  BenchmarkParams bp = default_params(mode);
  bp.benchmark = def.full_name();
  bp.group = def.group;
  bp.name = def.name;
  if (o.output_unit) bp.time_unit = *o.output_unit;

  auto iterations = [](IterationParams& ip, const IterationOptions& io) {
    if (io.iterations) ip.count = *io.iterations;
    if (io.time) ip.time = *io.time;
    if (io.batch_size) ip.batch_size = *io.batch_size;
  };
  iterations(bp.warmup, o.warmup);
  iterations(bp.measurement, o.measurement);

  if (!def.group_members.empty()) {
    bp.group_members = def.group_members;
    bp.thread_groups = thread_groups_of(def, o, cl);
  }
  int group_size = 0;
  for (int g : bp.thread_groups) group_size += g;
  const int requested = o.threads.value_or(1);
  if (requested < 1 && requested != kThreadsMax && requested != kThreadsHalfMax)
    throw CommandLineError(fmt::format("Benchmark {}: the thread count is {}, which is out of range",
                                       def.full_name(), requested));
  bp.threads = resolve_thread_count(requested, cpu_count, group_size);

  if (o.ops_per_invocation) bp.ops_per_invocation = *o.ops_per_invocation;
  if (o.timeout) bp.timeout = *o.timeout;
  // JMH never synchronises single-shot iterations: there is no steady state to align.
  bp.sync_iterations = mode != BenchmarkMode::single_shot && o.sync_iterations.value_or(true);
  if (o.gc_between_iterations) bp.gc_between_iterations = *o.gc_between_iterations;
  if (o.subwindow) bp.subwindow = *o.subwindow;
  if (o.fork.count) bp.forks = *o.fork.count;
  if (o.fork.warmups) bp.warmup_forks = *o.fork.warmups;
  bp.fork_args = effective_fork_args(o);
  bp.profilers = profilers_in_call_order(cl.profilers);
  check_code_values(def, bp);
  return bp;
}

}  // namespace

OptionSet effective_options(const BenchmarkDefinition& def, const cli::CommandLine& cl) {
  OptionSet o = def.group_options;
  o.overlay(def.benchmark_options);
  o.overlay(cl.overrides);
  return o;
}

std::vector<const ParamDecl*> declared_params(const BenchmarkDefinition& def) {
  std::vector<const ParamDecl*> params;
  for (const auto& p : def.params)
    if (std::none_of(params.begin(), params.end(), [&](const ParamDecl* q) { return q->name == p.name; }))
      params.push_back(&p);
  std::stable_sort(params.begin(), params.end(),
                   [](const ParamDecl* a, const ParamDecl* b) { return a->name < b->name; });
  return params;
}

BenchmarkParams default_params(BenchmarkMode mode) {
  BenchmarkParams bp;
  bp.mode = mode;
  bp.time_unit = mode == BenchmarkMode::throughput ? TimeUnit::s : TimeUnit::ns;
  const bool single_shot = mode == BenchmarkMode::single_shot;
  // JMH's single-shot rule: no warmup and one measurement, each one call, unless set.
  bp.warmup = {IterationKind::warmup, single_shot ? 0 : 3, single_shot ? Nanos(0) : seconds(1), 1};
  bp.measurement = {IterationKind::measurement, single_shot ? 1 : 5, single_shot ? Nanos(0) : seconds(1), 1};
  bp.threads = 1;
  // A plain benchmark is one group of one thread, as JMH's threadGroups {1}.
  bp.thread_groups = {1};
  bp.ops_per_invocation = 1;
  bp.timeout = std::chrono::minutes(10);
  bp.sync_iterations = !single_shot;
  bp.gc_between_iterations = false;
  bp.forks = 3;
  bp.warmup_forks = 0;
  return bp;
}

int resolve_thread_count(int requested, int cpu_count, int group_size) {
  cpu_count = std::max(cpu_count, 1);
  group_size = std::max(group_size, 1);
  int threads = requested;
  if (requested == kThreadsMax) threads = cpu_count;
  if (requested == kThreadsHalfMax) threads = (cpu_count + 1) / 2;
  threads = std::max(threads, 1);
  return (threads + group_size - 1) / group_size * group_size;
}

int available_cpu_count() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

std::vector<PlannedRun> plan_runs(const cli::CommandLine& cl, const std::vector<BenchmarkDefinition>& registry) {
  return plan_runs(cl, registry, available_cpu_count());
}

std::vector<PlannedRun> plan_runs(const cli::CommandLine& cl, const std::vector<BenchmarkDefinition>& registry,
                                  int cpu_count) {
  const auto selected = select_benchmarks(cl, registry);
  if (selected.empty()) return {};
  check_param_names(cl, selected);
  if (cl.overrides.thread_groups &&
      std::none_of(selected.begin(), selected.end(), [](const auto* d) { return !d->group_members.empty(); }))
    throw CommandLineError(fmt::format("Option -tg {}: none of the selected benchmarks is a thread-group benchmark",
                                       fmt::join(*cl.overrides.thread_groups, ",")));

  std::vector<PlannedRun> runs = expand_runs(cl, selected, cpu_count);
  plan_bulk_warmups(cl, registry, cpu_count, runs);
  return runs;
}

std::vector<PlannedRun> expand_runs(const cli::CommandLine& cl, const std::vector<const BenchmarkDefinition*>& selected,
                                    int cpu_count) {
  std::vector<PlannedRun> runs;
  std::set<std::vector<std::string>> valid_fork_args;
  for (const BenchmarkDefinition* def : selected) {
    const OptionSet options = effective_options(*def, cl);
    const auto points = param_points(*def, options);
    for (BenchmarkMode mode : modes_of(options)) {
      BenchmarkParams base = resolve(*def, options, mode, cl, cpu_count);
      if (!valid_fork_args.count(base.fork_args)) {
        if (auto problem = forking::validate_fork_args(base.fork_args))
          throw CommandLineError(fmt::format("Fork arguments of {} ({}): {}", def->full_name(),
                                             fmt::join(base.fork_args, " "), *problem));
        valid_fork_args.insert(base.fork_args);
      }
      for (const auto& point : points) {
        PlannedRun run{def, base, nullptr};
        run.params.params = point;
        runs.push_back(std::move(run));
      }
    }
  }
  return runs;
}

}  // namespace cmh::host
