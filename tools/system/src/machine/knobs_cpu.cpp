// SPDX-License-Identifier: MIT
// The CPU knobs: frequency governor, turbo/boost (Intel and AMD), the energy/
// performance preference, C-states, SMT, isolation and interrupt affinity.
//
// Write order matters and is the order here: setting the governor resets
// intel_pstate's no_turbo and the EPP, so those come after it.
#include <algorithm>
#include <cstdlib>
#include <map>

#include <cmh/machine/cpu_list.hpp>
#include "machine/knob_parts.hpp"
#include <cmh/machine/topology.hpp>

namespace cmh::machine {

namespace {

using namespace parts;

/// Idle states that take longer than this to leave are the ones tune disables:
/// C1/C1E (a few microseconds) stay, package and deep core states go.
constexpr int kMaxExitLatencyUs = 10;

Knob cpu_knob(std::string id, std::string name, std::string wanted, std::string why) {
  return make_knob("CPU", std::move(id), std::move(name), std::move(wanted), std::move(why));
}

/// Why a per-CPU cpufreq file could not be read anywhere.
std::string cpufreq_missing(const SysTree& tree, const Topology& topo, const std::string& file,
                            const std::string& first_error) {
  if (topo.cpus.empty()) return std::string(kCpuDir) + " lists no CPUs";
  const std::string dir = cpu_path(topo.cpus.front().id, "cpufreq");
  if (!tree.exists(dir))
    return "no cpufreq driver: " + dir + " does not exist (a VM, or the firmware sets the clock)";
  return cpu_path(topo.cpus.front().id, "cpufreq/" + file) + ": " + first_error;
}

/// Reads one cpufreq file of every CPU; CPUs whose value is not `wanted` get a write
/// of it when `available` (a file listing the accepted values) accepts it.
struct PerCpuReading {
  PerCpu values;
  std::vector<KnobWrite> writes;
  std::vector<int> refused;  ///< CPUs whose available list lacks the wanted value
  std::string first_error;
};

PerCpuReading read_per_cpu(const SysTree& tree, const Topology& topo, const std::string& file,
                           const std::string& available, const std::string& wanted) {
  PerCpuReading r;
  for (const auto& cpu : topo.cpus) {
    const std::string path = cpu_path(cpu.id, "cpufreq/" + file);
    const FileRead read = tree.read(path);
    if (!read.content) {
      if (r.first_error.empty()) r.first_error = read.reason();
      continue;
    }
    const std::string value = first_line(*read.content);
    r.values[value].push_back(cpu.id);
    if (value == wanted) continue;
    const auto accepted = tree.line(cpu_path(cpu.id, "cpufreq/" + available));
    if (accepted && !lists_word(*accepted, wanted))
      r.refused.push_back(cpu.id);
    else
      r.writes.push_back({path, wanted});
  }
  return r;
}

void add_governor(const SysTree& tree, const Topology& topo, std::vector<Knob>& out) {
  Knob k = cpu_knob("cpu.governor", "frequency governor", "performance",
                    "Other governors set the clock from the recent load, so the same code runs at different "
                    "speeds from one iteration to the next; performance holds the highest clock the driver allows.");
  const PerCpuReading r = read_per_cpu(tree, topo, "scaling_governor", "scaling_available_governors", "performance");
  if (r.values.empty()) {
    set_unknown(k, cpufreq_missing(tree, topo, "scaling_governor", r.first_error));
  } else {
    const std::string now = describe(r.values);
    set_reading(k, now, now, r.values.size() == 1 && r.values.begin()->first == "performance");
    k.writes = r.writes;
    if (!r.refused.empty())
      k.advice = "the driver offers no performance governor on CPUs " + format_cpu_list(r.refused) +
                 " (scaling_available_governors)";
  }
  out.push_back(std::move(k));
}

void add_boost(const SysTree& tree, std::vector<Knob>& out) {
  Knob k = cpu_knob("cpu.boost", "turbo / boost", "off",
                    "Turbo clocks depend on temperature, the power budget and how many cores are busy: scores "
                    "then change with the room and with other work, and per-thread speed drops as threads are "
                    "added.");
  const std::string no_turbo = std::string(kCpuDir) + "/intel_pstate/no_turbo";
  const std::string boost = std::string(kCpuDir) + "/cpufreq/boost";
  if (const auto v = tree.line(no_turbo)) {
    const bool on = *v == "0";
    set_reading(k, std::string(on ? "on" : "off") + " (intel_pstate/no_turbo = " + *v + ")", on ? "on" : "off", !on);
    k.writes = {{no_turbo, "1"}};
  } else if (const auto b = tree.line(boost)) {
    const bool on = *b != "0";
    set_reading(k, std::string(on ? "on" : "off") + " (cpufreq/boost = " + *b + ")", on ? "on" : "off", !on);
    k.writes = {{boost, "0"}};
  } else {
    // amd-pstate in active mode (Linux 6.11+) has one boost file per policy.
    PerCpu by_value;
    std::vector<KnobWrite> writes;
    int policy_count = 0;
    for (const auto& name : tree.list(std::string(kCpuDir) + "/cpufreq")) {
      if (name.rfind("policy", 0) != 0) continue;
      const std::string path = std::string(kCpuDir) + "/cpufreq/" + name + "/boost";
      const auto v = tree.line(path);
      if (!v) continue;
      by_value[*v == "0" ? "off" : "on"].push_back(std::atoi(name.c_str() + 6));
      if (*v != "0") writes.push_back({path, "0"});
      ++policy_count;
    }
    if (policy_count == 0) {
      set_unknown(k, "neither " + no_turbo + " nor " + boost +
                         " exists (no driver that controls boost: a VM, or the firmware decides)");
    } else {
      const bool on = by_value.count("on") != 0;
      std::string now = by_value.size() == 1 ? by_value.begin()->first : "";
      if (now.empty())
        for (const auto& [v, policies] : by_value) now += (now.empty() ? "" : "; ") + v + " on policies " + format_cpu_list(policies);
      set_reading(k, now + " (cpufreq/policy*/boost)", on ? "on" : "off", !on);
      k.writes = writes;
    }
  }
  out.push_back(std::move(k));
}

void add_epp(const SysTree& tree, const Topology& topo, std::vector<Knob>& out) {
  Knob k = cpu_knob("cpu.epp", "energy/performance preference", "performance",
                    "With hardware-managed P-states (intel_pstate, amd-pstate active mode) the CPU picks its own "
                    "clock; this hint says how much speed it may trade for energy.");
  const PerCpuReading r = read_per_cpu(tree, topo, "energy_performance_preference",
                                       "energy_performance_available_preferences", "performance");
  if (r.values.empty()) {
    set_unknown(k, r.first_error.empty() || r.first_error == "does not exist"
                       ? "no CPU has cpufreq/energy_performance_preference (only intel_pstate and amd-pstate in "
                         "active mode have one)"
                       : cpufreq_missing(tree, topo, "energy_performance_preference", r.first_error));
  } else {
    std::string now = describe(r.values);
    for (const char* driver : {"amd_pstate", "intel_pstate"})
      if (const auto mode = tree.line(std::string(kCpuDir) + "/" + driver + "/status"))
        now += " (" + std::string(driver) + " " + *mode + ")";
    set_reading(k, now, describe(r.values), r.values.size() == 1 && r.values.begin()->first == "performance");
    k.writes = r.writes;
  }
  out.push_back(std::move(k));
}

void add_cstates(const SysTree& tree, const Topology& topo, std::vector<Knob>& out) {
  Knob k = cpu_knob("cpu.cstates", "idle states (C-states)",
                    "none deeper than " + std::to_string(kMaxExitLatencyUs) + " us exit latency enabled",
                    "Leaving a deep idle state takes up to hundreds of microseconds: a thread that waits (a lock, "
                    "the start of a synchronised iteration) pays it on every wake-up.");
  const auto driver = tree.line(std::string(kCpuDir) + "/cpuidle/current_driver");
  // State name -> (exit latency, CPUs where enabled, CPUs where disabled).
  struct StateInfo {
    int index = 0;
    int latency = 0;
    std::vector<int> enabled, disabled;
  };
  std::map<std::string, StateInfo> states;
  bool any = false;
  for (const auto& cpu : topo.cpus) {
    const std::string dir = cpu_path(cpu.id, "cpuidle");
    for (const auto& entry : tree.list(dir)) {
      if (entry.rfind("state", 0) != 0) continue;
      const std::string base = dir + "/" + entry;
      const auto name = tree.line(base + "/name");
      const auto latency = tree.line(base + "/latency");
      const auto disable = tree.line(base + "/disable");
      if (!name || !latency || !disable) continue;
      any = true;
      StateInfo& s = states[*name];
      s.index = std::atoi(entry.c_str() + 5);
      s.latency = std::atoi(latency->c_str());
      (*disable == "0" ? s.enabled : s.disabled).push_back(cpu.id);
      if (*disable == "0" && s.latency > kMaxExitLatencyUs) k.writes.push_back({base + "/disable", "1"});
    }
  }
  if (!any) {
    const std::string dir = topo.cpus.empty() ? std::string(kCpuDir) : cpu_path(topo.cpus.front().id, "cpuidle");
    set_unknown(k, "no idle states under " + dir + " (no cpuidle driver: the kernel's default idle, or the VM's)");
    out.push_back(std::move(k));
    return;
  }
  std::vector<std::pair<int, std::string>> ordered;
  for (const auto& [name, s] : states) ordered.emplace_back(s.index, name);
  std::sort(ordered.begin(), ordered.end());
  std::string enabled, disabled, deepest = "none";
  int deepest_latency = -1;
  for (const auto& [index, name] : ordered) {
    const StateInfo& s = states[name];
    const std::string label = name + " (" + std::to_string(s.latency) + " us)";
    if (!s.enabled.empty()) {
      enabled += (enabled.empty() ? "" : ", ") + label;
      if (s.latency > deepest_latency) {
        deepest_latency = s.latency;
        deepest = label;
      }
    }
    if (!s.disabled.empty()) disabled += (disabled.empty() ? "" : ", ") + label;
  }
  std::string now = (driver ? *driver + ": " : std::string()) + "enabled " + (enabled.empty() ? "none" : enabled);
  if (!disabled.empty()) now += "; disabled " + disabled;
  set_reading(k, now, "deepest " + deepest, deepest_latency <= kMaxExitLatencyUs);
  out.push_back(std::move(k));
}

void add_smt(const SysTree& tree, const Topology& topo, std::vector<Knob>& out) {
  Knob k = cpu_knob("cpu.smt", "SMT (hyper-threading)", "off, or workers pinned with -pin cores",
                    "Two threads on one core share its execution units and caches: a worker's score depends on "
                    "what runs on its sibling.");
  std::size_t widest = 1;
  for (const auto& c : topo.cpus) widest = std::max(widest, c.siblings.size());
  const std::string control_path = std::string(kCpuDir) + "/smt/control";
  const FileRead control = tree.read(control_path);
  const std::string control_value = control.content ? first_line(*control.content) : "";
  const std::string per_core = std::to_string(widest) + " threads per core";
  if (control_value == "on") {
    set_reading(k, "on (" + per_core + ")", "on", false);
  } else if (control_value == "off" || control_value == "forceoff") {
    set_reading(k, control_value, "off", true);
  } else if (control_value == "notsupported") {
    set_reading(k, "not supported (one thread per core)", "not supported", true);
  } else if (!topo.cpus.empty()) {
    // No control file (old kernel, or "notimplemented"): the siblings say it.
    const bool on = widest > 1;
    set_reading(k, on ? "on (" + per_core + ", from the CPU topology)" : "off (one thread per core, from the CPU topology)",
                on ? "on" : "off", !on);
  } else {
    set_unknown(k, control_path + ": " + (control.content ? "\"" + control_value + "\"" : control.reason()) +
                       ", and no CPU topology to count siblings in");
  }
  if (k.status == KnobStatus::differs)
    k.advice = "run with -pin cores, which leaves each worker's sibling idle; cmh-system does not take CPUs "
               "offline for everyone (as root: echo off > " + control_path + ", until reboot)";
  out.push_back(std::move(k));
}

/// The value of a kernel parameter on the command line ("isolcpus=2-3" -> "2-3"), or "".
std::string boot_parameter(const std::string& cmdline, const std::string& key) {
  std::size_t pos = 0;
  while ((pos = cmdline.find(key + "=", pos)) != std::string::npos) {
    if (pos == 0 || cmdline[pos - 1] == ' ') {
      const auto start = pos + key.size() + 1;
      return cmdline.substr(start, cmdline.find(' ', start) - start);
    }
    ++pos;
  }
  return "";
}

void add_isolation(const SysTree& tree, std::vector<Knob>& out) {
  Knob k = cpu_knob("cpu.isolation", "CPU isolation", "the benchmark CPUs isolated (isolcpus=, nohz_full=, rcu_nocbs=)",
                    "The scheduler's other tasks, the timer tick and RCU callbacks run on every CPU that is not "
                    "isolated and interrupt the benchmark for microseconds at a time.");
  const auto isolated = tree.line(std::string(kCpuDir) + "/isolated");
  const auto nohz = tree.line(std::string(kCpuDir) + "/nohz_full");
  const FileRead cmdline = tree.read("/proc/cmdline");
  if (!isolated && !nohz && !cmdline.content) {
    set_unknown(k, std::string(kCpuDir) + "/isolated and /proc/cmdline cannot be read (" + cmdline.reason() + ")");
    out.push_back(std::move(k));
    return;
  }
  const std::string cmd = cmdline.content ? first_line(*cmdline.content) : "";
  std::vector<std::string> parts;
  auto add = [&](const std::string& label, const std::string& value) {
    if (!value.empty() && value != "(null)") parts.push_back(label + " " + value);
  };
  add("isolated", isolated.value_or(""));
  add("nohz_full", nohz.value_or(boot_parameter(cmd, "nohz_full")));
  add("rcu_nocbs", boot_parameter(cmd, "rcu_nocbs"));
  std::string now;
  for (const auto& p : parts) now += (now.empty() ? "" : "; ") + p;
  const bool isolated_any = !isolated.value_or("").empty() || !nohz.value_or(boot_parameter(cmd, "nohz_full")).empty();
  set_reading(k, now.empty() ? "none" : now, now.empty() ? "none" : now, isolated_any);
  if (!isolated_any)
    k.advice = "boot parameters, not a run-time setting: e.g. isolcpus=2-3 nohz_full=2-3 rcu_nocbs=2-3, then run "
               "under taskset -c 2-3 with -pin cpus";
  out.push_back(std::move(k));
}

bool process_running(const SysTree& tree, const std::string& comm) {
  for (const auto& pid : tree.list("/proc")) {
    if (pid.empty() || !std::all_of(pid.begin(), pid.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
    if (tree.line("/proc/" + pid + "/comm").value_or("") == comm) return true;
  }
  return false;
}

void add_irq_affinity(const SysTree& tree, const Topology& topo, const KnobOptions& options, std::vector<Knob>& out) {
  Knob k = cpu_knob("cpu.irq", "interrupt (IRQ) affinity",
                    options.benchmark_cpus.empty()
                        ? "interrupts off the benchmark CPUs (name them: cmh-system tune --cpus LIST)"
                        : "no interrupt on CPUs " + format_cpu_list(options.benchmark_cpus),
                    "An interrupt handled on a worker's CPU stops the benchmark for its duration and evicts part of "
                    "its caches.");
  std::vector<std::string> irqs;
  for (const auto& name : tree.list("/proc/irq"))
    if (!name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; }))
      irqs.push_back(name);
  const FileRead default_mask = tree.read("/proc/irq/default_smp_affinity");
  if (!default_mask.content) {
    set_unknown(k, "/proc/irq/default_smp_affinity: " + default_mask.reason());
    out.push_back(std::move(k));
    return;
  }
  const bool irqbalance = process_running(tree, "irqbalance");
  const auto default_cpus = parse_cpu_mask(first_line(*default_mask.content)).value_or(std::vector<int>{});
  std::string now = std::to_string(irqs.size()) + " IRQs, default affinity " + format_cpu_list(default_cpus) +
                    ", irqbalance " + (irqbalance ? "running" : "not running");
  if (options.benchmark_cpus.empty()) {
    k.current = now;
    k.value = now;
    k.status = KnobStatus::info;
    out.push_back(std::move(k));
    return;
  }
  const std::vector<int> others = cpus_minus(topo.ids(), options.benchmark_cpus);
  // Each mask that reaches a benchmark CPU loses those CPUs; one that had nothing
  // else gets every other CPU.
  auto rerouted = [&](const std::string& path, const std::string& text) -> bool {
    const auto cpus = parse_cpu_mask(first_line(text));
    if (!cpus || cpus_common(*cpus, options.benchmark_cpus).empty()) return false;
    std::vector<int> kept = cpus_minus(*cpus, options.benchmark_cpus);
    if (kept.empty()) kept = others;
    k.writes.push_back({path, format_cpu_mask(kept, mask_words(text))});
    return true;
  };
  int reaching = 0;
  for (const auto& irq : irqs) {
    const std::string path = "/proc/irq/" + irq + "/smp_affinity";
    if (const FileRead r = tree.read(path); r.content && rerouted(path, *r.content)) ++reaching;
  }
  const bool default_reaches = rerouted("/proc/irq/default_smp_affinity", *default_mask.content);
  if (others.empty()) {
    k.writes.clear();
    k.advice = "--cpus names every online CPU: no CPU is left for interrupts";
  } else if (irqbalance) {
    k.advice = "irqbalance is running and moves interrupts back: stop it for the run (systemctl stop irqbalance)";
  }
  now = std::to_string(reaching) + " of " + std::to_string(irqs.size()) + " IRQs" +
        (default_reaches ? " and the default affinity" : "") + " may run on CPUs " +
        format_cpu_list(options.benchmark_cpus) + "; irqbalance " + (irqbalance ? "running" : "not running");
  set_reading(k, now, now, reaching == 0 && !default_reaches);
  out.push_back(std::move(k));
}

}  // namespace

std::vector<std::string> cpu_governors(const SysTree& tree) {
  std::vector<std::string> found;
  for (const auto& cpu : read_topology(tree).cpus)
    if (auto g = tree.line(parts::cpu_path(cpu.id, "cpufreq/scaling_governor")); g && !g->empty())
      if (std::find(found.begin(), found.end(), *g) == found.end()) found.push_back(*g);
  std::sort(found.begin(), found.end());
  return found;
}

std::optional<bool> boost_enabled(const SysTree& tree) {
  std::vector<Knob> knobs;
  add_boost(tree, knobs);
  if (knobs.front().status == KnobStatus::unknown) return std::nullopt;
  return knobs.front().value == "on";
}

void add_cpu_knobs(const SysTree& tree, const KnobOptions& options, std::vector<Knob>& out) {
  const Topology topo = read_topology(tree);
  add_governor(tree, topo, out);
  add_epp(tree, topo, out);
  add_boost(tree, out);
  add_cstates(tree, topo, out);
  add_smt(tree, topo, out);
  add_isolation(tree, out);
  add_irq_affinity(tree, topo, options, out);
}

}  // namespace cmh::machine
