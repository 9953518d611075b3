// SPDX-License-Identifier: MIT
// The bundled allocator's decisions in this process (AllocatorState, cmh/result.hpp),
// read through its entry-point table (cmh/allocator_api.hpp); and
// what one benchmark's forks say together, for the result files and the console.
#pragma once

#include <cmh/allocator_api.hpp>
#include <cmh/result.hpp>

#include <string>
#include <vector>

namespace cmh::model {

/// This process's allocator: NUMA mode, reason, node list and options in effect.
/// Without the bundled allocator: mode "off", reason and options "allocator not linked".
AllocatorState detect_allocator_state(const AllocatorApi& api = linked_allocator());

/// "on (nodes 0-1): UseNUMA is enabled ..." / "off: The process is bound ..." /
/// "unknown (the fork did not report)".
std::string numa_summary(const AllocatorState& state);

/// The state all forks of a benchmark that reported agree on; `differs` is set when
/// they do not, `known` is false when none reported.
struct ForksAllocatorView {
  AllocatorState common;  ///< the first reporting fork's state
  bool differs = false;
};
ForksAllocatorView forks_allocator_view(const std::vector<ForkResult>& forks);

/// One line for a benchmark's forks, for CSV cells: numa_summary() (or the options) when
/// the forks agree, else "fork 1: ...; fork 2: ..." per fork.
std::string forks_numa_text(const std::vector<ForkResult>& forks);
std::string forks_options_text(const std::vector<ForkResult>& forks);

}  // namespace cmh::model
