// SPDX-License-Identifier: MIT
// register_builtins(): puts the built-in profilers into cmh::ProfilerRegistry.
//
// It runs in main(), after static initialisation, so a user profiler registered
// under a built-in's name (or alias) is already there: the user's wins and the
// built-in is left out.
#include <cmh/profilers/builtins.hpp>

#include "builtin_infos.hpp"

#include <mutex>

namespace cmh::profilers {

void register_builtins() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto& registry = ProfilerRegistry::instance();
    for (ProfilerInfo info : {alloc_profiler_info(), gc_profiler_info(), rusage_profiler_info(), perf_profiler_info(),
                              perfnorm_profiler_info(), numa_profiler_info(), icount_profiler_info(),
                              perfasm_profiler_info(), flame_profiler_info()}) {
      bool taken = registry.find(info.name) != nullptr;
      for (const auto& alias : info.aliases) taken = taken || registry.find(alias) != nullptr;
      if (!taken) registry.add(std::move(info));
    }
  });
}

}  // namespace cmh::profilers
