// SPDX-License-Identifier: MIT
// What -prof alloc, -prof numa and the sampler can do with the linked allocator.
#include "alloc_api.hpp"

#include <string_view>

namespace cmh::profilers {

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
