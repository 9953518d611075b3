// SPDX-License-Identifier: MIT
// Collects the gbench context facts (see machine_info.hpp) from Linux's sysfs
// and procfs, the same sources Google Benchmark's sysinfo.cc reads.
#include "formats/machine_info.hpp"
#include "model/system_files.hpp"

#include <unistd.h>

#include <array>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace cmh::formats {
namespace {

namespace fs = std::filesystem;

using model::read_first_line;

/// "32K" -> 32768, "1M" -> 1048576, "512" -> 512.
long long parse_cache_size(const std::string& text) {
  char* end = nullptr;
  const long long n = std::strtoll(text.c_str(), &end, 10);
  switch (end != nullptr ? *end : '\0') {
    case 'K': return n * 1024;
    case 'M': return n * 1024 * 1024;
    case 'G': return n * 1024 * 1024 * 1024;
    default: return n;
  }
}

/// Number of CPUs in a shared_cpu_map such as "00000003" or "ffffffff,00000001".
int count_cpus_in_map(const std::string& map) {
  int count = 0;
  for (const char c : map) {
    int v = -1;
    if (c >= '0' && c <= '9') v = c - '0';
    else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
    if (v >= 0) count += __builtin_popcount(static_cast<unsigned>(v));
  }
  return count;
}

std::vector<CacheInfo> read_caches() {
  std::vector<CacheInfo> caches;
  const fs::path base = "/sys/devices/system/cpu/cpu0/cache";
  for (int index = 0;; ++index) {
    const fs::path dir = base / ("index" + std::to_string(index));
    const auto type = read_first_line(dir / "type");
    if (!type) break;
    CacheInfo c;
    c.type = *type;
    c.level = std::atoi(read_first_line(dir / "level").value_or("0").c_str());
    c.size = parse_cache_size(read_first_line(dir / "size").value_or("0"));
    c.num_sharing = count_cpus_in_map(read_first_line(dir / "shared_cpu_map").value_or(""));
    caches.push_back(c);
  }
  return caches;
}

double read_mhz() {
  // cpuinfo_max_freq is in kHz; VMs often lack cpufreq, then /proc/cpuinfo has "cpu MHz".
  if (const auto khz = read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq"))
    return std::atof(khz->c_str()) / 1000.0;
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("cpu MHz", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) {
        std::istringstream value(line.substr(colon + 1));
        value.imbue(std::locale::classic());
        double mhz = 0;
        value >> mhz;
        return mhz;
      }
    }
  }
  return 0;
}

/// Scaling is "enabled" unless every CPU's governor is "performance" (Google Benchmark's rule);
/// unknown when no CPU exposes a governor.
std::optional<bool> read_cpu_scaling() {
  bool any = false;
  for (int cpu = 0;; ++cpu) {
    const fs::path dir = "/sys/devices/system/cpu/cpu" + std::to_string(cpu);
    std::error_code ec;
    if (!fs::exists(dir, ec)) break;
    const auto governor = read_first_line(dir / "cpufreq/scaling_governor");
    if (!governor) continue;
    any = true;
    if (*governor != "performance") return true;
  }
  if (!any) return std::nullopt;
  return false;
}

std::string local_iso8601_now() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  std::array<char, 64> buf{};
  const std::size_t n = std::strftime(buf.data(), buf.size(), "%Y-%m-%dT%H:%M:%S%z", &local);
  std::string s(buf.data(), n);
  // %z gives +0200; ISO 8601 extended form (and Google Benchmark) write +02:00.
  if (s.size() >= 5) s.insert(s.size() - 2, ":");
  return s;
}

}  // namespace

MachineInfo collect_machine_info() {
  MachineInfo m;
  m.date = local_iso8601_now();
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) == 0) m.host_name = host.data();
  m.mhz_per_cpu = read_mhz();
  m.cpu_scaling_enabled = read_cpu_scaling();
  m.caches = read_caches();
  std::array<double, 3> load{};
  const int n = getloadavg(load.data(), 3);
  for (int i = 0; i < n; ++i) m.load_avg.push_back(load[static_cast<std::size_t>(i)]);
  return m;
}

}  // namespace cmh::formats
