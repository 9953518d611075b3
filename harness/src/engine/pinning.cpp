// SPDX-License-Identifier: MIT
// See pinning.hpp. The plan is a pure function of the spec, the worker count, the
// topology and the mask, so the unit tests drive it with made-up machines.
#include "engine/pinning.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include <cmh/machine/cpu_list.hpp>

namespace cmh::engine {

namespace {

using machine::CoreType;
using machine::format_cpu_list;

/// A -pin list in the order written ("3,1-2" -> {3,1,2}); nullopt when malformed.
std::optional<std::vector<int>> ordered_list(std::string_view text) {
  std::vector<int> cpus;
  auto number = [](std::string_view s) -> std::optional<int> {
    int v = -1;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size() || v < 0 || v > machine::kMaxCpu) return std::nullopt;
    return v;
  };
  while (true) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    const auto dash = item.find('-');
    const auto first = number(item.substr(0, dash));
    const auto last = dash == std::string_view::npos ? first : number(item.substr(dash + 1));
    if (!first || !last || *last < *first) return std::nullopt;
    for (int c = *first; c <= *last; ++c) cpus.push_back(c);
    if (comma == std::string_view::npos) return cpus;
    text.remove_prefix(comma + 1);
  }
}

/// One physical core of the mask: its allowed logical CPUs, lowest first.
struct Core {
  std::vector<int> cpus;
  const machine::Cpu* info = nullptr;  ///< the first CPU's topology (nullptr: not in sysfs)
};

/// Rank of a core as a place for a worker: performance before efficiency cores,
/// isolated before shared ones, the core of CPU 0 (where housekeeping and many
/// interrupts land) last, then by CPU number.
auto core_rank(const Core& c) {
  const bool efficiency = c.info != nullptr && c.info->type == CoreType::efficiency;
  const bool isolated = c.info != nullptr && (c.info->isolated || c.info->nohz_full);
  const bool has_cpu0 = c.info != nullptr ? machine::cpus_contain(c.info->siblings, 0) : c.cpus.front() == 0;
  return std::tuple(efficiency, !isolated, has_cpu0, c.cpus.front());
}

std::vector<Core> cores_of(const machine::Topology& topo, const std::vector<int>& allowed) {
  std::map<std::vector<int>, Core> by_siblings;
  for (int cpu : allowed) {
    const machine::Cpu* info = topo.find(cpu);
    const std::vector<int> key = info != nullptr ? info->siblings : std::vector<int>{cpu};
    Core& core = by_siblings[key];
    if (core.cpus.empty()) core.info = info;
    core.cpus.push_back(cpu);
  }
  std::vector<Core> cores;
  for (auto& [key, core] : by_siblings) cores.push_back(std::move(core));
  std::sort(cores.begin(), cores.end(), [](const Core& a, const Core& b) { return core_rank(a) < core_rank(b); });
  return cores;
}

ThreadPinning describe(int thread, int cpu, const machine::Topology& topo) {
  ThreadPinning p;
  p.thread = thread;
  p.cpu = cpu;
  if (const machine::Cpu* info = topo.find(cpu)) {
    p.core = info->core;
    p.package = info->package;
    p.node = info->node;
    p.core_type = machine::core_type_label(info->type);
  }
  return p;
}

std::string plural(int n, const char* noun) { return std::to_string(n) + " " + noun + (n == 1 ? "" : "s"); }

/// The workers' CPUs by -pin cores, cpus or a list; the problem when they do not fit.
std::optional<std::string> choose_worker_cpus(std::string_view spec, int workers, const std::vector<int>& allowed,
                                              const std::vector<Core>& cores, const std::string& mask,
                                              std::vector<int>& worker_cpus) {
  if (spec == "cores") {
    if (workers > static_cast<int>(cores.size()))
      return plural(workers, "worker thread") + ", but this process may run on only " +
             plural(static_cast<int>(cores.size()), "physical core") + " (CPUs " + mask +
             "): run fewer threads, or -pin cpus to put two on one core";
    for (int w = 0; w < workers; ++w) worker_cpus.push_back(cores[static_cast<std::size_t>(w)].cpus.front());
  } else if (spec == "cpus") {
    if (workers > static_cast<int>(allowed.size()))
      return plural(workers, "worker thread") + ", but this process may run on only " +
             plural(static_cast<int>(allowed.size()), "CPU") + " (" + mask + ")";
    // Every core's first sibling before any core's second: siblings share a core
    // only when there are more workers than cores.
    for (std::size_t round = 0; static_cast<int>(worker_cpus.size()) < workers; ++round)
      for (const Core& core : cores)
        if (round < core.cpus.size() && static_cast<int>(worker_cpus.size()) < workers)
          worker_cpus.push_back(core.cpus[round]);
  } else {
    const std::vector<int> listed = *ordered_list(spec);
    for (int c : listed)
      if (!machine::cpus_contain(allowed, c))
        return "CPU " + std::to_string(c) + " is not one this process may run on (" + mask + ")";
    if (static_cast<int>(listed.size()) < workers)
      return plural(static_cast<int>(listed.size()), "CPU") + " for " + plural(workers, "worker thread") +
             ": name one CPU per thread";
    worker_cpus.assign(listed.begin(), listed.begin() + workers);
  }
  return std::nullopt;
}

/// The control thread: off the workers' cores where the mask leaves a core, else
/// off their CPUs, else with them.
void place_control_thread(const machine::Topology& topo, const std::vector<int>& allowed, PinPlan& plan) {
  std::vector<int> used = plan.worker_cpus;
  std::sort(used.begin(), used.end());
  std::vector<int> used_cores = used;
  for (int c : used)
    if (const machine::Cpu* info = topo.find(c)) used_cores.insert(used_cores.end(), info->siblings.begin(), info->siblings.end());
  std::sort(used_cores.begin(), used_cores.end());
  used_cores.erase(std::unique(used_cores.begin(), used_cores.end()), used_cores.end());
  plan.control_cpus = machine::cpus_minus(allowed, used_cores);
  if (plan.control_cpus.empty()) {
    plan.control_cpus = machine::cpus_minus(allowed, used);
    if (!plan.control_cpus.empty())
      plan.record.notes.push_back("the control thread runs on the workers' SMT siblings: no other core is left");
  }
  if (plan.control_cpus.empty())
    plan.record.notes.push_back("the control thread shares the workers' CPUs: no other CPU is left");
}

/// What the result says of the plan (cmh.pinning).
void record_plan(std::string_view spec, const std::string& mask, const machine::Topology& topo, PinPlan& plan) {
  plan.record.mode = std::string(spec);
  plan.record.allowed_cpus = mask;
  plan.record.control_cpus = plan.control_cpus.empty() ? mask : format_cpu_list(plan.control_cpus);
  std::set<std::string> types;
  for (std::size_t w = 0; w < plan.worker_cpus.size(); ++w) {
    plan.record.threads.push_back(describe(static_cast<int>(w), plan.worker_cpus[w], topo));
    if (!plan.record.threads.back().core_type.empty()) types.insert(plan.record.threads.back().core_type);
  }
  if (types.size() > 1)
    plan.record.notes.push_back("the workers run on both performance and efficiency cores, whose speeds differ");
}

}  // namespace

std::optional<std::string> pin_spec_problem(std::string_view spec) {
  if (spec == "none" || spec == "cpus" || spec == "cores") return std::nullopt;
  if (spec.empty() || !ordered_list(spec))
    return "\"" + std::string(spec) + "\" is not none, cpus, cores or a CPU list such as 0,2-3";
  const auto cpus = *ordered_list(spec);
  std::set<int> seen;
  for (int c : cpus)
    if (!seen.insert(c).second) return "CPU " + std::to_string(c) + " is listed twice in " + std::string(spec);
  return std::nullopt;
}

bool pins_workers(std::string_view spec) { return !spec.empty() && spec != "none"; }

PinOutcome plan_pinning(std::string_view spec, int workers, const machine::Topology& topo,
                        const std::vector<int>& allowed_in) {
  PinOutcome out;
  const std::string where = "-pin " + std::string(spec) + ": ";
  if (auto problem = pin_spec_problem(spec)) {
    out.error = where + *problem;
    return out;
  }
  std::vector<int> allowed = allowed_in;
  std::sort(allowed.begin(), allowed.end());
  allowed.erase(std::unique(allowed.begin(), allowed.end()), allowed.end());
  if (allowed.empty()) {
    out.error = where + "this process's CPU affinity mask cannot be read";
    return out;
  }
  const std::string mask = format_cpu_list(allowed);
  PinPlan plan;
  if (auto problem = choose_worker_cpus(spec, workers, allowed, cores_of(topo, allowed), mask, plan.worker_cpus)) {
    out.error = where + *problem;
    return out;
  }
  place_control_thread(topo, allowed, plan);
  record_plan(spec, mask, topo, plan);
  out.plan = std::move(plan);
  return out;
}

std::vector<int> cpus_besides_workers(const Pinning& pinning, const std::vector<int>& allowed) {
  std::vector<int> workers;
  for (const auto& t : pinning.threads) workers.push_back(t.cpu);
  std::sort(workers.begin(), workers.end());
  std::vector<int> rest = machine::cpus_minus(allowed, workers);
  return rest.empty() ? allowed : rest;
}

std::string pinning_summary(const Pinning& pinning) {
  std::string out;
  for (const auto& t : pinning.threads) {
    out += (out.empty() ? "thread " : ", thread ") + std::to_string(t.thread) + " on CPU " + std::to_string(t.cpu);
    std::string where;
    if (t.core >= 0) where += "core " + std::to_string(t.core);
    if (!t.core_type.empty()) where += (where.empty() ? "" : " ") + t.core_type;
    if (t.node >= 0) where += (where.empty() ? "" : ", ") + std::string("node ") + std::to_string(t.node);
    if (!where.empty()) out += " (" + where + ")";
  }
  out += "; control thread on " + pinning.control_cpus;
  for (const auto& n : pinning.notes) out += "; " + n;
  return out;
}

ProcessAffinityScope::ProcessAffinityScope(const std::vector<int>& cpus) : cpus_(cpus) { move_others({}); }

void ProcessAffinityScope::move_others(const std::vector<int>& keep) {
  if (cpus_.empty()) return;
  for (int tid : machine::process_threads()) {
    if (std::find(keep.begin(), keep.end(), tid) != keep.end()) continue;
    if (std::any_of(previous_.begin(), previous_.end(), [&](const auto& p) { return p.first == tid; })) continue;
    std::vector<int> before = machine::thread_affinity(tid);
    if (!before.empty() && machine::set_thread_affinity(cpus_, tid) == 0) previous_.emplace_back(tid, std::move(before));
  }
}

ProcessAffinityScope::~ProcessAffinityScope() {
  for (const auto& [tid, cpus] : previous_) machine::set_thread_affinity(cpus, tid);  // ESRCH: it has ended
}

}  // namespace cmh::engine
