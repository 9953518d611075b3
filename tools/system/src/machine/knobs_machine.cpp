// SPDX-License-Identifier: MIT
// The machine itself: a VM or not, a hardware PMU or not, mains or battery.
// Facts tune cannot change, shown because they bound what a result can mean.
#include <string>

#include "machine/knob_parts.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace cmh::machine {

namespace {

using namespace parts;

Knob machine_knob(std::string id, std::string name, std::string wanted, std::string why) {
  return make_knob("Machine", std::move(id), std::move(name), std::move(wanted), std::move(why));
}

std::string hypervisor_from_cpuid() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d) || (c & (1u << 31)) == 0) return "";
  // Leaf 0x40000000 names the hypervisor in ebx, ecx, edx.
  __cpuid(0x40000000, a, b, c, d);
  char vendor[13] = {};
  for (int i = 0; i < 4; ++i) {
    vendor[i] = static_cast<char>(b >> (8 * i));
    vendor[4 + i] = static_cast<char>(c >> (8 * i));
    vendor[8 + i] = static_cast<char>(d >> (8 * i));
  }
  const std::string_view v(vendor);
  if (v.starts_with("KVMKVMKVM")) return "KVM";
  if (v == "Microsoft Hv") return "Hyper-V";
  if (v == "VMwareVMware") return "VMware";
  if (v == "XenVMMXenVMM") return "Xen";
  if (v == "TCGTCGTCGTCG") return "QEMU TCG";
  if (v == "ACRNACRNACRN") return "ACRN";
  if (v == "bhyve bhyve ") return "bhyve";
  return "hypervisor";
#else
  return "";
#endif
}

void add_vm(const SysTree& tree, std::vector<Knob>& out) {
  Knob k = machine_knob("machine.vm", "virtual machine", "bare metal",
                        "In a VM the host and other guests steal time, and timers and counters may be emulated: a "
                        "result describes that VM on that host at that time.");
  const std::string name = hypervisor(tree);
  const auto vendor = tree.line("/sys/class/dmi/id/sys_vendor");
  if (name.empty()) {
    set_reading(k, "no (no hypervisor flag in cpuid or /proc/cpuinfo)", "no", true);
  } else {
    std::string now = name == "hypervisor" ? std::string("yes (hypervisor flag)") : "yes (" + name + ")";
    if (vendor && !vendor->empty()) now += ", " + *vendor;
    set_reading(k, now, name == "hypervisor" ? "yes" : name, false);
    k.advice = "not a setting: compare results from the same kind of machine only";
  }
  out.push_back(std::move(k));
}

void add_pmu(const SysTree& tree, std::vector<Knob>& out) {
  const std::string dir = "/sys/bus/event_source/devices";
  Knob k = machine_knob("machine.pmu", "hardware performance counters (PMU)", "available",
                        "Without a CPU PMU, -prof perf can count only software events (no cycles, instructions or "
                        "cache misses) and sampling falls back to a timer.");
  const auto sources = tree.list(dir);
  if (sources.empty()) {
    set_unknown(k, dir + " does not exist or is empty (no perf_events in this kernel, or /sys not mounted)");
    out.push_back(std::move(k));
    return;
  }
  std::string found;
  for (const auto& s : sources)
    if (s == "cpu" || s == "cpu_core" || s == "cpu_atom" || s.rfind("armv", 0) == 0 || s.rfind("arm_", 0) == 0)
      found += (found.empty() ? "" : ", ") + s;
  if (found.empty()) {
    set_reading(k, "none (" + dir + " has no CPU PMU: a VM without a virtual PMU?)", "none", false);
    k.advice = "not a setting here: a VM needs its host to expose a PMU";
  } else {
    set_reading(k, "available (" + found + ")", "available", true);
  }
  out.push_back(std::move(k));
}

void add_power(const SysTree& tree, std::vector<Knob>& out) {
  const std::string dir = "/sys/class/power_supply";
  Knob k = machine_knob("machine.power", "power supply", "mains",
                        "On battery, laptops cap the clock and the power budget to last longer.");
  if (!tree.exists(dir)) {
    set_unknown(k, dir + " does not exist (usual for VMs and containers)");
    out.push_back(std::move(k));
    return;
  }
  bool mains_online = false, battery_discharging = false, any = false;
  std::string batteries;
  for (const auto& name : tree.list(dir)) {
    const std::string base = dir + "/" + name;
    const auto type = tree.line(base + "/type");
    if (!type) continue;
    any = true;
    if (*type == "Mains" && tree.line(base + "/online").value_or("0") == "1") mains_online = true;
    if (*type == "Battery") {
      const std::string status = tree.line(base + "/status").value_or("unknown");
      batteries += (batteries.empty() ? "" : ", ") + name + " " + status;
      if (status == "Discharging") battery_discharging = true;
    }
  }
  if (!any) {
    set_reading(k, "none listed (a desktop, server or VM)", "none listed", true);
  } else if (battery_discharging || (!mains_online && !batteries.empty())) {
    set_reading(k, "battery (" + batteries + ")", "battery", false);
    k.advice = "plug the machine in";
  } else {
    set_reading(k, mains_online ? "mains" : "unknown source (" + batteries + ")", "mains", true);
  }
  out.push_back(std::move(k));
}

}  // namespace

std::string cpuinfo_field(const SysTree& tree, std::string_view key) {
  const FileRead r = tree.read("/proc/cpuinfo");
  if (!r.content) return "";
  std::string_view text = *r.content;
  while (!text.empty()) {
    const auto end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view name = line.substr(0, colon);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
    if (name != key) continue;
    const auto start = line.find_first_not_of(' ', colon + 1);
    return start == std::string_view::npos ? "" : std::string(line.substr(start));
  }
  return "";
}

std::string hypervisor(const SysTree& tree) {
  if (tree.is_live())
    if (auto name = hypervisor_from_cpuid(); !name.empty()) return name;
  const std::string flags = " " + cpuinfo_field(tree, "flags") + " ";
  if (flags.find(" hypervisor ") != std::string::npos) return "hypervisor";
  if (const auto type = tree.line("/sys/hypervisor/type"); type && !type->empty()) return *type;
  return "";
}

void add_machine_knobs(const SysTree& tree, std::vector<Knob>& out) {
  add_vm(tree, out);
  add_pmu(tree, out);
  add_power(tree, out);
}

}  // namespace cmh::machine
