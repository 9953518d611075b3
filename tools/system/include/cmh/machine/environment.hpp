// SPDX-License-Identifier: MIT
// cmh.environment: the knobs that matter to a score, in the short form every
// result records, so that two runs can be told apart when the machine was not
// in the same state (cmh-compare warns about each difference).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <cmh/machine/knobs.hpp>

namespace cmh::machine {

/// Key (camelCase, as in the JSON) and value ("performance", "off", "unknown", ...).
using EnvironmentEntry = std::pair<std::string, std::string>;

/// governor, boost, epp, cStates, smt, isolation, thp, numaBalancing, aslr, vm, pmu
/// and tuned, in that order.
std::vector<EnvironmentEntry> environment_summary(const std::vector<Knob>& knobs, const SysTree& tree);

/// Reads the knobs of `tree` and summarises them.
std::vector<EnvironmentEntry> environment_summary(const SysTree& tree);

/// "yes" when cmh-system tune's default state file exists under the tree (the
/// machine was tuned and not reset), else "no".
std::string tuned_state(const SysTree& tree);

}  // namespace cmh::machine
