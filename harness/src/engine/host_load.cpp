// SPDX-License-Identifier: MIT
// Steal share, load average and others' share of the process's CPUs around one iteration.
#include "engine/host_load.hpp"

#include "model/system_files.hpp"

#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
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

std::optional<CpuSetTicks> parse_cpu_set(std::string_view text, const std::vector<int>& cpus) {
  CpuSetTicks sum;
  while (!text.empty()) {
    const std::size_t eol = text.find('\n');
    const std::string line(text.substr(0, eol));
    text = eol == std::string_view::npos ? std::string_view{} : text.substr(eol + 1);
    if (line.size() < 4 || !line.starts_with("cpu") || line[3] < '0' || line[3] > '9') continue;
    char* end = nullptr;
    const long cpu = std::strtol(line.c_str() + 3, &end, 10);
    if (std::find(cpus.begin(), cpus.end(), static_cast<int>(cpu)) == cpus.end()) continue;
    const char* p = end;
    std::uint64_t total = 0;
    std::uint64_t idle = 0;
    int fields = 0;
    for (; fields < 8; ++fields) {
      char* e = nullptr;
      const unsigned long long v = std::strtoull(p, &e, 10);
      if (e == p) break;
      p = e;
      total += v;
      if (fields == 3 || fields == 4) idle += v;  // idle, iowait
    }
    if (fields < 8) continue;
    sum.total += total;
    sum.idle += idle;
    ++sum.cpus;
  }
  if (sum.cpus == 0) return std::nullopt;
  return sum;
}

std::optional<CpuTicks> read_cpu_ticks() {
  const auto line = model::read_first_line("/proc/stat");
  if (!line) return std::nullopt;
  return parse_cpu_line(*line);
}

HostSample read_host_sample() {
  HostSample s;
  std::ifstream in("/proc/stat");
  if (in) {
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    s.all = parse_cpu_line(text.substr(0, text.find('\n')));
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
      std::vector<int> cpus;
      for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set)) cpus.push_back(c);
      s.mine = parse_cpu_set(text, cpus);
    }
  }
  timespec ts{};
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == 0)
    s.process_cpu_ns = static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
  return s;
}

void cpu_shares_between(const HostSample& before, const HostSample& after, double tick_ns, HostLoad& h) {
  if (!before.mine || !after.mine || before.mine->cpus != after.mine->cpus || before.process_cpu_ns < 0 ||
      after.process_cpu_ns < before.process_cpu_ns || tick_ns <= 0)
    return;
  const CpuSetTicks& b = *before.mine;
  const CpuSetTicks& a = *after.mine;
  if (a.total < b.total || a.idle < b.idle) return;
  const std::uint64_t total = a.total - b.total;
  const std::uint64_t idle = std::min(a.idle - b.idle, total);
  if (total < kMinShareTicks * static_cast<std::uint64_t>(a.cpus)) return;
  const double busy = static_cast<double>(total - idle);
  const double own = static_cast<double>(after.process_cpu_ns - before.process_cpu_ns) / tick_ns;
  h.others_share = std::max(0.0, busy - own) / static_cast<double>(total);
  h.idle_share = static_cast<double>(idle) / static_cast<double>(total);
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

HostLoad host_load_between(const HostSample& before, const HostSample& after) {
  HostLoad h = host_load_between(before.all, after.all);
  const long hz = sysconf(_SC_CLK_TCK);
  cpu_shares_between(before, after, hz > 0 ? 1e9 / static_cast<double>(hz) : 0.0, h);
  return h;
}

}  // namespace cmh::engine
