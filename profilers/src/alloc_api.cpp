// SPDX-License-Identifier: MIT
// linked_allocator(): the weak allocator symbols, resolved once.
#include "alloc_api.hpp"

#include <string_view>

namespace cmh::profilers {

const AllocatorApi& linked_allocator() {
  static const AllocatorApi api = [] {
    AllocatorApi a;
    a.total_allocated_bytes = &cmh_alloc_total_allocated_bytes;
    a.total_allocations = &cmh_alloc_total_allocations;
    a.live_threads_allocated_bytes = &cmh_alloc_live_threads_allocated_bytes;
    a.thread_allocated_bytes = &cmh_alloc_thread_allocated_bytes;
    a.thread_allocations = &cmh_alloc_thread_allocations;
    a.gc_count = &cmh_alloc_gc_count;
    a.gc_time_ns = &cmh_alloc_gc_time_ns;
    a.numa_mode = &cmh_alloc_numa_mode;
    a.stats_get = &cmh_alloc_stats_get;
    a.node_allocations = &cmh_alloc_node_allocations;
    a.backend = &cmh_alloc_backend;
    return a;
  }();
  return api;
}

const char* foreign_allocator(const AllocatorApi& api) {
  if (!api.backend) return nullptr;
  const char* name = api.backend(nullptr);
  return name && std::string_view(name) != "cmh" ? name : nullptr;
}

std::optional<std::string> allocator_missing_reason(const AllocatorApi& api) {
  if (!api.total_allocated_bytes) return std::string(kAllocatorNotLinked);
  if (!api.total_allocations || !api.live_threads_allocated_bytes || !api.gc_count || !api.gc_time_ns)
    return std::string("the linked allocator lacks counters -prof alloc needs (an older cmh/alloc.h?)");
  return std::nullopt;
}

std::optional<std::string> allocator_numa_missing_reason(const AllocatorApi& api) {
  if (!api.total_allocated_bytes && !api.stats_get) return std::string(kAllocatorNotLinked);
  if (!api.numa_mode || !api.stats_get)
    return std::string("the linked allocator lacks the NUMA statistics -prof numa needs");
  return std::nullopt;
}

}  // namespace cmh::profilers
