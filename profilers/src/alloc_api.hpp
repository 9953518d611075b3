// SPDX-License-Identifier: MIT
// The bundled allocator's C API as the profilers see it: weak declarations, so an
// executable built without the allocator (NO_ALLOCATOR, the sanitizer build) still
// links, and a table of function pointers, so unit tests can drive the profilers
// with a fake allocator whose counters they set by hand.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

// Weak: every entry point is a null pointer when the allocator is not linked in.
#ifndef CMH_ALLOC_WEAK
#define CMH_ALLOC_WEAK 1
#endif
#include <cmh/alloc.h>

namespace cmh::profilers {

/// The allocator entry points the profilers read; null where not linked.
struct AllocatorApi {
  std::uint64_t (*total_allocated_bytes)() = nullptr;
  std::uint64_t (*total_allocations)() = nullptr;
  std::uint64_t (*live_threads_allocated_bytes)() = nullptr;
  std::uint64_t (*thread_allocated_bytes)() = nullptr;  ///< the calling thread's, for paused stretches
  std::uint64_t (*thread_allocations)() = nullptr;
  std::uint64_t (*gc_count)() = nullptr;
  std::uint64_t (*gc_time_ns)() = nullptr;
  int (*numa_mode)(const char** reason) = nullptr;
  int (*stats_get)(cmh_alloc_stats_t* stats) = nullptr;
  std::size_t (*node_allocations)(cmh_alloc_node_alloc_t* rows, std::size_t capacity) = nullptr;
  const char* (*backend)(const char** problem) = nullptr;
};

/// The -XX:Allocator choice when the fork runs on another allocator than cmh's bundled
/// one (gc.* and the NUMA figures mean nothing there), else nullptr.
const char* foreign_allocator(const AllocatorApi& api);

/// The entry points this executable was linked with.
const AllocatorApi& linked_allocator();

/// nullopt when every counter alloc needs is there, else the reason -prof alloc cannot run.
std::optional<std::string> allocator_missing_reason(const AllocatorApi& api);
/// The same for what -prof numa needs.
std::optional<std::string> allocator_numa_missing_reason(const AllocatorApi& api);

/// The reason used when the bundled allocator is not linked at all.
inline constexpr const char* kAllocatorNotLinked =
    "the bundled allocator is not linked into this executable (built with NO_ALLOCATOR or the "
    "sanitizer build)";

}  // namespace cmh::profilers
