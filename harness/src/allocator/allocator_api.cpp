// SPDX-License-Identifier: MIT
// linked_allocator(): the one place that names the bundled allocator's symbols, declared
// weak so that an executable without the allocator still links (each entry is then null).
#define CMH_ALLOC_WEAK 1
#include <cmh/alloc.h>
#include <cmh/allocator_api.hpp>

namespace cmh {

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
    a.numa_nodes = &cmh_alloc_numa_nodes;
    a.options_string = &cmh_alloc_options_string;
    a.backend = &cmh_alloc_backend;
    a.stats_get = &cmh_alloc_stats_get;
    a.node_allocations = &cmh_alloc_node_allocations;
    a.collect = &cmh_alloc_collect;
    a.set_oom_hook = &cmh_alloc_set_oom_hook;
    a.set_sample_hook = &cmh_alloc_set_sample_hook;
    return a;
  }();
  return api;
}

}  // namespace cmh
