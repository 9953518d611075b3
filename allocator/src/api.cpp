// SPDX-License-Identifier: MIT
// The exported C API of cmh/alloc.h: thin wrappers over the counter readers, the
// collector, the start-up decisions and the statistics. Every function works before the
// first allocation too (it starts the allocator if needed) and never allocates.
#include <cmh/alloc.h>

#include "internal.hpp"

using namespace cmh::allocator;

extern "C" {

CMH_EXPORT int cmh_alloc_version(void) { return CMH_ALLOC_API_VERSION; }

CMH_EXPORT uint64_t cmh_alloc_total_allocated_bytes(void) { return process_totals().bytes; }

CMH_EXPORT uint64_t cmh_alloc_total_allocations(void) { return process_totals().count; }

CMH_EXPORT uint64_t cmh_alloc_thread_allocated_bytes(void) { return thread_bytes(); }

CMH_EXPORT uint64_t cmh_alloc_thread_allocations(void) { return thread_count(); }

CMH_EXPORT uint64_t cmh_alloc_live_threads_allocated_bytes(void) { return live_threads_bytes(); }

CMH_EXPORT uint64_t cmh_alloc_gc_count(void) { return gc_count(); }

CMH_EXPORT uint64_t cmh_alloc_gc_time_ns(void) { return gc_time_ns(); }

CMH_EXPORT void cmh_alloc_collect(void) {
  if (!ensure_initialized() || forward::g_on) return;
  collect_everything();
  numa_log_print("on collect");
}

CMH_EXPORT int cmh_alloc_numa_mode(const char** reason) {
  ensure_initialized();
  if (reason) *reason = numa_decision().reason;
  return numa_decision().mode;
}

CMH_EXPORT const char* cmh_alloc_numa_nodes(void) {
  ensure_initialized();
  return numa_decision().node_list;
}

CMH_EXPORT const char* cmh_alloc_options_string(void) {
  ensure_initialized();
  return options_text();
}

CMH_EXPORT const char* cmh_alloc_options_help(void) { return options_help(); }

CMH_EXPORT void cmh_alloc_set_oom_hook(cmh_alloc_oom_hook_t hook) { set_oom_hook(hook); }

CMH_EXPORT int cmh_alloc_node_of(const void* p) { return node_of(p); }

CMH_EXPORT const char* cmh_alloc_backend(const char** problem) {
  ensure_initialized();
  if (problem) *problem = forward::problem();
  return forward::name();
}

CMH_EXPORT int cmh_alloc_stats_get(cmh_alloc_stats_t* stats) {
  ensure_initialized();
  return stats_fill(stats) ? 1 : 0;
}

CMH_EXPORT size_t cmh_alloc_node_allocations(cmh_alloc_node_alloc_t* rows, size_t capacity) {
  if (!ensure_initialized() || forward::g_on) return 0;
  const int nodes = g_space.node_count > 0 ? g_space.node_count : 1;
  for (int n = 0; rows && n < nodes && static_cast<size_t>(n) < capacity; ++n) {
    const NodeTotals t = node_totals(n);
    rows[n].node_id = g_space.layout->node_id[n];
    rows[n].alloc_bytes = t.bytes;
    rows[n].alloc_count = t.count;
    rows[n].local_bytes = t.local_bytes;
    rows[n].local_count = t.local_count;
  }
  return static_cast<size_t>(nodes);
}

CMH_EXPORT size_t cmh_alloc_stats_json(char* buffer, size_t size) {
  ensure_initialized();
  return stats_json(buffer, size);
}

CMH_EXPORT void cmh_alloc_test_set_cpu(int cpu) { tls_test_cpu = cpu; }

}  // extern "C"
