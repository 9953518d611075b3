// SPDX-License-Identifier: MIT
// See machine_json.hpp.
#include "formats/machine_json.hpp"

namespace cmh::formats {

using Json = nlohmann::ordered_json;

Json environment_json(const model::RunContext& ctx) {
  Json j = Json::object();
  for (const auto& [key, value] : ctx.environment) j[key] = value;
  return j;
}

std::string environment_text(const model::RunContext& ctx) {
  std::string out;
  for (const auto& [key, value] : ctx.environment) out += (out.empty() ? "" : "; ") + key + "=" + value;
  return out;
}

Json pinning_json(const BenchmarkRunResult& run) {
  Json j = Json::object();
  j["mode"] = run.params.pin.empty() ? std::string("none") : run.params.pin;
  if (run.params.pin.empty() || run.params.pin == "none") return j;
  Json forks = Json::array();
  for (const auto& fork : run.forks) {
    Json f = Json::object();
    f["fork"] = fork.index;
    // A fork that failed before its workers started has no placement.
    if (fork.pinning.mode.empty()) {
      f["threads"] = Json::array();
      forks.push_back(std::move(f));
      continue;
    }
    f["allowedCpus"] = fork.pinning.allowed_cpus;
    f["controlCpus"] = fork.pinning.control_cpus;
    Json threads = Json::array();
    for (const auto& t : fork.pinning.threads) {
      Json e = Json::object();
      e["thread"] = t.thread;
      e["cpu"] = t.cpu;
      e["core"] = t.core;
      e["package"] = t.package;
      e["node"] = t.node;
      if (!t.core_type.empty()) e["coreType"] = t.core_type;
      threads.push_back(std::move(e));
    }
    f["threads"] = std::move(threads);
    if (!fork.pinning.notes.empty()) f["notes"] = fork.pinning.notes;
    forks.push_back(std::move(f));
  }
  j["forks"] = std::move(forks);
  return j;
}

}  // namespace cmh::formats
