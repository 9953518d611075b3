// SPDX-License-Identifier: MIT
// speedscope_json() (see speedscope.hpp).
#include "analysis/speedscope.hpp"

#include <cmh/flame/flame_graph.hpp>

#include <fmt/format.h>

namespace cmh::profilers::analysis {

std::string speedscope_json(const sampling::Profile& profile, const std::string& label, const ForkStacks& forks) {
  const sampling::ProfileEvent& event = profile.events.front();
  std::map<std::string, std::size_t> index;
  std::vector<std::string> names;
  auto frame = [&](const std::string& name) {
    auto [it, added] = index.try_emplace(name, names.size());
    if (added) names.push_back(name);
    return it->second;
  };
  std::string profiles;
  std::string cmh_forks;
  for (std::size_t f = 0; f < forks.size(); ++f) {
    std::string stacks, weights;
    std::uint64_t sum = 0;
    for (const auto& [frames, w] : forks[f]) {
      stacks += stacks.empty() ? "[" : ",[";
      for (std::size_t i = 0; i < frames.size(); ++i) stacks += (i ? "," : "") + std::to_string(frame(frames[i]));
      stacks += "]";
      weights += (weights.empty() ? "" : ",") + std::to_string(w.period);
      sum += w.period;
    }
    profiles += fmt::format("{}{{\"type\":\"sampled\",\"name\":{},\"unit\":\"{}\",\"startValue\":0,\"endValue\":{},"
                            "\"samples\":[{}],\"weights\":[{}]}}",
                            f ? "," : "", flame::json_string(fmt::format("{} fork {}", label, f + 1)),
                            event.period_unit == "ns" ? "nanoseconds" : "none", sum, stacks, weights);
    cmh_forks += fmt::format("{}{{\"ops\":{}}}", f ? "," : "", f < profile.forks.size() ? profile.forks[f].ops : 0);
  }
  std::string frames_json;
  for (std::size_t i = 0; i < names.size(); ++i) frames_json += (i ? ",{\"name\":" : "{\"name\":") + flame::json_string(names[i]) + "}";
  return "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"exporter\":\"cmh\","
         "\"name\":" + flame::json_string(label) + ",\"activeProfileIndex\":0,\"shared\":{\"frames\":[" + frames_json +
         "]},\"profiles\":[" + profiles + "],\"cmh\":{\"format\":\"cmh-flame-1\",\"benchmark\":" +
         flame::json_string(label) + ",\"event\":" + flame::json_string(event.name) + ",\"periodUnit\":" +
         flame::json_string(event.period_unit) + ",\"stacks\":" + flame::json_string(profile.stacks) + ",\"forks\":[" +
         cmh_forks + "]}}\n";
}

}  // namespace cmh::profilers::analysis
