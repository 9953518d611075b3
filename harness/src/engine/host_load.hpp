// SPDX-License-Identifier: MIT
// The host around an iteration (Linux /proc), read by the control thread outside the
// timed window: steal time, load, and how much of this process's allowed CPUs other
// processes used. Evidence, next to each worker's own CPU/wall ratio and run-queue
// wait, that the machine rather than the code moved a score.
#pragma once

#include <cmh/result.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cmh::engine {

/// Fewer ticks than this per allowed CPU over an iteration leave others' and the idle
/// share unknown: at USER_HZ 100 one tick is 10 ms, and a handful of ticks is noise.
inline constexpr std::uint64_t kMinShareTicks = 20;

/// All CPUs' jiffies from the first line of /proc/stat.
struct CpuTicks {
  std::uint64_t steal = 0;
  std::uint64_t total = 0;
};

/// The summed jiffies of a set of CPUs (the per-CPU "cpuN" lines of /proc/stat).
struct CpuSetTicks {
  std::uint64_t total = 0;  ///< user nice system idle iowait irq softirq steal
  std::uint64_t idle = 0;   ///< idle and iowait
  int cpus = 0;             ///< how many of the wanted CPUs had a line
};

/// nullopt where /proc/stat cannot be read or parsed.
std::optional<CpuTicks> read_cpu_ticks();

/// Parses a /proc/stat "cpu" line ("cpu  user nice system idle iowait irq softirq steal ...").
std::optional<CpuTicks> parse_cpu_line(const std::string& line);

/// Sums the "cpuN" lines of a whole /proc/stat text for the CPUs in `cpus`; nullopt when
/// none of them has a line with at least the eight fields up to steal.
std::optional<CpuSetTicks> parse_cpu_set(std::string_view proc_stat, const std::vector<int>& cpus);

/// What the control thread reads at each edge of an iteration.
struct HostSample {
  std::optional<CpuTicks> all;      ///< the whole machine (steal)
  std::optional<CpuSetTicks> mine;  ///< the process's allowed CPUs
  std::int64_t process_cpu_ns = -1; ///< CLOCK_PROCESS_CPUTIME_ID; -1 unknown
};

/// Reads /proc/stat once, the calling thread's affinity mask and the process CPU clock.
HostSample read_host_sample();

/// Others' and the idle share of a CPU set between two samples, written into `h`
/// (left NaN when unknown or when fewer than kMinShareTicks ticks per CPU passed).
/// `tick_ns` is the length of one /proc/stat tick.
void cpu_shares_between(const HostSample& before, const HostSample& after, double tick_ns, HostLoad& h);

/// The iteration's HostLoad from the ticks before and after it and /proc/loadavg.
HostLoad host_load_between(const std::optional<CpuTicks>& before, const std::optional<CpuTicks>& after);

/// The same, with others' and the idle share of the process's CPUs.
HostLoad host_load_between(const HostSample& before, const HostSample& after);

}  // namespace cmh::engine
