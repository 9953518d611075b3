// SPDX-License-Identifier: MIT
// The bundled allocator's C API (cmh/alloc.h) as the harness and the profilers reach it:
// one table of function pointers, each null when the executable is built without the
// allocator (NO_ALLOCATOR, the sanitizer build) or with an older one. linked_allocator()
// is the only code that names the allocator's symbols; code that takes an AllocatorApi&
// can be tested with a fake table whose entries the test sets by hand.
#pragma once

#include <cmh/alloc.h>

#include <cstddef>
#include <cstdint>

namespace cmh {

struct AllocatorApi {
  // Counters (-prof alloc).
  std::uint64_t (*total_allocated_bytes)() = nullptr;
  std::uint64_t (*total_allocations)() = nullptr;
  std::uint64_t (*live_threads_allocated_bytes)() = nullptr;
  std::uint64_t (*thread_allocated_bytes)() = nullptr;  ///< the calling thread's, for paused stretches
  std::uint64_t (*thread_allocations)() = nullptr;
  std::uint64_t (*gc_count)() = nullptr;
  std::uint64_t (*gc_time_ns)() = nullptr;
  // Start-up decisions (the result files' allocator state).
  int (*numa_mode)(const char** reason) = nullptr;
  const char* (*numa_nodes)() = nullptr;
  const char* (*options_string)() = nullptr;
  const char* (*backend)(const char** problem) = nullptr;
  // Statistics (-prof numa).
  int (*stats_get)(cmh_alloc_stats_t* stats) = nullptr;
  std::size_t (*node_allocations)(cmh_alloc_node_alloc_t* rows, std::size_t capacity) = nullptr;
  // Actions and hooks.
  void (*collect)() = nullptr;  ///< -gc true
  void (*set_oom_hook)(cmh_alloc_oom_hook_t hook) = nullptr;
  void (*set_sample_hook)(cmh_alloc_sample_hook_t hook, std::uint64_t every_bytes, void* arg) = nullptr;
};

/// The entry points this executable was linked with, resolved once.
const AllocatorApi& linked_allocator();

}  // namespace cmh
