// SPDX-License-Identifier: MIT
// cmh-system show, tune and reset against fake Intel, AMD and VM trees (--root):
// what show says, what tune writes and saves, that reset puts every file back
// byte for byte and removes the state file, that a second tune keeps the first
// saved state, and that --dry-run changes nothing. Nothing here writes outside
// the fake trees.
#include <doctest/doctest.h>

#include <sstream>

#include "fake_tree.hpp"
#include <cmh/machine/knobs.hpp>
#include "tool/command_line.hpp"
#include "tool/commands.hpp"
#include "tool/state_file.hpp"

using cmh::testing::FakeTree;
namespace sys = cmh::system;

namespace {

struct Run {
  int status = 0;
  std::string out, err;
};

Run run(const FakeTree& t, std::vector<std::string> args) {
  std::vector<std::string> argv_text = {"cmh-system", "--root", t.root().string()};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<const char*> argv;
  for (const auto& a : argv_text) argv.push_back(a.c_str());
  const sys::Options o = sys::parse_command_line(static_cast<int>(argv.size()), argv.data());
  std::ostringstream out, err;
  Run r;
  switch (o.command) {
    case sys::Command::show: r.status = sys::run_show(o, out); break;
    case sys::Command::tune: r.status = sys::run_tune(o, out, err); break;
    case sys::Command::reset: r.status = sys::run_reset(o, out, err); break;
    case sys::Command::help: break;
  }
  r.out = out.str();
  r.err = err.str();
  return r;
}

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

const cmh::machine::Knob& knob(const std::vector<cmh::machine::Knob>& knobs, const std::string& id) {
  const auto* k = cmh::machine::find_knob(knobs, id);
  REQUIRE_MESSAGE(k != nullptr, id);
  return *k;
}

std::vector<cmh::machine::Knob> knobs_of(const FakeTree& t) {
  return cmh::machine::read_knobs(cmh::machine::SysTree(t.root()));
}

/// tune then reset: every file of the tree is back byte for byte, the state file gone.
void check_round_trip(const FakeTree& t) {
  const auto before = t.snapshot();
  const Run tuned = run(t, {"tune"});
  CHECK_MESSAGE(tuned.status == 0, tuned.out << tuned.err);
  CHECK(std::filesystem::exists(t.state_file()));
  CHECK(t.snapshot() != before);
  const Run reset = run(t, {"reset"});
  CHECK_MESSAGE(reset.status == 0, reset.out << reset.err);
  CHECK(has(reset.out, "restored "));
  CHECK_FALSE(std::filesystem::exists(t.state_file()));
  const auto after = t.snapshot();
  REQUIRE(after.size() == before.size());
  for (const auto& [path, bytes] : before) CHECK_MESSAGE(after.at(path) == bytes, path);
}

}  // namespace

TEST_CASE("cmh-system show: the Intel laptop's knobs, wanted values and reasons") {
  FakeTree t;
  cmh::testing::intel_laptop(t);
  const auto knobs = knobs_of(t);
  CHECK(knob(knobs, "cpu.governor").current == "powersave");
  CHECK(knob(knobs, "cpu.governor").status == cmh::machine::KnobStatus::differs);
  CHECK(knob(knobs, "cpu.governor").writes.size() == 6);
  CHECK(knob(knobs, "cpu.boost").value == "on");
  CHECK(knob(knobs, "cpu.epp").current == "balance_performance (intel_pstate active)");
  CHECK(knob(knobs, "cpu.cstates").value == "deepest C10 (890 us)");
  CHECK(knob(knobs, "cpu.cstates").writes.size() == 12);  // C2 and C10 on six CPUs
  CHECK(knob(knobs, "cpu.smt").value == "on");
  CHECK(has(knob(knobs, "cpu.smt").advice, "-pin cores"));
  CHECK(knob(knobs, "cpu.isolation").status == cmh::machine::KnobStatus::differs);
  CHECK(knob(knobs, "cpu.isolation").writes.empty());
  CHECK(knob(knobs, "cpu.irq").status == cmh::machine::KnobStatus::info);
  CHECK(has(knob(knobs, "cpu.irq").current, "irqbalance running"));
  CHECK(knob(knobs, "memory.thp").value == "always");
  CHECK(knob(knobs, "memory.thp_defrag").status == cmh::machine::KnobStatus::ok);
  CHECK(knob(knobs, "kernel.numa_balancing").value == "1");
  CHECK(knob(knobs, "kernel.perf_event_paranoid").status == cmh::machine::KnobStatus::differs);
  CHECK(knob(knobs, "kernel.perf_event_max_sample_rate").status == cmh::machine::KnobStatus::differs);
  CHECK(knob(knobs, "kernel.nmi_watchdog").value == "on");
  CHECK(knob(knobs, "machine.vm").value == "no");
  CHECK(knob(knobs, "machine.pmu").current == "available (cpu_atom, cpu_core)");
  CHECK(knob(knobs, "machine.power").value == "battery");

  const Run shown = run(t, {"show"});
  CHECK(shown.status == 0);
  CHECK(has(shown.out, "6 online CPUs (0-5)"));
  CHECK(has(shown.out, "Not tuned by cmh-system"));
  CHECK(has(shown.out, "DIFFERS  frequency governor: powersave"));
  CHECK(has(shown.out, "wanted: performance (tune sets it: 6 files)"));
  CHECK(has(shown.out, "why: Other governors set the clock"));
  CHECK(has(shown.out, "\nMemory and kernel\n"));
  CHECK(has(shown.out, "0 unknown"));
}

TEST_CASE("cmh-system show: a VM without cpufreq says what is unknown and why") {
  FakeTree t;
  cmh::testing::vm_without_cpufreq(t);
  const auto knobs = knobs_of(t);
  const auto& governor = knob(knobs, "cpu.governor");
  CHECK(governor.status == cmh::machine::KnobStatus::unknown);
  CHECK(governor.value == "unknown");
  CHECK(has(governor.unknown_reason, "no cpufreq driver"));
  CHECK(has(governor.unknown_reason, "/sys/devices/system/cpu/cpu0/cpufreq does not exist"));
  CHECK(knob(knobs, "cpu.boost").status == cmh::machine::KnobStatus::unknown);
  CHECK(knob(knobs, "cpu.epp").status == cmh::machine::KnobStatus::unknown);
  CHECK(knob(knobs, "cpu.smt").value == "not supported");
  CHECK(knob(knobs, "cpu.cstates").status == cmh::machine::KnobStatus::ok);
  CHECK(knob(knobs, "machine.vm").value == "yes");
  CHECK(knob(knobs, "machine.pmu").value == "none");
  CHECK(knob(knobs, "machine.power").status == cmh::machine::KnobStatus::unknown);

  const Run shown = run(t, {"show"});
  CHECK(has(shown.out, "UNKNOWN  frequency governor: unknown"));
  CHECK(has(shown.out, "unknown because: no cpufreq driver"));
  CHECK(has(shown.out, "4 unknown"));
  // Nothing tune can set differs: tune says so and writes nothing, not even a state file.
  const auto before = t.snapshot();
  const Run tuned = run(t, {"tune"});
  CHECK(tuned.status == 0);
  CHECK(has(tuned.out, "Nothing to tune"));
  CHECK(has(tuned.out, "left alone: virtual machine"));
  CHECK_FALSE(std::filesystem::exists(t.state_file()));
  CHECK(t.snapshot() == before);
}

TEST_CASE("cmh-system tune: the Intel laptop gets every wanted value, perf_event_max_sample_rate raised") {
  FakeTree t;
  cmh::testing::intel_laptop(t);
  const Run tuned = run(t, {"tune"});
  REQUIRE_MESSAGE(tuned.status == 0, tuned.out << tuned.err);
  CHECK(has(tuned.out, "Saved "));
  CHECK(has(tuned.out, "set frequency governor: powersave -> performance (6 written)"));
  CHECK(t.read("/sys/devices/system/cpu/cpu5/cpufreq/scaling_governor") == "performance");
  CHECK(t.read("/sys/devices/system/cpu/intel_pstate/no_turbo") == "1");
  CHECK(t.read("/sys/devices/system/cpu/cpu0/cpufreq/energy_performance_preference") == "performance");
  CHECK(t.read("/sys/devices/system/cpu/cpu0/cpuidle/state1/disable") == "0\n");  // 1 us: kept
  CHECK(t.read("/sys/devices/system/cpu/cpu0/cpuidle/state2/disable") == "1");
  CHECK(t.read("/sys/devices/system/cpu/cpu3/cpuidle/state3/disable") == "1");
  CHECK(t.read("/sys/kernel/mm/transparent_hugepage/enabled") == "madvise");
  CHECK(t.read("/proc/sys/kernel/numa_balancing") == "0");
  CHECK(t.read("/proc/sys/kernel/perf_event_paranoid") == "2");
  CHECK(t.read("/proc/sys/kernel/perf_event_max_sample_rate") == "100000");
  CHECK(t.read("/proc/sys/kernel/nmi_watchdog") == "0");
  // Left alone: SMT and isolation (no writes), IRQs (no --cpus).
  CHECK(t.read("/sys/devices/system/cpu/smt/control") == "on\n");
  CHECK(t.read("/proc/irq/0/smp_affinity") == "3f\n");
  // After tune, show agrees and names the state file.
  const auto knobs = knobs_of(t);
  for (const char* id : {"cpu.governor", "cpu.boost", "cpu.epp", "cpu.cstates", "memory.thp", "kernel.numa_balancing",
                         "kernel.perf_event_paranoid", "kernel.perf_event_max_sample_rate", "kernel.nmi_watchdog"})
    CHECK_MESSAGE(knob(knobs, id).status == cmh::machine::KnobStatus::ok, id);
  CHECK(has(run(t, {"show"}).out, "Tuned by cmh-system tune at "));
  const auto state = sys::read_state(t.state_file());
  const auto* saved = state.find("/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor");
  REQUIRE(saved != nullptr);
  CHECK(saved->saved == "powersave\n");
  CHECK(saved->knob == "cpu.governor");
}

TEST_CASE("cmh-system tune never lowers perf_event_max_sample_rate") {
  FakeTree t;
  cmh::testing::amd_server(t);
  t.file("/proc/sys/kernel/perf_event_max_sample_rate", "25000\n");  // lowered by the kernel itself
  REQUIRE(run(t, {"tune"}).status == 0);
  CHECK(t.read("/proc/sys/kernel/perf_event_max_sample_rate") == "25000\n");
  for (const auto& f : sys::read_state(t.state_file()).files) CHECK(f.knob != "kernel.perf_event_max_sample_rate");
}

TEST_CASE("cmh-system tune and reset: AMD boost and EPP set, then every file back byte for byte") {
  FakeTree t;
  cmh::testing::amd_server(t);
  const auto knobs = knobs_of(t);
  CHECK(knob(knobs, "cpu.boost").current == "on (cpufreq/boost = 1)");
  CHECK(knob(knobs, "cpu.isolation").current == "isolated 3; nohz_full 3; rcu_nocbs 3");
  CHECK(knob(knobs, "cpu.isolation").status == cmh::machine::KnobStatus::ok);
  CHECK(knob(knobs, "kernel.aslr").value == "1");
  CHECK(knob(knobs, "machine.power").current == "none listed (a desktop, server or VM)");
  const auto before = t.snapshot();
  REQUIRE(run(t, {"tune"}).status == 0);
  CHECK(t.read("/sys/devices/system/cpu/cpufreq/boost") == "0");
  CHECK(t.read("/sys/devices/system/cpu/cpu1/cpufreq/energy_performance_preference") == "performance");
  CHECK(t.read("/sys/devices/system/cpu/cpu3/cpuidle/state2/disable") == "1");
  CHECK(t.read("/proc/sys/kernel/randomize_va_space") == "2");
  CHECK(t.read("/sys/kernel/mm/transparent_hugepage/enabled") == before.at("/sys/kernel/mm/transparent_hugepage/enabled"));
  REQUIRE(run(t, {"reset"}).status == 0);
  CHECK(t.snapshot() == before);
}

TEST_CASE("cmh-system reset restores the Intel, AMD and IRQ-routed trees byte for byte") {
  {
    FakeTree t;
    cmh::testing::intel_laptop(t);
    check_round_trip(t);
  }
  {
    FakeTree t;
    cmh::testing::amd_server(t);
    check_round_trip(t);
  }
  {
    // --cpus 4-5: interrupts routed off the E-cores, the masks as wide as read.
    FakeTree t;
    cmh::testing::intel_laptop(t);
    const auto before = t.snapshot();
    const Run tuned = run(t, {"--cpus", "4-5", "tune"});
    CHECK_MESSAGE(tuned.status == 0, tuned.err);
    CHECK(t.read("/proc/irq/0/smp_affinity") == "0000000f");
    CHECK(t.read("/proc/irq/default_smp_affinity") == "0000000f");
    CHECK(t.read("/proc/irq/120/smp_affinity") == "04\n");  // CPU 2 only: not a benchmark CPU
    CHECK(has(knob(cmh::machine::read_knobs(cmh::machine::SysTree(t.root()), {{4, 5}}), "cpu.irq").advice,
              "irqbalance is running"));
    REQUIRE(run(t, {"reset"}).status == 0);
    CHECK(t.snapshot() == before);
  }
}

TEST_CASE("cmh-system: a second tune keeps the first saved state") {
  FakeTree t;
  cmh::testing::intel_laptop(t);
  const auto before = t.snapshot();
  REQUIRE(run(t, {"tune"}).status == 0);
  const auto first = sys::read_state(t.state_file());
  // Something changes the machine after tune: the governor drifts, and a knob
  // tune did not touch the first time now differs.
  t.file("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "schedutil\n");
  t.file("/proc/sys/kernel/randomize_va_space", "0\n");
  const Run second = run(t, {"tune"});
  REQUIRE_MESSAGE(second.status == 0, second.err);
  CHECK(has(second.out, "Keeping the state saved at " + first.created));
  CHECK(t.read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor") == "performance");
  const auto state = sys::read_state(t.state_file());
  CHECK(state.created == first.created);
  CHECK(state.files.size() == first.files.size() + 1);
  CHECK(state.find("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")->saved == "powersave\n");
  CHECK(state.find("/proc/sys/kernel/randomize_va_space")->saved == "0\n");
  REQUIRE(run(t, {"reset"}).status == 0);
  // Back to before the first tune; the ASLR change made between the tunes is undone too.
  auto expected = before;
  expected["/proc/sys/kernel/randomize_va_space"] = "0\n";
  CHECK(t.snapshot() == expected);
}

TEST_CASE("cmh-system --dry-run prints the writes and changes nothing") {
  FakeTree t;
  cmh::testing::intel_laptop(t);
  const auto before = t.snapshot();
  const Run dry = run(t, {"tune", "--dry-run"});
  CHECK(dry.status == 0);
  CHECK(has(dry.out, "would write 'performance' to " + (t.root() / "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor").string() +
                         " (now 'powersave')"));
  CHECK(has(dry.out, "Dry run: nothing was changed"));
  CHECK_FALSE(std::filesystem::exists(t.state_file()));
  CHECK(t.snapshot() == before);
  REQUIRE(run(t, {"tune"}).status == 0);
  const auto tuned = t.snapshot();
  const Run dry_reset = run(t, {"reset", "-n"});
  CHECK(has(dry_reset.out, "would write back 'powersave' to "));
  CHECK(t.snapshot() == tuned);
  CHECK(std::filesystem::exists(t.state_file()));
}

TEST_CASE("cmh-system reset without a state file changes nothing and says so") {
  FakeTree t;
  cmh::testing::amd_server(t);
  const auto before = t.snapshot();
  const Run r = run(t, {"reset"});
  CHECK(r.status == 0);
  CHECK(has(r.out, "Nothing to reset: there is no state file"));
  CHECK(t.snapshot() == before);
}

TEST_CASE("cmh-system: a broken state file stops tune and reset, and is kept") {
  FakeTree t;
  cmh::testing::intel_laptop(t);
  t.file("/var/lib/cmh/system-state.json", "{\"format\": \"something else\"}");
  const auto before = t.snapshot();
  const Run tuned = run(t, {"tune"});
  CHECK(tuned.status == 2);
  CHECK(has(tuned.err, "not a cmh-system state file"));
  CHECK(has(tuned.err, "nothing was changed"));
  CHECK(run(t, {"reset"}).status == 2);
  CHECK(t.snapshot() == before);
  CHECK(std::filesystem::exists(t.state_file()));
}

TEST_CASE("cmh-system: a state file elsewhere (--state), and saved bytes that are not text") {
  FakeTree t;
  cmh::testing::amd_server(t);
  t.file("/proc/sys/kernel/nmi_watchdog", std::string("1\n\xff\x01", 4));
  const auto before = t.snapshot();
  const auto state = t.root() / "elsewhere/state.json";
  REQUIRE(run(t, {"--state", state.string(), "tune"}).status == 0);
  CHECK(std::filesystem::exists(state));
  CHECK_FALSE(std::filesystem::exists(t.state_file()));
  CHECK(sys::read_state(state).find("/proc/sys/kernel/nmi_watchdog")->saved == std::string("1\n\xff\x01", 4));
  REQUIRE(run(t, {"--state=" + state.string(), "reset"}).status == 0);
  CHECK(t.snapshot() == before);
}

TEST_CASE("cmh-system: a file that cannot be restored keeps the state file") {
  FakeTree t;
  cmh::testing::amd_server(t);
  REQUIRE(run(t, {"tune"}).status == 0);
  // The boost file became a directory: writing it fails whoever runs the test.
  std::filesystem::remove(t.root() / "sys/devices/system/cpu/cpufreq/boost");
  std::filesystem::create_directories(t.root() / "sys/devices/system/cpu/cpufreq/boost");
  const Run r = run(t, {"reset"});
  CHECK(r.status == 1);
  CHECK(has(r.err, "could not restore"));
  CHECK(has(r.err, "kept the state file"));
  CHECK(std::filesystem::exists(t.state_file()));
}

TEST_CASE("cmh-system: command-line errors are one line") {
  FakeTree t;
  auto error_of = [](std::vector<const char*> argv) {
    argv.insert(argv.begin(), "cmh-system");
    try {
      sys::parse_command_line(static_cast<int>(argv.size()), argv.data());
    } catch (const sys::UsageError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error_of({}) == "no command: give show, tune or reset (see cmh-system --help)");
  CHECK(error_of({"tweak"}) == "unknown command tweak (show, tune or reset)");
  CHECK(error_of({"show", "tune"}) == "one command only: got tune after another");
  CHECK(error_of({"--root", "/no/such/dir", "show"}) == "--root /no/such/dir: not a directory");
  CHECK(error_of({"--cpus", "2-", "tune"}) == "--cpus 2-: not a CPU list such as 2-3 or 1,3");
  CHECK(error_of({"--state"}) == "--state needs a value");
  CHECK(error_of({"--dry-run", "show"}) == "--dry-run is for tune and reset; show changes nothing");
  CHECK(error_of({"--verbose", "show"}) == "unknown option --verbose (see cmh-system --help)");
  const char* root_args[] = {"cmh-system", "--root", t.root().c_str(), "show"};
  CHECK(sys::parse_command_line(4, root_args).state_file == t.root() / "var/lib/cmh/system-state.json");
}
