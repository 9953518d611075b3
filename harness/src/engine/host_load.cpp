// SPDX-License-Identifier: MIT
// Steal share and load average of the host around one iteration.
#include "engine/host_load.hpp"

#include "model/system_files.hpp"

#include <cstdlib>
#include <string>

namespace cmh::engine {

std::optional<CpuTicks> parse_cpu_line(const std::string& line) {
  if (!line.starts_with("cpu ")) return std::nullopt;
  const char* p = line.c_str() + 3;
  CpuTicks t;
  int fields = 0;
  for (;; ++fields) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(p, &end, 10);
    if (end == p) break;
    p = end;
    // guest and guest_nice (fields 9 and 10) are already counted in user and nice.
    if (fields < 8) t.total += v;
    if (fields == 7) t.steal = v;
  }
  if (fields < 8) return std::nullopt;  // kernels without a steal field
  return t;
}

std::optional<CpuTicks> read_cpu_ticks() {
  const auto line = model::read_first_line("/proc/stat");
  if (!line) return std::nullopt;
  return parse_cpu_line(*line);
}

HostLoad host_load_between(const std::optional<CpuTicks>& before, const std::optional<CpuTicks>& after) {
  HostLoad h;
  if (before && after && after->total > before->total && after->steal >= before->steal)
    h.steal_fraction = static_cast<double>(after->steal - before->steal) /
                       static_cast<double>(after->total - before->total);
  if (const auto line = model::read_first_line("/proc/loadavg")) {
    char* end = nullptr;
    const double load = std::strtod(line->c_str(), &end);
    if (end != line->c_str()) h.load_average = load;
  }
  return h;
}

}  // namespace cmh::engine
