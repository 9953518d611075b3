// SPDX-License-Identifier: MIT
// cmh.environment across two result files: the machine's state (governor, boost,
// SMT, THP, NUMA balancing, isolation, VM, PMU, tuned) that can move a score by
// more than the change under test, so every difference is said next to the
// comparison rather than left for the reader to find.
#include "environment_diff.hpp"

#include <map>

namespace cmh::compare {
namespace {

/// The file's machine state: the "machine." keys of its records, the first value of
/// each (a merged file's shards normally agree; where they do not, the first run's).
std::map<std::string, std::string> machine_state(const ResultFile& file) {
  const std::string prefix = results::kMachinePrefix;
  std::map<std::string, std::string> state;
  for (const auto& r : file.records)
    for (const auto& [key, value] : r.environment)
      if (key.compare(0, prefix.size(), prefix) == 0) state.try_emplace(key.substr(prefix.size()), value);
  return state;
}

}  // namespace

std::vector<std::string> environment_differences(const ResultFile& base, const ResultFile& contender) {
  std::vector<std::string> out;
  const auto before = machine_state(base), after = machine_state(contender);
  if (before.empty() || after.empty()) return out;
  for (const auto& [key, was] : before) {
    const auto it = after.find(key);
    const std::string now = it == after.end() ? "not recorded" : it->second;
    if (now != was)
      out.push_back("the machine differs: " + key + " was '" + was + "' in base, '" + now +
                    "' in new (cmh.environment): the scores may differ for that reason alone");
  }
  for (const auto& [key, now] : after)
    if (!before.count(key))
      out.push_back("the machine differs: " + key + " was not recorded in base, '" + now +
                    "' in new (cmh.environment)");
  return out;
}

}  // namespace cmh::compare
