/* SPDX-License-Identifier: MIT */
/* The C API of cmh's bundled NUMA region allocator (plain C, usable from C and C++).
 * The allocator replaces malloc/free/new/delete for the whole process; this header
 * exposes its exact process-wide counters, its "collections", its NUMA decision and a
 * versioned statistics struct. Callers that may run without the allocator define
 * CMH_ALLOC_WEAK before including this header: every function is then declared weak
 * and is a null pointer when the allocator is not linked in. */
#ifndef CMH_ALLOC_H
#define CMH_ALLOC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/** Version of this API: increased on every incompatible change of a function below. */
#define CMH_ALLOC_API_VERSION 1
/** Version of cmh_alloc_stats_t: increased on every incompatible change of the struct. */
#define CMH_ALLOC_STATS_VERSION 2 /* 2: per-node allocation counters */
/** Most NUMA nodes the allocator distinguishes (node ids 0..63). */
#define CMH_ALLOC_MAX_NODES 64

#if defined(CMH_ALLOC_WEAK)
#define CMH_ALLOC_DECL __attribute__((weak))
#else
#define CMH_ALLOC_DECL
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** NUMA mode decided at start-up (see cmh_alloc_numa_mode). */
typedef enum cmh_alloc_numa_e {
  CMH_ALLOC_NUMA_OFF = 0,        /**< one pool, no binding (the reason says why) */
  CMH_ALLOC_NUMA_MEMBIND = 1,    /**< regions bound per node; default/bind memory policy */
  CMH_ALLOC_NUMA_INTERLEAVE = 2  /**< regions bound per node; the process had an interleave policy */
} cmh_alloc_numa_t;

/** CMH_ALLOC_API_VERSION of the allocator linked into the process. */
CMH_ALLOC_DECL int cmh_alloc_version(void);

/* ---- Counters. Cheap (a walk over the heap records, no lock); callable from any thread. ---- */

/** Every byte requested since start by every thread, alive or exited. Exact and monotonic:
 *  a reader that synchronises with the allocating threads (e.g. joined them) sees exactly
 *  the sum of the sizes they requested. calloc counts n*size; realloc counts the new size
 *  when it moves the block and the growth beyond the old usable size when it grows in
 *  place; aligned allocation counts the requested size (not the alignment padding). */
CMH_ALLOC_DECL uint64_t cmh_alloc_total_allocated_bytes(void);
/** Number of successful allocations counted in cmh_alloc_total_allocated_bytes. */
CMH_ALLOC_DECL uint64_t cmh_alloc_total_allocations(void);
/** Bytes requested by the calling thread only (the pre-JDK-21 ThreadMXBean view). */
CMH_ALLOC_DECL uint64_t cmh_alloc_thread_allocated_bytes(void);
/** Allocations made by the calling thread only, counted as in cmh_alloc_total_allocations. */
CMH_ALLOC_DECL uint64_t cmh_alloc_thread_allocations(void);
/** Sum of cmh_alloc_thread_allocated_bytes over the threads alive now: bytes of threads that
 *  exited are missing, which is the blind spot JDK-8304074 fixed in JMH's -prof gc. */
CMH_ALLOC_DECL uint64_t cmh_alloc_live_threads_allocated_bytes(void);

/* ---- Collections (see allocator/README.md, "What a collection is"). ---- */

/** Number of collection episodes since start, over all threads (exited ones included). */
CMH_ALLOC_DECL uint64_t cmh_alloc_gc_count(void);
/** Wall time of those episodes in nanoseconds, summed over threads. */
CMH_ALLOC_DECL uint64_t cmh_alloc_gc_time_ns(void);
/** A full collection on the calling thread (the harness's -gc true): drains its heap and every
 *  parked heap, retires empty pages and regions, and returns all free memory to the OS now,
 *  ignoring the decay time. Counts as one episode. */
CMH_ALLOC_DECL void cmh_alloc_collect(void);

/* ---- Configuration in effect. ---- */

/** NUMA mode; *reason (if reason is not NULL) receives a static, human-readable sentence:
 *  why NUMA is off ("Only a single NUMA node is available", ...) or how it is on. */
CMH_ALLOC_DECL int cmh_alloc_numa_mode(const char** reason);
/** The nodes whose memory the heap uses when NUMA mode is on, as a list ("0-1", "0,2"); ""
 *  when it is off. Static storage; never NULL. */
CMH_ALLOC_DECL const char* cmh_alloc_numa_nodes(void);
/** The options in effect, in CMH_ALLOC's JVM spelling ("-Xmx64m -Xms0 -XX:-AlwaysPreTouch ...").
 *  Static storage; never NULL. */
CMH_ALLOC_DECL const char* cmh_alloc_options_string(void);
/** The allocator serving this process: "cmh" (the bundled heap), or the -XX:Allocator choice
 *  ("glibc", "jemalloc", "tcmalloc", "mimalloc" or an absolute path), whose calls the
 *  forwarding layer counts exactly. Under a foreign allocator *problem (if problem is not
 *  NULL) receives one line when malloc did not resolve to the chosen library (the preload
 *  failed), NULL otherwise; gc counters read 0 there and mean nothing, NUMA mode is off.
 *  Static storage. */
CMH_ALLOC_DECL const char* cmh_alloc_backend(const char** problem);
/** Multi-line description of the CMH_ALLOC options, for a -h text. Static storage. */
CMH_ALLOC_DECL const char* cmh_alloc_options_help(void);

/** Called once, the first time an allocation fails: heap_limit is 1 when -Xmx refused it,
    0 when the OS did; line describes it (the allocator writes it to stderr only for the heap
    limit). A request larger than the whole heap (malloc(SIZE_MAX)) is no failure of the heap
    and calls nothing. It runs inside
    the failing allocation, on its thread: it must not allocate. cmh's fork worker uses it to
    tell the host, as a typed frame, that the fork ran out of memory. NULL removes the hook. */
typedef void (*cmh_alloc_oom_hook_t)(int heap_limit, const char* line);
CMH_ALLOC_DECL void cmh_alloc_set_oom_hook(cmh_alloc_oom_hook_t hook);
/** Allocation sampling (-prof flame:alloc). Once set, the allocator's slow path calls
    hook(size, bytes, arg) on an allocating thread when that thread has allocated at least
    every_bytes since its previous call (or since the hook was set): size is the allocation
    being made, bytes the exact bytes the thread requested since then (the sample's weight).
    The slow path runs at least every 256 allocations of a thread and when a free list runs
    out, so about one allocation in a few hundred is seen. It runs inside the allocation, on
    its thread: it must not allocate (it is not called again on that thread while it runs).
    NULL removes the hook; setting it again restarts every thread's count. */
typedef void (*cmh_alloc_sample_hook_t)(size_t size, uint64_t bytes, void* arg);
CMH_ALLOC_DECL void cmh_alloc_set_sample_hook(cmh_alloc_sample_hook_t hook, uint64_t every_bytes, void* arg);
/** The NUMA node id the allocator placed the memory at p on, or -1 when p is not the
 *  allocator's memory or NUMA mode is off. */
CMH_ALLOC_DECL int cmh_alloc_node_of(const void* p);

/* ---- Versioned statistics (every field listed once, X-macro style). ---- */

/* X(name, description): process-wide figures, all uint64_t. */
#define CMH_ALLOC_STATS_FIELDS(X)                                                              \
  X(total_allocated_bytes, "bytes requested since start, all threads, exited ones included")   \
  X(total_allocations, "successful allocations since start")                                  \
  X(gc_count, "collection episodes; one episode may do several kinds of work below")         \
  X(gc_time_ns, "wall time of the collection episodes, summed over threads")                   \
  X(remote_drain_count, "episodes that drained frees made by other threads")                  \
  X(retire_count, "episodes that retired empty pages or regions")                             \
  X(purge_count, "episodes that returned memory to the OS")                                   \
  X(adopt_count, "heaps of exited threads adopted by a new thread")                           \
  X(explicit_collect_count, "cmh_alloc_collect() calls")                                      \
  X(pages_retired, "empty pages given back to their region")                                  \
  X(bytes_purged, "bytes returned to the OS (madvise) since start")                           \
  X(reserved_bytes, "address space reserved for the heap")                                    \
  X(committed_bytes, "heap memory made accessible (committed) so far")                        \
  X(dirty_bytes, "committed heap memory that may hold data (in use or freed, not purged)")    \
  X(resident_bytes, "heap memory resident in RAM now (mincore)")                              \
  X(in_use_bytes, "bytes of pages and huge blocks in use (what -Xmx limits)")                  \
  X(heap_limit_bytes, "-Xmx in bytes, 0 when unlimited")                                      \
  X(region_size, "region size in bytes")                                                      \
  X(live_heaps, "thread heaps owned by a live thread")                                        \
  X(pooled_heaps, "heaps parked after their thread exited, waiting for adoption")             \
  X(threads_exited, "threads whose heap was parked at exit")                                  \
  X(oom_count, "allocations that failed for lack of memory")                                  \
  X(numa_mode, "cmh_alloc_numa_t")

/* X(name, description): one row per node (per logical pool when NUMA is off). */
#define CMH_ALLOC_NODE_STATS_FIELDS(X)                                                  \
  X(in_use_bytes, "bytes of pages and huge blocks in use on this node")                 \
  X(committed_bytes, "committed heap memory of this node's regions")                    \
  X(regions_in_use, "regions owned by a heap or holding a huge block")                  \
  X(page_requests, "pages (and huge blocks) requested for this node")                   \
  X(page_hits, "of those, how many landed on this node")                                \
  X(page_fallbacks, "pages requested elsewhere that landed here (node ran out)")        \
  X(bind_calls, "mbind calls made for this node's regions")                             \
  X(bind_failures, "mbind calls that failed")                                           \
  X(simulated_binds, "bindings only recorded, for nodes of an injected test topology")

/* X(name, description): per node, what was allocated from its memory since start, by all
 * threads, exited ones included (like total_allocated_bytes, of which these are the split).
 * "Local": served while the allocating thread's heap was on this node, i.e. the node of
 * the CPU it ran on at its last page refill (the node is re-checked there, never per
 * malloc). Remote = alloc - local. Meaningful only when NUMA mode is on: when off, the
 * single pool is not placed on any node and these only split nothing. */
#define CMH_ALLOC_NODE_ALLOC_FIELDS(X)                                                   \
  X(alloc_bytes, "bytes requested and served from this node's memory")                  \
  X(alloc_count, "allocations served from this node's memory")                          \
  X(local_bytes, "of alloc_bytes, those allocated by a thread on this node")            \
  X(local_count, "of alloc_count, those allocated by a thread on this node")

#define CMH_ALLOC_STATS_DECLARE_(name, description) uint64_t name;

typedef struct cmh_alloc_node_stats_s {
  int64_t node_id; /**< NUMA node id, -1 for the single pool when NUMA is off */
  CMH_ALLOC_NODE_STATS_FIELDS(CMH_ALLOC_STATS_DECLARE_)
  CMH_ALLOC_NODE_ALLOC_FIELDS(CMH_ALLOC_STATS_DECLARE_)
} cmh_alloc_node_stats_t;

typedef struct cmh_alloc_stats_s {
  uint32_t size;    /**< sizeof(cmh_alloc_stats_t) as the caller compiled it */
  uint32_t version; /**< CMH_ALLOC_STATS_VERSION as the caller compiled it */
  CMH_ALLOC_STATS_FIELDS(CMH_ALLOC_STATS_DECLARE_)
  uint64_t node_count; /**< rows used in nodes[] */
  cmh_alloc_node_stats_t nodes[CMH_ALLOC_MAX_NODES];
  uint64_t reserved[8]; /**< room for additive fields */
} cmh_alloc_stats_t;

/** One node's cumulative allocation counters (the CMH_ALLOC_NODE_ALLOC_FIELDS of its stats row). */
typedef struct cmh_alloc_node_alloc_s {
  int64_t node_id; /**< NUMA node id, -1 for the single pool when NUMA is off */
  CMH_ALLOC_NODE_ALLOC_FIELDS(CMH_ALLOC_STATS_DECLARE_)
} cmh_alloc_node_alloc_t;

/** Zeroes *stats and fills in size and version, ready for cmh_alloc_stats_get. */
static inline cmh_alloc_stats_t* cmh_alloc_stats_init(cmh_alloc_stats_t* stats) {
  memset(stats, 0, sizeof(*stats));
  stats->size = (uint32_t)sizeof(*stats);
  stats->version = CMH_ALLOC_STATS_VERSION;
  return stats;
}

/** Fills *stats. Returns 1, or 0 (and leaves the rest untouched) when stats is NULL or its
 *  size/version do not match this allocator's. Slower than the counters (it walks the
 *  regions with mincore for resident_bytes): call it outside measurements. */
CMH_ALLOC_DECL int cmh_alloc_stats_get(cmh_alloc_stats_t* stats);
/** Per-node allocation counters into rows[0 .. min(capacity, nodes)); returns the number of
 *  nodes (1 pool when NUMA is off). Only walks the heap records, like
 *  cmh_alloc_total_allocated_bytes (no region walk, no mincore): cheap enough around an
 *  iteration. */
CMH_ALLOC_DECL size_t cmh_alloc_node_allocations(cmh_alloc_node_alloc_t* rows, size_t capacity);
/** Writes the statistics as one JSON object (NUL-terminated, truncated to size). Returns the
 *  length the full text needs, excluding the NUL, like snprintf. */
CMH_ALLOC_DECL size_t cmh_alloc_stats_json(char* buffer, size_t size);

/* ---- Test hook. ---- */

/** Makes the calling thread report `cpu` as its current CPU (-1: the real one again), so that
 *  tests can place threads on the nodes of an injected topology (CMH_ALLOC_TOPOLOGY). The
 *  heap notices on its next page refill, as it would notice a migration. */
CMH_ALLOC_DECL void cmh_alloc_test_set_cpu(int cpu);

#ifdef __cplusplus
}
#endif

#endif /* CMH_ALLOC_H */
