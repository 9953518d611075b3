// SPDX-License-Identifier: MIT
// model::detect_run_context(): the executable, compiler, build, CPU, kernel,
// the host's allocator NUMA mode and options (model/allocator_state.cpp), and the
// environment warnings.
#include "report/environment.hpp"
#include "model/system_files.hpp"

#include "model/allocator_state.hpp"
#include "model/run_context.hpp"

#include <cmh/common/self_executable.hpp>
#include <cmh/detail/custom_context.hpp>
#include <cmh/version.hpp>
#include <fmt/format.h>

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <system_error>

#include <cmh/machine/environment.hpp>
#include <cmh/machine/knobs.hpp>


namespace cmh::report {
namespace {

namespace fs = std::filesystem;

using model::read_first_line;

int cpuinfo_processors(const fs::path& root) {
  std::ifstream in(root / "proc/cpuinfo");
  std::string line;
  int count = 0;
  while (std::getline(in, line))
    if (line.rfind("processor", 0) == 0) ++count;
  return count;
}

std::optional<double> load_average(const fs::path& root) {
  const auto line = read_first_line(root / "proc/loadavg");
  if (!line) return std::nullopt;
  std::istringstream in(*line);
  double load1 = 0;
  if (!(in >> load1)) return std::nullopt;
  return load1;
}

std::string compiler_name() {
#if defined(__clang__)
  return fmt::format("Clang {}.{}.{}", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
  return fmt::format("GCC {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  return "unknown compiler";
#endif
}

bool compiled_with_asan() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return true;
#else
  return false;
#endif
#else
  return false;
#endif
}

}  // namespace

EnvironmentFacts probe_environment(const fs::path& root) {
  EnvironmentFacts f;
  f.build_type = CMH_BUILD_TYPE;
#if defined(__OPTIMIZE__)
  f.optimised = true;
#else
  f.optimised = false;
#endif
  f.sanitized = compiled_with_asan();
  const bool real_root = root == fs::path("/");
  const machine::SysTree tree(root);
  f.governors = machine::cpu_governors(tree);
  f.turbo = machine::boost_enabled(tree);
  f.hypervisor = machine::hypervisor(tree);
  f.load_average = load_average(root);
  f.cpu_count = real_root ? static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN)) : cpuinfo_processors(root);
  return f;
}

namespace {

std::optional<std::string> governor_warning(const EnvironmentFacts& f) {
  std::vector<std::string> slow_governors;
  for (const auto& g : f.governors)
    if (g != "performance") slow_governors.push_back(g);
  if (slow_governors.empty()) return std::nullopt;
  std::string names;
  for (const auto& g : slow_governors) names += (names.empty() ? "'" : ", '") + g + "'";
  return fmt::format("The CPU frequency governor is {}, not 'performance': the clock may change during the run.",
                     names);
}

std::optional<std::string> turbo_warning(const EnvironmentFacts& f) {
  if (!f.turbo.value_or(false)) return std::nullopt;
  return "CPU turbo boost is on: the clock depends on temperature and on the load of the other cores.";
}

std::optional<std::string> load_warning(const EnvironmentFacts& f) {
  if (!f.load_average) return std::nullopt;
  const double threshold = std::max(1.0, 0.5 * std::max(f.cpu_count, 1));
  if (*f.load_average <= threshold) return std::nullopt;
  return fmt::format("The load average is high ({:.2f} over the last minute on {} CPU{}): other "
                     "processes compete with the benchmark.",
                     *f.load_average, f.cpu_count, f.cpu_count == 1 ? "" : "s");
}

}  // namespace

std::vector<std::string> environment_warnings(const EnvironmentFacts& f) {
  std::vector<std::string> w;
  std::string build = f.build_type;
  std::transform(build.begin(), build.end(), build.begin(), [](unsigned char c) { return std::tolower(c); });
  if (!f.optimised || build == "debug") {
    w.push_back(fmt::format("This is an unoptimised build (build type {}): the numbers say nothing about "
                            "optimised code, rebuild with -DCMAKE_BUILD_TYPE=Release or RelWithDebInfo.",
                            f.build_type.empty() ? "not set" : f.build_type));
  }
  if (f.sanitized)
    w.push_back("This build uses AddressSanitizer: every memory access is instrumented, the numbers are not "
                "representative.");
  if (auto g = governor_warning(f)) w.push_back(*g);
  if (auto t = turbo_warning(f)) w.push_back(*t);
  if (!f.hypervisor.empty()) {
    const std::string what = f.hypervisor == "hypervisor" ? "a hypervisor" : "a hypervisor (" + f.hypervisor + ")";
    w.push_back("Running under " + what +
                ": other guests and the host steal time, timers and counters may be virtualised.");
  }
  if (auto l = load_warning(f)) w.push_back(*l);
  return w;
}

std::vector<std::string> unfit_machine_reasons(const EnvironmentFacts& f) {
  std::vector<std::string> reasons;
  for (auto reason : {governor_warning(f), turbo_warning(f), load_warning(f)})
    if (reason) reasons.push_back(*reason);
  return reasons;
}

}  // namespace cmh::report

namespace cmh::model {

RunContext detect_run_context() {
  RunContext ctx;
  const std::string exe = common::self_executable_path();
  ctx.executable = exe.empty() ? "unknown" : exe;
  ctx.compiler = report::compiler_name();
  ctx.compiler_flags = CMH_CXX_FLAGS;
  ctx.cmh_version = CMH_VERSION_STRING;
  const machine::SysTree live("/");
  ctx.cpu_model = machine::cpuinfo_field(live, "model name");
  if (ctx.cpu_model.empty()) ctx.cpu_model = "unknown";
  ctx.cpu_count = static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN));
  struct utsname un {};
  ctx.kernel = ::uname(&un) == 0 ? fmt::format("{} {}", un.sysname, un.release) : "unknown";

  // The host's own allocator; each fork reports its own (ForkResult::allocator).
  const AllocatorState allocator = detect_allocator_state();
  ctx.numa_mode = allocator.numa_mode;
  ctx.numa_reason = allocator.numa_reason;
  ctx.allocator_options = allocator.options;

  const auto facts = report::probe_environment();
  ctx.build_type = (!facts.optimised || facts.build_type == "Debug") ? "debug" : "release";
  ctx.warnings = report::environment_warnings(facts);
  ctx.environment = machine::environment_summary(live);
  ctx.custom = detail::custom_context();
  return ctx;
}

}  // namespace cmh::model
