// SPDX-License-Identifier: MIT
// The host side of -prof icount: after each fork, the same benchmark runs again in a
// fork under Callgrind, with counted iterations instead of timed ones, and its counts
// per op become the fork's results.
//
// That fork is started like any other (forking::run_extra_fork: same plan, same fork
// arguments, same watchdog), behind a command prefix
//   setarch -R env -i <fixed environment> valgrind --tool=callgrind --instr-atstart=no ...
// so that it runs without address-space randomisation and with the same environment
// every time: PATH=/usr/local/bin:/usr/bin:/bin, LC_ALL=C, the host's CMH_* variables,
// and what the fork arguments set (-D<NAME>=, CMH_ALLOC, LD_PRELOAD), with the bundled
// allocator's timed purge thread off (-XX:-BackgroundPurge, unless asked for). Its plan differs in
// the iterations only: at most one warmup and two measurement iterations of `calls`
// calls each, no -prec, no -subwin, and a timeout of at least ten minutes.
#pragma once

#include <cmh/params.hpp>
#include <cmh/result.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cmh::profilers {

struct IcountSettings {
  std::uint64_t calls = 100;  ///< calls per worker thread per iteration
  bool branch = false;        ///< --branch-sim=yes: icount.branchmiss.norm
};

inline constexpr int kIcountMaxMeasurements = 2;  ///< counts are deterministic: -i beyond is ignored
inline constexpr int kIcountMaxWarmups = 1;

/// Valgrind as found in PATH: its path and version ("3.19.0"). Looked up once per process.
struct ValgrindInstall {
  std::string path;
  std::string version;
};
/// The installation, or nullopt with `why` set (not in PATH, --version failed).
std::optional<ValgrindInstall> find_valgrind(std::string& why);
/// Cheap (no process started): nullopt if a valgrind executable is in PATH, else why not.
std::optional<std::string> valgrind_missing();

/// The -prof spec the fork under Callgrind gets ("icount:calls=100;branch=false").
std::string icount_spec(const IcountSettings& settings);

/// The plan of the fork under Callgrind (see the file comment).
BenchmarkParams counted_plan(const BenchmarkParams& plan, const IcountSettings& settings);

/// Valgrind's own account of why a program died under it (an unrecognised instruction,
/// a fatal signal and where), one line; "" when its stderr has none.
std::string valgrind_reason(std::string_view stderr_text);

/// Runs the fork under Callgrind for fork `fork_index` of `plan` and returns its icount
/// results, averaged over its measurement iterations, each with a note recording the
/// model (Valgrind version, cache geometry, cycles formula) and the run. Throws
/// ProfilerError with one line when that fork fails (with Valgrind's reason).
std::vector<ScalarResult> count_under_callgrind(const BenchmarkParams& plan, const IcountSettings& settings,
                                                int fork_index);

/// The part of an icount note that says which model the figures come from: figures
/// whose models differ are not comparable (cmh-compare reads the same split).
std::string icount_model_text(const ValgrindInstall& valgrind);

}  // namespace cmh::profilers
