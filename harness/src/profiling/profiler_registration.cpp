// SPDX-License-Identifier: MIT
// The non-template half of CMH_PROFILER: registration that cannot throw.
#include <cmh/profiler_registration.hpp>

#include <cstdio>
#include <cstdlib>

namespace cmh::detail {

bool register_profiler_or_exit(ProfilerInfo info) noexcept {
  try {
    ProfilerRegistry::instance().add(std::move(info));
    return true;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cmh: %s\n", e.what());
  }
  std::exit(1);
}

}  // namespace cmh::detail
