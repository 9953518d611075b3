// SPDX-License-Identifier: MIT
// How long a fork may take to start before the host reports it hung (issue 24).
//
// "Started" means the fork's handshake arrived: by then it has been exec'd, run its
// static initialisation (the benchmarks' registration, the bundled allocator's
// start-up with its -XX:+AlwaysPreTouch touch threads) and entered main(). What
// follows (the plan, the trial's own set-up fixtures, then the first iteration) is
// the benchmark's time, bounded by -to as before. The bound is the sum of
//  - a base: -forkStartTimeout as given, or automatically at least kStartFloor, or
//    kStartupMultiple times this process's own start-up where that is longer (the
//    fork repeats it: same image, same static initialisation, same machine), times
//    kWrappedMultiple when a profiler's command (valgrind) wraps the fork;
//  - an allowance for pre-touching the fork's -Xms heap: its size over the page
//    population rate measured once per run here, times kPretouchSafety.
#pragma once

#include <cmh/options.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cmh::forking {

inline constexpr Nanos kStartFloor = std::chrono::seconds(5);
inline constexpr int kStartupMultiple = 10;
inline constexpr int kWrappedMultiple = 10;
inline constexpr int kPretouchSafety = 10;

/// What the bound is computed from.
struct StartBoundInputs {
  std::optional<Nanos> configured;   ///< -forkStartTimeout; nullopt: automatic
  Nanos host_startup{0};             ///< this process's start-up (process_age() at main)
  bool wrapped = false;              ///< a profiler's command prefix runs the fork
  std::uint64_t pretouch_bytes = 0;  ///< the -Xms heap the fork pre-touches (0: none)
  double population_rate = 0;        ///< bytes per second measured here (0: unknown)
};

struct StartBound {
  Nanos base{0};      ///< -forkStartTimeout, or the automatic base
  bool automatic = true;
  Nanos host_startup{0};  ///< what the automatic base scaled with
  bool wrapped = false;   ///< ... and whether it was multiplied for a wrapper
  Nanos pretouch{0};  ///< the pre-touch allowance (0 without pre-touch)
  std::uint64_t pretouch_bytes = 0;
  double population_rate = 0;

  Nanos total() const;
  /// "5 s", "5 s + 0.6 s to pre-touch its 256 MiB -Xms heap": for the failure message.
  std::string describe() const;
  /// The -v EXTRA line: the parts and where they come from.
  std::string explain() const;
};

/// The bound for one fork (pure; saturates rather than overflows).
StartBound start_bound(const StartBoundInputs& in);

/// The bound of a fork started with these environment overrides (its CMH_ALLOC is the
/// last override of that name, else the one it inherits), under a wrapper or not;
/// measures the population rate the first time a fork pre-touches.
StartBound fork_start_bound(std::optional<Nanos> configured, Nanos host_startup, bool wrapped,
                            const std::vector<std::pair<std::string, std::string>>& env_overrides);

/// How long the host waits for a debugger to take a hung fork's stacks: at least
/// 10 s, or kStartupMultiple times this process's start-up (an emulated guest runs
/// gdb slowly too).
Nanos stack_time_limit(Nanos host_startup);

/// This process's age: from the kernel's start time (/proc/self/stat) to now. Called at
/// the start of main(), it is the process's start-up (exec, dynamic linking, static
/// initialisation); 0 if it cannot be read.
Nanos process_age();

/// Bytes per second at which this machine backs fresh anonymous memory in 4 KiB pages
/// (MADV_POPULATE_WRITE, or a write per page), measured once per process on a 32 MiB
/// mapping and cached; 0 when the measurement could not be made.
double population_rate();

/// The bytes a fork with this CMH_ALLOC value pre-touches at start-up: its -Xms (at
/// most its -Xmx) with -XX:+AlwaysPreTouch on the bundled allocator, else 0. Read as
/// the allocator reads it: the last of each flag wins; what it does not know is skipped.
std::uint64_t pretouch_bytes(std::string_view cmh_alloc);

}  // namespace cmh::forking
