// SPDX-License-Identifier: MIT
// The kernel's OOM-kill counter of this process's memory cgroup (v1
// memory.oom_control or v2 memory.events), read before and after a fork so that
// a fork killed by SIGKILL can be reported as killed by the OOM killer.
#pragma once

#include <optional>

namespace cmh::forking {

/// The cgroup's oom_kill count, or nullopt when the kernel does not expose it.
std::optional<long> oom_kill_count();

}  // namespace cmh::forking
