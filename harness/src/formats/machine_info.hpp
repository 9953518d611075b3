// SPDX-License-Identifier: MIT
// The machine facts Google Benchmark's JSON context block has and RunContext
// does not: host name, clock rate, frequency scaling, caches and load average.
// Collected once, when the gbench writer is created (at start-up, as Google
// Benchmark does), so every rewrite of the file shows the same context.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cmh::formats {

struct CacheInfo {
  std::string type;  ///< "Data", "Instruction", "Unified"
  int level = 0;
  long long size = 0;  ///< bytes
  int num_sharing = 0; ///< logical CPUs sharing this cache
};

struct MachineInfo {
  std::string date;       ///< ISO 8601 local time with offset, "2024-05-01T12:00:00+02:00"
  std::string host_name;
  double mhz_per_cpu = 0;
  std::optional<bool> cpu_scaling_enabled;  ///< empty when the kernel does not say
  std::vector<CacheInfo> caches;
  std::vector<double> load_avg;             ///< 1, 5, 15 minutes
};

/// Reads /sys/devices/system/cpu and /proc; missing facts are left empty or zero.
MachineInfo collect_machine_info();

}  // namespace cmh::formats
