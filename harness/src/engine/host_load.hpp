// SPDX-License-Identifier: MIT
// The host's steal time and load around an iteration (Linux /proc), read by the
// control thread outside the timed window: evidence, next to each worker's own
// CPU/wall ratio, that the machine rather than the code moved a score.
#pragma once

#include <cmh/result.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace cmh::engine {

/// All CPUs' jiffies from the first line of /proc/stat.
struct CpuTicks {
  std::uint64_t steal = 0;
  std::uint64_t total = 0;
};

/// nullopt where /proc/stat cannot be read or parsed.
std::optional<CpuTicks> read_cpu_ticks();

/// Parses a /proc/stat "cpu" line ("cpu  user nice system idle iowait irq softirq steal ...").
std::optional<CpuTicks> parse_cpu_line(const std::string& line);

/// The iteration's HostLoad from the ticks before and after it and /proc/loadavg.
HostLoad host_load_between(const std::optional<CpuTicks>& before, const std::optional<CpuTicks>& after);

}  // namespace cmh::engine
