// SPDX-License-Identifier: MIT
// What the machine and the build say about how trustworthy a measurement is:
// the facts (build type, CPU frequency governor, turbo, hypervisor, load) read
// from the compiler, cpuid, /sys and /proc, and the warnings the header prints.
// model::detect_run_context() (environment.cpp) puts both into the RunContext.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cmh::report {

struct EnvironmentFacts {
  std::string build_type;               ///< CMAKE_BUILD_TYPE the harness was built with
  bool optimised = true;                ///< the compiler optimised the harness (__OPTIMIZE__)
  bool sanitized = false;               ///< built with AddressSanitizer
  std::vector<std::string> governors;   ///< distinct cpufreq governors; empty when not exposed
  std::optional<bool> turbo;            ///< nullopt when the kernel does not say
  std::string hypervisor;               ///< "KVM", "hypervisor" (flag only), or empty
  std::optional<double> load_average;   ///< 1-minute load average
  int cpu_count = 0;
};

/// Reads the facts; `root` replaces "/" for /sys and /proc (tests use a fake tree,
/// and then cpuid is not consulted).
EnvironmentFacts probe_environment(const std::filesystem::path& root = "/");

/// One sentence per problem, without the "# *** WARNING:" frame.
std::vector<std::string> environment_warnings(const EnvironmentFacts& facts);

/// The machine's reasons -strict refuses to run for: the governor is not performance,
/// turbo is on, the load is high. Unknown values (a VM without cpufreq) are no reason.
/// Each is the same sentence as its warning.
std::vector<std::string> unfit_machine_reasons(const EnvironmentFacts& facts);

}  // namespace cmh::report
