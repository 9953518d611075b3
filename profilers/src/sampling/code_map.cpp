// SPDX-License-Identifier: MIT
// CodeMap: executable segments of the loaded objects, from dl_iterate_phdr.
#include "sampling/code_map.hpp"

#include <cmh/common/self_executable.hpp>

#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstring>

namespace cmh::profilers::sampling {
namespace {

struct Collect {
  Profile* profile;
  std::vector<std::pair<std::uint64_t, std::uint64_t>>* spans;  // [start, end)
  std::vector<std::uint64_t>* biases;
  std::vector<std::uint32_t>* modules;
  bool first = true;
};

int on_object(dl_phdr_info* info, std::size_t, void* data) {
  auto& c = *static_cast<Collect*>(data);
  std::string name = info->dlpi_name != nullptr ? info->dlpi_name : "";
  const bool main_program = c.first && name.empty();
  c.first = false;
  if (main_program) {
    name = common::self_executable_path();
    if (name.empty()) name = kUnknownModule;
  }
  else if (name.empty() || name.find("linux-vdso") != std::string::npos || name.find("linux-gate") != std::string::npos)
    name = "[vdso]";
  std::uint32_t module = UINT32_MAX;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
    if (module == UINT32_MAX) module = c.profile->module_index(name);
    const std::uint64_t start = info->dlpi_addr + ph.p_vaddr;
    c.spans->push_back({start, start + ph.p_memsz});
    c.biases->push_back(info->dlpi_addr);
    c.modules->push_back(module);
  }
  return 0;
}

}  // namespace

CodeMap::CodeMap(Profile& profile) : profile_(profile) {
  profile_.module_index(kUnknownModule);
  profile_.module_index(kKernelModule);
  refresh();
}

void CodeMap::refresh() {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
  std::vector<std::uint64_t> biases;
  std::vector<std::uint32_t> modules;
  Collect c{&profile_, &spans, &biases, &modules};
  ::dl_iterate_phdr(&on_object, &c);
  ranges_.clear();
  for (std::size_t i = 0; i < spans.size(); ++i) ranges_.push_back({spans[i].first, spans[i].second, biases[i], modules[i]});
  std::sort(ranges_.begin(), ranges_.end(), [](const Range& a, const Range& b) { return a.start < b.start; });
}

CodeAddress CodeMap::locate(std::uint64_t ip, bool kernel) {
  if (kernel) return {profile_.module_index(kKernelModule), ip};
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto it = std::upper_bound(ranges_.begin(), ranges_.end(), ip, [](std::uint64_t v, const Range& r) { return v < r.start; });
    if (it != ranges_.begin()) {
      --it;
      if (ip < it->end) {
        refreshed_since_miss_ = false;
        return {it->module, ip - it->bias};
      }
    }
    // Something was loaded since (dlopen): look once more, but not on every miss.
    if (attempt == 0 && !refreshed_since_miss_) {
      refreshed_since_miss_ = true;
      refresh();
    } else {
      break;
    }
  }
  return {profile_.module_index(kUnknownModule), ip};
}

}  // namespace cmh::profilers::sampling
