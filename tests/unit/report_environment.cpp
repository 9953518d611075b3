// SPDX-License-Identifier: MIT
// Environment facts and warnings from a fake /sys and /proc tree (governor,
// turbo, hypervisor flag, load average), the build-based warnings, and the
// RunContext of this very process.
#include <doctest/doctest.h>

#include "model/run_context.hpp"
#include "report/environment.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

extern "C" __attribute__((weak)) int cmh_alloc_numa_mode(const char** reason);

namespace fs = std::filesystem;

namespace {

struct FakeRoot {
  fs::path root;
  FakeRoot() {
    root = fs::temp_directory_path() / ("cmh-env-test-" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root / "proc");
  }
  ~FakeRoot() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  void file(const fs::path& rel, const std::string& text) const {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
  }
};

bool mentions(const std::vector<std::string>& warnings, std::string_view what) {
  for (const auto& w : warnings)
    if (w.find(what) != std::string::npos) return true;
  return false;
}

/// The facts of a quiet, optimised machine: the build-based checks are not under test here.
cmh::report::EnvironmentFacts with_release_build(cmh::report::EnvironmentFacts f) {
  f.build_type = "Release";
  f.optimised = true;
  f.sanitized = false;
  return f;
}

}  // namespace

TEST_CASE("environment: a noisy machine gets every warning") {
  FakeRoot fake;
  fake.file("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
  fake.file("sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n");
  fake.file("sys/devices/system/cpu/cpu12/cpufreq/scaling_governor", "schedutil\n");
  fake.file("sys/devices/system/cpu/cpufreq/policy0/scaling_governor", "ignored\n");  // not a cpuN directory
  fake.file("sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
  fake.file("proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme hypervisor lahf_lm\n\nprocessor\t: 1\n");
  fake.file("proc/loadavg", "7.50 3.10 1.00 3/200 12345\n");
  const auto facts = cmh::report::probe_environment(fake.root);
  CHECK(facts.governors == std::vector<std::string>{"performance", "powersave", "schedutil"});
  CHECK(facts.turbo == true);
  CHECK(facts.hypervisor == "hypervisor");
  CHECK(facts.load_average == doctest::Approx(7.5));
  CHECK(facts.cpu_count == 2);
  const auto w = cmh::report::environment_warnings(with_release_build(facts));
  CHECK(w.size() == 4);
  CHECK(mentions(w, "governor is 'powersave', 'schedutil', not 'performance'"));
  CHECK(mentions(w, "turbo boost is on"));
  CHECK(mentions(w, "Running under a hypervisor:"));
  CHECK(mentions(w, "load average is high (7.50 over the last minute on 2 CPUs)"));
}

TEST_CASE("environment: a quiet machine gets none") {
  FakeRoot fake;
  fake.file("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
  fake.file("sys/devices/system/cpu/cpufreq/boost", "0\n");
  fake.file("proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme\n");
  fake.file("proc/loadavg", "0.40 0.30 0.20 1/100 42\n");
  const auto facts = cmh::report::probe_environment(fake.root);
  CHECK(facts.turbo == false);
  CHECK(facts.hypervisor.empty());
  CHECK(cmh::report::environment_warnings(with_release_build(facts)).empty());
}

TEST_CASE("environment: what the kernel does not expose is not guessed") {
  FakeRoot fake;  // no /sys at all, empty /proc
  const auto facts = cmh::report::probe_environment(fake.root);
  CHECK(facts.governors.empty());
  CHECK_FALSE(facts.turbo.has_value());
  CHECK_FALSE(facts.load_average.has_value());
  CHECK(cmh::report::environment_warnings(with_release_build(facts)).empty());
}

TEST_CASE("environment: debug, unoptimised and sanitized builds are called out") {
  cmh::report::EnvironmentFacts f;
  f.build_type = "Debug";
  auto w = cmh::report::environment_warnings(f);
  REQUIRE(w.size() == 1);
  CHECK(mentions(w, "unoptimised build (build type Debug)"));
  f.build_type = "";
  f.optimised = false;
  CHECK(mentions(cmh::report::environment_warnings(f), "(build type not set)"));
  f.optimised = true;
  f.sanitized = true;
  CHECK(mentions(cmh::report::environment_warnings(f), "AddressSanitizer"));
  // A load of 1.5 on 4 CPUs is fine (threshold: max(1, CPUs / 2)).
  cmh::report::EnvironmentFacts loaded;
  loaded.load_average = 1.5;
  loaded.cpu_count = 4;
  CHECK(cmh::report::environment_warnings(loaded).empty());
  loaded.cpu_count = 2;
  CHECK(cmh::report::environment_warnings(loaded).size() == 1);
}

TEST_CASE("environment: the run context of this process") {
  const auto ctx = cmh::model::detect_run_context();
  CHECK(fs::exists(ctx.executable));
  CHECK(ctx.compiler.find(' ') != std::string::npos);  // "GCC 12.2.0"
  CHECK_FALSE(ctx.cmh_version.empty());
  CHECK(ctx.cpu_count >= 1);
  CHECK(ctx.kernel.rfind("Linux ", 0) == 0);
  CHECK((ctx.build_type == "release" || ctx.build_type == "debug"));
  CHECK((ctx.numa_mode == "on" || ctx.numa_mode == "off"));
  if (cmh_alloc_numa_mode == nullptr) {
    CHECK(ctx.numa_reason == "allocator not linked");
    CHECK(ctx.allocator_options == "allocator not linked");
  }
}
