// SPDX-License-Identifier: MIT
// Reading the memory cgroup's oom_kill counter (see oom_watch.hpp).
#include "fork/oom_watch.hpp"

#include <fstream>
#include <string>

namespace cmh::forking {

namespace {

std::optional<long> read_key(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string name;
  long value = 0;
  while (in >> name >> value)
    if (name == key) return value;
  return std::nullopt;
}

}  // namespace

std::optional<long> oom_kill_count() {
  std::ifstream cgroups("/proc/self/cgroup");
  std::string line;
  while (std::getline(cgroups, line)) {
    // "4:memory:/path" (v1) or "0::/path" (v2)
    const auto first = line.find(':');
    const auto second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (controllers == "memory") {
      if (auto v = read_key("/sys/fs/cgroup/memory" + path + "/memory.oom_control", "oom_kill")) return v;
    } else if (controllers.empty()) {
      if (auto v = read_key("/sys/fs/cgroup" + path + "/memory.events", "oom_kill")) return v;
    }
  }
  return std::nullopt;
}

}  // namespace cmh::forking
