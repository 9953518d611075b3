// SPDX-License-Identifier: MIT
// model::detect_run_context(): the executable, compiler, build, CPU, kernel,
// the host's allocator NUMA mode and options (model/allocator_state.cpp), and the
// environment warnings.
#include "report/environment.hpp"
#include "model/system_files.hpp"

#include "model/allocator_state.hpp"
#include "model/run_context.hpp"

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

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif


namespace cmh::report {
namespace {

namespace fs = std::filesystem;

using model::read_first_line;

/// The value of the first "key : value" line of /proc/cpuinfo with that key.
std::string cpuinfo_field(const fs::path& root, std::string_view key) {
  std::ifstream in(root / "proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.pop_back();
    if (name != key) continue;
    const auto start = line.find_first_not_of(' ', colon + 1);
    return start == std::string::npos ? "" : line.substr(start);
  }
  return "";
}

int cpuinfo_processors(const fs::path& root) {
  std::ifstream in(root / "proc/cpuinfo");
  std::string line;
  int count = 0;
  while (std::getline(in, line))
    if (line.rfind("processor", 0) == 0) ++count;
  return count;
}

std::vector<std::string> governors(const fs::path& root) {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root / "sys/devices/system/cpu", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() < 4 || name.rfind("cpu", 0) != 0 ||
        !std::all_of(name.begin() + 3, name.end(), [](char c) { return c >= '0' && c <= '9'; }))
      continue;
    if (auto g = read_first_line(entry.path() / "cpufreq/scaling_governor"); g && !g->empty())
      if (std::find(found.begin(), found.end(), *g) == found.end()) found.push_back(*g);
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::optional<bool> turbo(const fs::path& root) {
  // intel_pstate says "no_turbo"; acpi-cpufreq and amd-pstate say "boost".
  if (auto no_turbo = read_first_line(root / "sys/devices/system/cpu/intel_pstate/no_turbo"))
    return *no_turbo == "0";
  if (auto boost = read_first_line(root / "sys/devices/system/cpu/cpufreq/boost")) return *boost == "1";
  return std::nullopt;
}

std::string hypervisor_from_cpuid() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d) || (c & (1u << 31)) == 0) return "";
  // Leaf 0x40000000 names the hypervisor in ebx, ecx, edx.
  __cpuid(0x40000000, a, b, c, d);
  char vendor[13] = {};
  for (int i = 0; i < 4; ++i) {
    vendor[i] = static_cast<char>(b >> (8 * i));
    vendor[4 + i] = static_cast<char>(c >> (8 * i));
    vendor[8 + i] = static_cast<char>(d >> (8 * i));
  }
  const std::string_view v(vendor);
  if (v.starts_with("KVMKVMKVM")) return "KVM";
  if (v == "Microsoft Hv") return "Hyper-V";
  if (v == "VMwareVMware") return "VMware";
  if (v == "XenVMMXenVMM") return "Xen";
  if (v == "TCGTCGTCGTCG") return "QEMU TCG";
  if (v == "ACRNACRNACRN") return "ACRN";
  if (v == "bhyve bhyve ") return "bhyve";
  return "hypervisor";
#else
  return "";
#endif
}

std::string hypervisor(const fs::path& root, bool use_cpuid) {
  if (use_cpuid)
    if (auto name = hypervisor_from_cpuid(); !name.empty()) return name;
  const std::string flags = " " + cpuinfo_field(root, "flags") + " ";
  return flags.find(" hypervisor ") != std::string::npos ? "hypervisor" : "";
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
  f.governors = governors(root);
  f.turbo = turbo(root);
  f.hypervisor = hypervisor(root, real_root);
  f.load_average = load_average(root);
  f.cpu_count = real_root ? static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN)) : cpuinfo_processors(root);
  return f;
}

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
  std::vector<std::string> slow_governors;
  for (const auto& g : f.governors)
    if (g != "performance") slow_governors.push_back(g);
  if (!slow_governors.empty()) {
    std::string names;
    for (const auto& g : slow_governors) names += (names.empty() ? "'" : ", '") + g + "'";
    w.push_back(fmt::format("The CPU frequency governor is {}, not 'performance': the clock may change during "
                            "the run.",
                            names));
  }
  if (f.turbo.value_or(false))
    w.push_back("CPU turbo boost is on: the clock depends on temperature and on the load of the other cores.");
  if (!f.hypervisor.empty()) {
    const std::string what = f.hypervisor == "hypervisor" ? "a hypervisor" : "a hypervisor (" + f.hypervisor + ")";
    w.push_back("Running under " + what +
                ": other guests and the host steal time, timers and counters may be virtualised.");
  }
  if (f.load_average) {
    const double threshold = std::max(1.0, 0.5 * std::max(f.cpu_count, 1));
    if (*f.load_average > threshold)
      w.push_back(fmt::format("The load average is high ({:.2f} over the last minute on {} CPU{}): other "
                              "processes compete with the benchmark.",
                              *f.load_average, f.cpu_count, f.cpu_count == 1 ? "" : "s"));
  }
  return w;
}

}  // namespace cmh::report

namespace cmh::model {

RunContext detect_run_context() {
  namespace fs = std::filesystem;
  RunContext ctx;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  ctx.executable = ec ? "unknown" : exe.string();
  ctx.compiler = report::compiler_name();
  ctx.compiler_flags = CMH_CXX_FLAGS;
  ctx.cmh_version = CMH_VERSION_STRING;
  ctx.cpu_model = report::cpuinfo_field("/", "model name");
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
  ctx.custom = detail::custom_context();
  return ctx;
}

}  // namespace cmh::model
