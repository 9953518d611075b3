// SPDX-License-Identifier: MIT
// The path of the running executable, from /proc/self/exe: the host re-executes it as
// its forks, the results name it, the sampling profiler finds its symbols in it.
#pragma once

#include <string>

namespace cmh::common {

/// The path /proc/self/exe links to (of any length), or "" when it cannot be read (no
/// /proc mounted). Callers say what they fall back to.
std::string self_executable_path();

}  // namespace cmh::common
