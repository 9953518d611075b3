// SPDX-License-Identifier: MIT
// See environment.hpp.
#include <cmh/machine/environment.hpp>

namespace cmh::machine {

namespace {

struct KeyOf {
  const char* knob;
  const char* key;
};

constexpr KeyOf kKeys[] = {
    {"cpu.governor", "governor"},   {"cpu.boost", "boost"},          {"cpu.epp", "epp"},
    {"cpu.cstates", "cStates"},     {"cpu.smt", "smt"},              {"cpu.isolation", "isolation"},
    {"memory.thp", "thp"},          {"kernel.numa_balancing", "numaBalancing"},
    {"kernel.aslr", "aslr"},        {"machine.vm", "vm"},            {"machine.pmu", "pmu"},
};

}  // namespace

std::vector<EnvironmentEntry> environment_summary(const std::vector<Knob>& knobs, const SysTree& tree) {
  std::vector<EnvironmentEntry> out;
  for (const auto& [knob, key] : kKeys) {
    const Knob* k = find_knob(knobs, knob);
    out.emplace_back(key, k != nullptr ? k->value : "unknown");
  }
  out.emplace_back("tuned", tuned_state(tree));
  return out;
}

std::vector<EnvironmentEntry> environment_summary(const SysTree& tree) {
  return environment_summary(read_knobs(tree), tree);
}

std::string tuned_state(const SysTree& tree) { return tree.exists(kDefaultStateFile) ? "yes" : "no"; }

}  // namespace cmh::machine
