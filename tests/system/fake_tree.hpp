// SPDX-License-Identifier: MIT
// Fake /sys and /proc trees for cmh-system and the knob library: an Intel laptop
// (intel_pstate, hybrid P/E cores, SMT), an AMD server (amd-pstate, cpufreq/boost,
// SMT) and a VM without cpufreq (this project's own CI machines). Each is a
// directory of ordinary files under a fresh temporary root.
#pragma once

#include <filesystem>
#include <map>
#include <string>

namespace cmh::testing {

class FakeTree {
 public:
  FakeTree();
  ~FakeTree();
  FakeTree(const FakeTree&) = delete;
  FakeTree& operator=(const FakeTree&) = delete;

  const std::filesystem::path& root() const { return root_; }
  /// Writes `content` to `absolute` ("/sys/...") under the root, creating directories.
  void file(const std::string& absolute, const std::string& content) const;
  std::string read(const std::string& absolute) const;
  /// Every regular file under sys/ and proc/ with its bytes: the state reset must restore.
  std::map<std::string, std::string> snapshot() const;
  std::filesystem::path state_file() const { return root_ / "var/lib/cmh/system-state.json"; }

 private:
  std::filesystem::path root_;
};

/// 6 CPUs: two P-cores with SMT (CPUs 0,1 and 2,3) and two E-cores (4 and 5), as
/// hybrid Intel CPUs number them. intel_pstate active, powersave governor,
/// turbo on, EPP balance_performance, intel_idle C-states down to C10, THP always,
/// NUMA balancing on, perf_event_paranoid 4, max sample rate 1 (pyperf left it), NMI
/// watchdog on, a PMU, on battery.
void intel_laptop(const FakeTree& t);

/// 4 CPUs, cores (0,1) and (2,3), two NUMA nodes, amd-pstate active, cpufreq/boost on,
/// acpi_idle C2 at 18 us, ASLR partial, everything else as wanted.
void amd_server(const FakeTree& t);

/// 2 CPUs, no cpufreq, haltpoll idle, SMT not supported, the hypervisor flag, no
/// PMU, no power supply class: nothing tune can set.
void vm_without_cpufreq(const FakeTree& t);

}  // namespace cmh::testing
