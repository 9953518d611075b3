// SPDX-License-Identifier: MIT
// cmh.environment across two result files: the machine's state (governor, boost,
// SMT, THP, NUMA balancing, isolation, VM, PMU, tuned) that can move a score by
// more than the change under test, so every difference is said next to the
// comparison rather than left for the reader to find.
#include "readers.hpp"

#include <algorithm>
#include <map>

namespace cmh::compare {

void read_environment(const Json& holder, const char* key, ResultFile& out) {
  const auto e = holder.find(key);
  if (e == holder.end()) return;
  if (e->is_object()) {
    for (const auto& [k, v] : e->items())
      if (v.is_string()) out.environment.emplace_back(k, v.get<std::string>());
  } else if (e->is_string()) {
    // Google Benchmark's context holds strings: "governor=performance; boost=off; ...".
    const std::string text = e->get<std::string>();
    std::size_t start = 0;
    while (start < text.size()) {
      const std::size_t end = std::min(text.find("; ", start), text.size());
      const std::string item = text.substr(start, end - start);
      if (const std::size_t eq = item.find('='); eq != std::string::npos && eq > 0)
        out.environment.emplace_back(item.substr(0, eq), item.substr(eq + 1));
      start = end + 2;
    }
  }
}

std::vector<std::string> environment_differences(const ResultFile& base, const ResultFile& contender) {
  std::vector<std::string> out;
  if (base.environment.empty() || contender.environment.empty()) return out;
  const std::map<std::string, std::string> now(contender.environment.begin(), contender.environment.end());
  for (const auto& [key, before] : base.environment) {
    const auto it = now.find(key);
    const std::string after = it == now.end() ? "not recorded" : it->second;
    if (after != before)
      out.push_back("the machine differs: " + key + " was '" + before + "' in base, '" + after +
                    "' in new (cmh.environment): the scores may differ for that reason alone");
  }
  return out;
}

}  // namespace cmh::compare
