// SPDX-License-Identifier: MIT
// The CPUs of a machine as sysfs describes them: which logical CPUs share a
// physical core (SMT siblings), package and NUMA node, the performance and
// efficiency cores of hybrid CPUs, and the CPUs isolated from the scheduler.
// The pinning of worker threads (-pin) and cmh-system's C-state and IRQ knobs
// read it.
#pragma once

#include <string>
#include <vector>

#include <cmh/machine/sys_tree.hpp>

namespace cmh::machine {

enum class CoreType { unknown, performance, efficiency };

/// "P", "E" or "" (not a hybrid CPU).
const char* core_type_label(CoreType type);

struct Cpu {
  int id = 0;
  int core = -1;     ///< topology/core_id: unique within its package only
  int package = -1;  ///< topology/physical_package_id
  int node = -1;     ///< NUMA node; -1 when the kernel has no node directories
  /// The logical CPUs of its physical core, itself included (thread_siblings_list).
  std::vector<int> siblings;
  CoreType type = CoreType::unknown;
  bool isolated = false;   ///< isolcpus= / cpu/isolated
  bool nohz_full = false;  ///< nohz_full=
};

struct Topology {
  std::vector<Cpu> cpus;  ///< the online CPUs, by id
  bool hybrid = false;    ///< performance and efficiency cores both present

  const Cpu* find(int id) const;
  std::vector<int> ids() const;
};

/// Reads /sys/devices/system/cpu (online, topology/, isolated, nohz_full),
/// /sys/devices/system/node/node*/cpulist and the hybrid PMUs' cpus lists
/// (/sys/devices/cpu_core/cpus, /sys/devices/cpu_atom/cpus), or cpu_capacity where
/// those are absent (Arm big.LITTLE). A CPU without topology files is its own core.
Topology read_topology(const SysTree& tree);

/// The CPUs a thread may run on (sched_getaffinity): its cpuset and any taskset/numactl
/// binding applied. `tid` 0 is the calling thread; empty when it cannot be read.
std::vector<int> thread_affinity(int tid = 0);

/// Sets a thread's affinity (`tid` 0: the calling thread); 0 or the errno.
int set_thread_affinity(const std::vector<int>& cpus, int tid = 0);

/// The thread ids of this process (/proc/self/task).
std::vector<int> process_threads();

}  // namespace cmh::machine
