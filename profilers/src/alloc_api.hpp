// SPDX-License-Identifier: MIT
// What the profilers decide from the bundled allocator's entry points (the table itself,
// cmh::AllocatorApi, is the harness's: cmh/allocator_api.hpp). Unit tests drive the
// profilers with a fake table whose counters they set by hand.
#pragma once

#include <cmh/allocator_api.hpp>

#include <optional>
#include <string>

namespace cmh::profilers {

using cmh::AllocatorApi;
using cmh::linked_allocator;

/// The -XX:Allocator choice when the fork runs on another allocator than cmh's bundled
/// one (gc.* and the NUMA figures mean nothing there), else nullptr.
const char* foreign_allocator(const AllocatorApi& api);

/// nullopt when every counter alloc needs is there, else the reason -prof alloc cannot run.
std::optional<std::string> allocator_missing_reason(const AllocatorApi& api);
/// The same for what -prof numa needs.
std::optional<std::string> allocator_numa_missing_reason(const AllocatorApi& api);

/// The reason used when the bundled allocator is not linked at all.
inline constexpr const char* kAllocatorNotLinked =
    "the bundled allocator is not linked into this executable (built with NO_ALLOCATOR or the "
    "sanitizer build)";

}  // namespace cmh::profilers
