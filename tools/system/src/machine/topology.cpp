// SPDX-License-Identifier: MIT
// See topology.hpp.
#include <cmh/machine/topology.hpp>

#include <sched.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>

#include <algorithm>
#include <map>
#include <memory>
#include <string>

#include <cmh/machine/cpu_list.hpp>

namespace cmh::machine {

namespace {

constexpr std::string_view kSysCpu = "/sys/devices/system/cpu";

std::vector<int> list_file(const SysTree& tree, const std::string& path) {
  const auto text = tree.line(path);
  if (!text) return {};
  return parse_cpu_list(*text).value_or(std::vector<int>{});
}

/// The online CPUs: cpu/online, or the cpuN directories when that file is missing.
std::vector<int> online_cpus(const SysTree& tree) {
  if (const auto text = tree.line(std::string(kSysCpu) + "/online"))
    if (auto cpus = parse_cpu_list(*text); cpus && !cpus->empty()) return *cpus;
  std::vector<int> cpus;
  for (const auto& name : tree.list(kSysCpu)) {
    if (name.size() < 4 || name.rfind("cpu", 0) != 0) continue;
    if (auto one = parse_cpu_list(name.substr(3)); one && one->size() == 1 && name.find('-') == std::string::npos)
      cpus.push_back(one->front());
  }
  std::sort(cpus.begin(), cpus.end());
  return cpus;
}

int int_file(const SysTree& tree, const std::string& path) {
  const auto text = tree.line(path);
  if (!text || text->empty()) return -1;
  try {
    return std::stoi(*text);
  } catch (const std::exception&) {
    return -1;
  }
}

struct CpuSetDeleter {
  void operator()(cpu_set_t* set) const { CPU_FREE(set); }
};
using CpuSetPtr = std::unique_ptr<cpu_set_t, CpuSetDeleter>;
constexpr int kSetCpus = kMaxCpu + 1;

}  // namespace

const char* core_type_label(CoreType type) {
  switch (type) {
    case CoreType::performance: return "P";
    case CoreType::efficiency: return "E";
    case CoreType::unknown: return "";
  }
  return "";
}

const Cpu* Topology::find(int id) const {
  const auto it = std::lower_bound(cpus.begin(), cpus.end(), id, [](const Cpu& c, int v) { return c.id < v; });
  return it != cpus.end() && it->id == id ? &*it : nullptr;
}

std::vector<int> Topology::ids() const {
  std::vector<int> out;
  for (const auto& c : cpus) out.push_back(c.id);
  return out;
}

Topology read_topology(const SysTree& tree) {
  Topology t;
  const std::string cpu_dir(kSysCpu);
  const auto isolated = list_file(tree, cpu_dir + "/isolated");
  const auto nohz = list_file(tree, cpu_dir + "/nohz_full");
  // Hybrid Intel CPUs have one core PMU per kind of core, each listing its CPUs.
  const auto p_cores = list_file(tree, "/sys/devices/cpu_core/cpus");
  const auto e_cores = list_file(tree, "/sys/devices/cpu_atom/cpus");
  std::map<int, int> node_of;
  for (const auto& name : tree.list("/sys/devices/system/node")) {
    if (name.rfind("node", 0) != 0 || name.size() < 5) continue;
    const int node = std::atoi(name.c_str() + 4);
    for (int c : list_file(tree, "/sys/devices/system/node/" + name + "/cpulist")) node_of[c] = node;
  }
  std::map<int, int> capacity;
  for (int id : online_cpus(tree)) {
    const std::string dir = cpu_dir + "/cpu" + std::to_string(id);
    Cpu c;
    c.id = id;
    c.core = int_file(tree, dir + "/topology/core_id");
    c.package = int_file(tree, dir + "/topology/physical_package_id");
    c.siblings = list_file(tree, dir + "/topology/thread_siblings_list");
    if (c.siblings.empty()) c.siblings = list_file(tree, dir + "/topology/core_cpus_list");
    if (!cpus_contain(c.siblings, id)) c.siblings = {id};
    if (const auto it = node_of.find(id); it != node_of.end()) c.node = it->second;
    if (cpus_contain(p_cores, id)) c.type = CoreType::performance;
    if (cpus_contain(e_cores, id)) c.type = CoreType::efficiency;
    c.isolated = cpus_contain(isolated, id);
    c.nohz_full = cpus_contain(nohz, id);
    if (const int cap = int_file(tree, dir + "/cpu_capacity"); cap > 0) capacity[id] = cap;
    t.cpus.push_back(std::move(c));
  }
  // Without the hybrid PMUs (Arm big.LITTLE, or a kernel without them), CPUs of
  // lower capacity than the largest are the efficiency cores.
  if (p_cores.empty() && e_cores.empty() && !capacity.empty()) {
    int highest = 0;
    for (const auto& [id, cap] : capacity) highest = std::max(highest, cap);
    const bool differ = std::any_of(capacity.begin(), capacity.end(), [&](const auto& e) { return e.second < highest; });
    if (differ)
      for (auto& c : t.cpus)
        if (const auto it = capacity.find(c.id); it != capacity.end())
          c.type = it->second < highest ? CoreType::efficiency : CoreType::performance;
  }
  const bool any_p = std::any_of(t.cpus.begin(), t.cpus.end(), [](const Cpu& c) { return c.type == CoreType::performance; });
  const bool any_e = std::any_of(t.cpus.begin(), t.cpus.end(), [](const Cpu& c) { return c.type == CoreType::efficiency; });
  t.hybrid = any_p && any_e;
  return t;
}

std::vector<int> thread_affinity(int tid) {
  CpuSetPtr set(CPU_ALLOC(kSetCpus));
  const std::size_t size = CPU_ALLOC_SIZE(kSetCpus);
  CPU_ZERO_S(size, set.get());
  std::vector<int> cpus;
  if (::sched_getaffinity(tid, size, set.get()) != 0) return cpus;
  for (int c = 0; c < kSetCpus; ++c)
    if (CPU_ISSET_S(c, size, set.get())) cpus.push_back(c);
  return cpus;
}

int set_thread_affinity(const std::vector<int>& cpus, int tid) {
  CpuSetPtr set(CPU_ALLOC(kSetCpus));
  const std::size_t size = CPU_ALLOC_SIZE(kSetCpus);
  CPU_ZERO_S(size, set.get());
  for (int c : cpus)
    if (c >= 0 && c < kSetCpus) CPU_SET_S(c, size, set.get());
  return ::sched_setaffinity(tid, size, set.get()) == 0 ? 0 : errno;
}

std::vector<int> process_threads() {
  std::vector<int> tids;
  std::error_code ec;
  for (std::filesystem::directory_iterator it("/proc/self/task", ec), end; !ec && it != end; it.increment(ec))
    tids.push_back(std::atoi(it->path().filename().c_str()));
  return tids;
}

}  // namespace cmh::machine
