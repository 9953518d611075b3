// SPDX-License-Identifier: MIT
// The knobs of a Linux machine that move benchmark results: each with its current
// value, the value a benchmark wants, why it matters, and the file writes that
// would set it. cmh-system show prints them, tune performs the writes, and the
// harness records a summary of them in every result (cmh.environment).
//
// Reading never changes anything. A knob that cannot be read is "unknown" with
// the reason (the file does not exist, permission denied, ...).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <cmh/machine/sys_tree.hpp>

namespace cmh::machine {

enum class KnobStatus {
  ok,       ///< already what a benchmark wants
  differs,  ///< not what a benchmark wants (writes set it, or advice says how)
  unknown,  ///< cannot be read here: unknown_reason says why
  info,     ///< a fact with no wanted value (e.g. IRQs when no benchmark CPUs were named)
};

/// One file write of tune: `value` is written to `path` (absolute in the tree).
struct KnobWrite {
  std::string path;
  std::string value;
};

struct Knob {
  std::string id;        ///< stable key, "cpu.governor"
  std::string section;   ///< "CPU", "Memory and kernel", "Machine"
  std::string name;      ///< "frequency governor"
  std::string current;   ///< "schedutil", or "unknown"
  /// The short form results carry (cmh.environment): "performance", "off", "unknown".
  std::string value;
  std::string wanted;    ///< "performance"
  std::string why;       ///< one sentence: what it does to a measurement
  std::string unknown_reason;
  /// When it differs and tune cannot set it: what to do instead.
  std::string advice;
  KnobStatus status = KnobStatus::info;
  /// What tune writes to reach `wanted`, in order; empty when tune leaves it alone.
  std::vector<KnobWrite> writes;
};

struct KnobOptions {
  /// CPUs to keep interrupts off (cmh-system tune --cpus); empty: IRQs are only shown.
  std::vector<int> benchmark_cpus;
};

/// Every knob, in show's order. `tree` is "/" or a fake or mounted tree.
std::vector<Knob> read_knobs(const SysTree& tree, const KnobOptions& options = {});

/// The knob with this id, or nullptr.
const Knob* find_knob(const std::vector<Knob>& knobs, const std::string& id);

/// The distinct frequency governors of the online CPUs, sorted; empty without cpufreq.
std::vector<std::string> cpu_governors(const SysTree& tree);
/// Whether turbo/boost is on: intel_pstate/no_turbo, else cpufreq/boost (AMD and
/// acpi-cpufreq), else the policies' own boost files; nullopt when nothing says.
std::optional<bool> boost_enabled(const SysTree& tree);
/// The value of the first "key : value" line of /proc/cpuinfo with that key, or "".
std::string cpuinfo_field(const SysTree& tree, std::string_view key);
/// The hypervisor's name: "KVM", "Hyper-V", ... from cpuid on a live tree, else
/// "hypervisor" for the cpuinfo flag alone, or /sys/hypervisor/type; "" on bare metal.
std::string hypervisor(const SysTree& tree);

/// The state file cmh-system tune writes unless told otherwise (under the tree's root).
inline constexpr const char* kDefaultStateFile = "/var/lib/cmh/system-state.json";

// The readers, one per area (knobs_cpu.cpp, knobs_kernel.cpp, knobs_machine.cpp).
void add_cpu_knobs(const SysTree& tree, const KnobOptions& options, std::vector<Knob>& out);
void add_kernel_knobs(const SysTree& tree, std::vector<Knob>& out);
void add_machine_knobs(const SysTree& tree, std::vector<Knob>& out);

}  // namespace cmh::machine
