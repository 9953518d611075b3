// SPDX-License-Identifier: MIT
// See fake_tree.hpp. The file contents are as the kernel prints them (trailing
// newline included), written from the sysfs/procfs documentation.
#include "fake_tree.hpp"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <sstream>

namespace cmh::testing {

namespace fs = std::filesystem;

namespace {

std::atomic<int> g_counter{0};

void cpu_common(const FakeTree& t, int cpu, int core, int package, const std::string& siblings) {
  const std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(cpu);
  t.file(dir + "/topology/core_id", std::to_string(core) + "\n");
  t.file(dir + "/topology/physical_package_id", std::to_string(package) + "\n");
  t.file(dir + "/topology/thread_siblings_list", siblings + "\n");
}

void idle_state(const FakeTree& t, int cpu, int index, const std::string& name, int latency) {
  const std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/cpuidle/state" + std::to_string(index);
  t.file(dir + "/name", name + "\n");
  t.file(dir + "/latency", std::to_string(latency) + "\n");
  t.file(dir + "/disable", "0\n");
}

/// A CPU under intel_pstate or amd-pstate in active mode: powersave, EPP balance_performance.
void hwp_cpufreq(const FakeTree& t, int cpu) {
  const std::string freq = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/cpufreq/";
  t.file(freq + "scaling_governor", "powersave\n");
  t.file(freq + "scaling_available_governors", "performance powersave\n");
  t.file(freq + "energy_performance_preference", "balance_performance\n");
  t.file(freq + "energy_performance_available_preferences",
         "default performance balance_performance balance_power power\n");
}

void kernel_files(const FakeTree& t, const std::string& thp, const std::string& numa, const std::string& aslr,
                  const std::string& paranoid, const std::string& rate, const std::string& nmi) {
  t.file("/sys/kernel/mm/transparent_hugepage/enabled", thp);
  t.file("/sys/kernel/mm/transparent_hugepage/defrag", "always defer defer+madvise [madvise] never\n");
  if (!numa.empty()) t.file("/proc/sys/kernel/numa_balancing", numa);
  t.file("/proc/sys/kernel/randomize_va_space", aslr);
  t.file("/proc/sys/kernel/perf_event_paranoid", paranoid);
  t.file("/proc/sys/kernel/perf_event_max_sample_rate", rate);
  t.file("/proc/sys/kernel/nmi_watchdog", nmi);
}

}  // namespace

FakeTree::FakeTree() {
  root_ = fs::temp_directory_path() /
          ("cmh-system-test-" + std::to_string(::getpid()) + "-" + std::to_string(g_counter.fetch_add(1)));
  fs::remove_all(root_);
  fs::create_directories(root_);
}

FakeTree::~FakeTree() {
  std::error_code ec;
  fs::remove_all(root_, ec);
}

void FakeTree::file(const std::string& absolute, const std::string& content) const {
  const fs::path p = root_ / absolute.substr(1);
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << content;
}

std::string FakeTree::read(const std::string& absolute) const {
  std::ifstream in(root_ / absolute.substr(1), std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::map<std::string, std::string> FakeTree::snapshot() const {
  std::map<std::string, std::string> files;
  for (const char* top : {"sys", "proc"}) {
    std::error_code ec;
    if (!fs::exists(root_ / top, ec)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root_ / top))
      if (e.is_regular_file()) files["/" + fs::relative(e.path(), root_).string()] = read("/" + fs::relative(e.path(), root_).string());
  }
  return files;
}

void intel_laptop(const FakeTree& t) {
  const std::string cpu = "/sys/devices/system/cpu";
  t.file(cpu + "/online", "0-5\n");
  t.file(cpu + "/isolated", "\n");
  t.file(cpu + "/smt/control", "on\n");
  t.file(cpu + "/smt/active", "1\n");
  t.file(cpu + "/intel_pstate/no_turbo", "0\n");
  t.file(cpu + "/intel_pstate/status", "active\n");
  t.file(cpu + "/cpuidle/current_driver", "intel_idle\n");
  t.file("/sys/devices/cpu_core/cpus", "0-3\n");
  t.file("/sys/devices/cpu_atom/cpus", "4-5\n");
  t.file("/sys/devices/system/node/node0/cpulist", "0-5\n");
  const char* siblings[] = {"0-1", "0-1", "2-3", "2-3", "4", "5"};
  const int cores[] = {0, 0, 4, 4, 8, 9};
  for (int c = 0; c < 6; ++c) {
    cpu_common(t, c, cores[c], 0, siblings[c]);
    hwp_cpufreq(t, c);
    idle_state(t, c, 0, "POLL", 0);
    idle_state(t, c, 1, "C1_ACPI", 1);
    idle_state(t, c, 2, "C2_ACPI", 127);
    idle_state(t, c, 3, "C10", 890);
  }
  kernel_files(t, "[always] madvise never\n", "1\n", "2\n", "4\n", "1\n", "1\n");
  t.file("/proc/cmdline", "BOOT_IMAGE=/boot/vmlinuz-6.1.0 root=/dev/nvme0n1p2 ro quiet\n");
  t.file("/proc/cpuinfo", "processor\t: 0\nmodel name\t: 12th Gen Intel(R) Core(TM) i7-1260P\nflags\t\t: fpu vme sse2 ht\n");
  t.file("/proc/irq/default_smp_affinity", "3f\n");
  t.file("/proc/irq/0/smp_affinity", "3f\n");
  t.file("/proc/irq/9/smp_affinity", "3f\n");
  t.file("/proc/irq/120/smp_affinity", "04\n");
  t.file("/proc/812/comm", "irqbalance\n");
  t.file("/sys/bus/event_source/devices/cpu_core/type", "4\n");
  t.file("/sys/bus/event_source/devices/cpu_atom/type", "10\n");
  t.file("/sys/bus/event_source/devices/software/type", "1\n");
  t.file("/sys/class/power_supply/AC/type", "Mains\n");
  t.file("/sys/class/power_supply/AC/online", "0\n");
  t.file("/sys/class/power_supply/BAT0/type", "Battery\n");
  t.file("/sys/class/power_supply/BAT0/status", "Discharging\n");
}

void amd_server(const FakeTree& t) {
  const std::string cpu = "/sys/devices/system/cpu";
  t.file(cpu + "/online", "0-3\n");
  t.file(cpu + "/smt/control", "on\n");
  t.file(cpu + "/cpufreq/boost", "1\n");
  t.file(cpu + "/amd_pstate/status", "active\n");
  t.file(cpu + "/cpuidle/current_driver", "acpi_idle\n");
  t.file("/sys/devices/system/node/node0/cpulist", "0-1\n");
  t.file("/sys/devices/system/node/node1/cpulist", "2-3\n");
  const char* siblings[] = {"0-1", "0-1", "2-3", "2-3"};
  for (int c = 0; c < 4; ++c) {
    cpu_common(t, c, c / 2, 0, siblings[c]);
    hwp_cpufreq(t, c);
    idle_state(t, c, 0, "POLL", 0);
    idle_state(t, c, 1, "C1", 1);
    idle_state(t, c, 2, "C2", 18);
  }
  kernel_files(t, "always [madvise] never\n", "0\n", "1\n", "2\n", "100000\n", "0\n");
  t.file("/proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 isolcpus=3 nohz_full=3 rcu_nocbs=3\n");
  t.file(cpu + "/isolated", "3\n");
  t.file(cpu + "/nohz_full", "3\n");
  t.file("/proc/cpuinfo", "processor\t: 0\nmodel name\t: AMD EPYC 7763 64-Core Processor\nflags\t\t: fpu vme sse2 ht\n");
  t.file("/proc/irq/default_smp_affinity", "f\n");
  t.file("/proc/irq/0/smp_affinity", "f\n");
  t.file("/sys/bus/event_source/devices/cpu/type", "4\n");
  t.file("/sys/bus/event_source/devices/amd_l3/type", "11\n");
  t.file("/sys/class/power_supply/.keep", "");
}

void vm_without_cpufreq(const FakeTree& t) {
  const std::string cpu = "/sys/devices/system/cpu";
  t.file(cpu + "/online", "0-1\n");
  t.file(cpu + "/isolated", "\n");
  t.file(cpu + "/smt/control", "notsupported\n");
  t.file(cpu + "/cpuidle/current_driver", "haltpoll\n");
  t.file("/sys/devices/system/node/node0/cpulist", "0-1\n");
  for (int c = 0; c < 2; ++c) {
    cpu_common(t, c, c, c, std::to_string(c));
    idle_state(t, c, 0, "POLL", 0);
    idle_state(t, c, 1, "haltpoll idle", 1);
  }
  kernel_files(t, "always [madvise] never\n", "0\n", "2\n", "2\n", "100000\n", "0\n");
  t.file("/proc/cmdline", "console=ttyS0 quiet panic=1\n");
  t.file("/proc/cpuinfo", "processor\t: 0\nmodel name\t: AMD EPYC\nflags\t\t: fpu vme hypervisor\n\nprocessor\t: 1\n");
  t.file("/proc/irq/default_smp_affinity", "3\n");
  t.file("/proc/irq/24/smp_affinity", "3\n");
  t.file("/sys/bus/event_source/devices/software/type", "1\n");
  t.file("/sys/bus/event_source/devices/tracepoint/type", "2\n");
}

}  // namespace cmh::testing
