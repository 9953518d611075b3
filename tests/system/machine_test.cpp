// SPDX-License-Identifier: MIT
// The knob library's parts: CPU lists and masks, the topology of the fake trees
// (SMT siblings, hybrid P/E cores, NUMA nodes, isolation), unreadable files, and
// the cmh.environment summary.
#include <doctest/doctest.h>

#include "fake_tree.hpp"
#include <cmh/machine/cpu_list.hpp>
#include <cmh/machine/environment.hpp>
#include <cmh/machine/knobs.hpp>
#include <cmh/machine/topology.hpp>

using namespace cmh::machine;
using cmh::testing::FakeTree;

TEST_CASE("machine: CPU lists and masks in the kernel's spellings") {
  CHECK(parse_cpu_list("0-3,8,10-11\n") == std::vector<int>{0, 1, 2, 3, 8, 10, 11});
  CHECK(parse_cpu_list("3,1,1") == std::vector<int>{1, 3});
  CHECK(parse_cpu_list("") == std::vector<int>{});
  CHECK(parse_cpu_list("\n") == std::vector<int>{});
  CHECK_FALSE(parse_cpu_list("3-1").has_value());
  CHECK_FALSE(parse_cpu_list("a").has_value());
  CHECK_FALSE(parse_cpu_list("1,,2").has_value());
  CHECK_FALSE(parse_cpu_list("99999").has_value());
  CHECK(format_cpu_list({0, 1, 2, 3, 8, 10, 11}) == "0-3,8,10,11");
  CHECK(format_cpu_list({}) == "");
  CHECK(parse_cpu_mask("3f\n") == std::vector<int>{0, 1, 2, 3, 4, 5});
  CHECK(parse_cpu_mask("00000001,00000002") == std::vector<int>{1, 32});
  CHECK_FALSE(parse_cpu_mask("xyz").has_value());
  CHECK(format_cpu_mask({0, 1, 2, 3}) == "0000000f");
  CHECK(format_cpu_mask({1, 32}, 1) == "00000001,00000002");
  CHECK(format_cpu_mask({0}, 3) == "00000000,00000000,00000001");
  CHECK(mask_words("ff,00000001\n") == 2);
  CHECK(cpus_minus({0, 1, 2, 3}, {1, 3}) == std::vector<int>{0, 2});
  CHECK(cpus_common({0, 1, 2}, {2, 3}) == std::vector<int>{2});
}

TEST_CASE("machine: topology of a hybrid Intel laptop, an AMD server and a VM") {
  FakeTree intel;
  cmh::testing::intel_laptop(intel);
  const Topology t = read_topology(SysTree(intel.root()));
  REQUIRE(t.cpus.size() == 6);
  CHECK(t.hybrid);
  CHECK(t.find(1)->siblings == std::vector<int>{0, 1});
  CHECK(t.find(1)->core == 0);
  CHECK(t.find(2)->type == CoreType::performance);
  CHECK(t.find(5)->type == CoreType::efficiency);
  CHECK(t.find(5)->siblings == std::vector<int>{5});
  CHECK(t.find(0)->node == 0);

  FakeTree amd;
  cmh::testing::amd_server(amd);
  const Topology a = read_topology(SysTree(amd.root()));
  CHECK_FALSE(a.hybrid);
  CHECK(a.find(2)->node == 1);
  CHECK(a.find(3)->isolated);
  CHECK(a.find(3)->nohz_full);
  CHECK_FALSE(a.find(2)->isolated);

  // Without cpu/online, the cpuN directories are the CPUs; without topology files
  // each CPU is its own core; big.LITTLE capacities make the small ones E-cores.
  FakeTree arm;
  arm.file("/sys/devices/system/cpu/cpu0/cpu_capacity", "1024\n");
  arm.file("/sys/devices/system/cpu/cpu1/cpu_capacity", "1024\n");
  arm.file("/sys/devices/system/cpu/cpu2/cpu_capacity", "446\n");
  const Topology b = read_topology(SysTree(arm.root()));
  REQUIRE(b.ids() == std::vector<int>{0, 1, 2});
  CHECK(b.find(2)->siblings == std::vector<int>{2});
  CHECK(b.find(2)->type == CoreType::efficiency);
  CHECK(b.find(0)->type == CoreType::performance);
  CHECK(b.hybrid);
}

TEST_CASE("machine: cmh.environment in short form, and tuned when the state file exists") {
  FakeTree vm;
  cmh::testing::vm_without_cpufreq(vm);
  const SysTree tree(vm.root());
  const auto env = environment_summary(tree);
  auto value = [&](const std::string& key) {
    for (const auto& [k, v] : env)
      if (k == key) return v;
    return std::string("missing");
  };
  CHECK(value("governor") == "unknown");
  CHECK(value("boost") == "unknown");
  CHECK(value("smt") == "not supported");
  CHECK(value("thp") == "madvise");
  CHECK(value("numaBalancing") == "0");
  CHECK(value("isolation") == "none");
  CHECK(value("vm") == "yes");
  CHECK(value("pmu") == "none");
  CHECK(value("cStates") == "deepest haltpoll idle (1 us)");
  CHECK(value("tuned") == "no");
  CHECK(env.back().first == "tuned");
  vm.file("/var/lib/cmh/system-state.json", "{}");
  CHECK(tuned_state(tree) == "yes");
}

TEST_CASE("machine: a knob whose file cannot be read is unknown with the errno's reason") {
  FakeTree t;
  cmh::testing::amd_server(t);
  // A directory where the sysctl should be: read(2) fails with EISDIR.
  std::filesystem::remove(t.root() / "proc/sys/kernel/randomize_va_space");
  std::filesystem::create_directories(t.root() / "proc/sys/kernel/randomize_va_space");
  std::filesystem::remove(t.root() / "proc/sys/kernel/perf_event_paranoid");
  t.file("/proc/sys/kernel/numa_balancing", "on\n");
  const auto knobs = read_knobs(SysTree(t.root()));
  const Knob* aslr = find_knob(knobs, "kernel.aslr");
  CHECK(aslr->status == KnobStatus::unknown);
  CHECK(aslr->unknown_reason == "/proc/sys/kernel/randomize_va_space: Is a directory");
  CHECK(find_knob(knobs, "kernel.perf_event_paranoid")->unknown_reason ==
        "/proc/sys/kernel/perf_event_paranoid: does not exist");
  CHECK(find_knob(knobs, "kernel.numa_balancing")->unknown_reason ==
        "/proc/sys/kernel/numa_balancing: \"on\" is not a number");
  // A kernel without NUMA balancing has no file: that is off, not unknown.
  std::filesystem::remove(t.root() / "proc/sys/kernel/numa_balancing");
  CHECK(find_knob(read_knobs(SysTree(t.root())), "kernel.numa_balancing")->status == KnobStatus::ok);
}

TEST_CASE("machine: an empty tree reads as unknown everywhere, without guessing") {
  FakeTree t;
  const auto knobs = read_knobs(SysTree(t.root()));
  for (const auto& k : knobs)
    if (k.id != "kernel.numa_balancing" && k.id != "machine.vm")
      CHECK_MESSAGE(k.status == KnobStatus::unknown, k.id);
  CHECK(hypervisor(SysTree(t.root())).empty());
  CHECK(cpu_governors(SysTree(t.root())).empty());
  CHECK_FALSE(boost_enabled(SysTree(t.root())).has_value());
}
