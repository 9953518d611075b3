// SPDX-License-Identifier: MIT
// Cross-file functions of the allocator, grouped by the file that defines them, so this
// header is also the map of the layers: entry points (entry*.cpp, api.cpp) call the heap
// layer (heap.cpp, free.cpp, collect.cpp, threads.cpp, counters.cpp), which calls the
// region layer (region.hpp), which calls the OS primitives (prim.hpp). init.cpp wires them
// at start-up.
#pragma once

#include <cmh/alloc.h>

#include "forward.hpp"
#include "heap.hpp"
#include "options.hpp"
#include "prim.hpp"
#include "topology.hpp"

namespace cmh::allocator {

// ---- episode accounting (counters.cpp) ----
/// Adds one collection episode of `kinds` lasting `ns` to `self` (the heap the calling
/// thread owns, or the bootstrap heap under its lock), or to the process-wide atomics when
/// the caller owns no heap.
void episode_record(Heap* self, unsigned kinds, uint64_t ns, uint64_t bytes_purged);

/// One collection episode: starts its clock at the first unit of reclamation work and
/// records itself, if any work was done, when it goes out of scope.
class Episode {
 public:
  explicit Episode(Heap* self) : self_(self) {}
  ~Episode() {
    if (kinds_) episode_record(self_, kinds_, prim::monotonic_ns() - start_, purged_);
  }
  Episode(const Episode&) = delete;
  Episode& operator=(const Episode&) = delete;
  void note(unsigned kind) {
    if (kinds_ == 0) start_ = prim::monotonic_ns();
    kinds_ |= kind;
  }
  void purged(uint64_t bytes) {
    if (bytes) note(kGcPurge);
    purged_ += bytes;
  }
  /// A timestamp for bookkeeping (decay), reusing the episode clock when it runs.
  uint64_t now() { return kinds_ ? start_ : prim::monotonic_ns(); }

 private:
  Heap* self_;
  unsigned kinds_ = 0;
  uint64_t start_ = 0;
  uint64_t purged_ = 0;
};

// ---- heap.cpp: allocation beyond the fast paths, pages, retiring ----
/// Any allocation the inlined fast path did not serve; `counted` bytes are counted.
void* heap_alloc_generic(Heap* heap, size_t size, size_t counted, bool zero);
/// The same, on a heap the caller owns (or the bootstrap heap under its lock).
void* heap_alloc_in(Heap* heap, size_t size, size_t counted, bool zero);
/// Power-of-two `align` > 16; counts `size`.
void* heap_alloc_aligned(Heap* heap, size_t align, size_t size);
void* heap_alloc_aligned_in(Heap* heap, size_t align, size_t size);
/// Called by the free fast path when a page's last block came back and it is not alone
/// (takes the heap's lock); the _locked form for a caller that holds it.
void page_became_empty(Heap* heap, Page* page);
void page_became_empty_locked(Heap* heap, Page* page);
void heap_fold(Heap* heap);
/// Counts one allocation of `bytes` (the block at `block`, for its node) straight into the
/// folded totals (the owner only).
void count_slow(Heap* heap, uint64_t bytes, const void* block);
void region_list_push(Heap* heap, uint32_t region, uint8_t list);
void region_list_remove(Heap* heap, uint32_t region);
/// Retires `page` if nothing can still reach it; false when it must wait.
bool page_try_retire(Heap* heap, Page* page, Episode& episode);
bool page_can_retire(const Page* page);
/// Drains other threads' frees into an empty list of the page, and moves the owner's
/// frees to `free` when it is empty (no list walked but in the rare three-list case).
void page_collect(Page* page, Episode& episode);
void large_became_empty(Heap* heap, Page* page, Episode& episode);
void release_empty_regions(Heap* heap, bool keep_one, uint64_t now);
void retiring_clear(Heap* heap);
void retiring_process(Heap* heap, Episode& episode, bool all);
void update_direct(Heap* heap, size_t size_class);

// ---- purge.cpp: reclaiming a heap its owner is not working on, the purge thread ----
/// With `heap->lock` held while its owner may run its lock-free fast paths: retires what
/// those cannot reach (pages wholly freed that are not a class's current page, full pages
/// that other threads' frees emptied, cached large blocks, empty regions) and purges the
/// heap's free slices at once. Never folds the owner's tally or writes its episode counters.
void reclaim_foreign(Heap* heap, Episode& episode);
/// -Xmx: reclaims other live threads' heaps (try_lock with a short wait; busy ones skipped).
void reclaim_live_heaps(Heap* self, Episode& episode);
/// Starts the purge thread (once per process, and again in a fork child) unless
/// -XX:-BackgroundPurge. Call with no lock held other than the caller's own heap lock.
void purge_thread_start();
/// In a fork child: the parent's purge thread does not exist here; started again on demand.
void purge_thread_forked(bool wanted);
bool purge_thread_wanted();
/// Allocations that must not be counted (pthread_create's, for the purge thread): static
/// memory, never freed.
extern CMH_TLS bool tls_uncounted;
void* uncounted_alloc(size_t size, size_t align);

// ---- free.cpp: free, realloc, usable size ----
void free_generic(void* p);
void* heap_realloc(void* p, size_t size);
size_t usable_size(const void* p);
int node_of(const void* p);

// ---- collect.cpp: collection episodes ----
/// kLight keeps the only page of a class and one empty region (a thread starting up, the
/// periodic work); kMaintain (the periodic work of a thread back from at least the decay
/// time away) retires every empty page; kThreadExit likewise; kForce also purges all free
/// memory at once.
enum class CollectMode { kLight, kMaintain, kThreadExit, kForce };
void heap_drain_notify(Heap* heap, Episode& episode);
void heap_collect(Heap* heap, CollectMode mode, Episode& episode);
/// Every 256 locked slow-path calls, and every 256 allocations (kTallyCheck): when the
/// maintenance period (half the decay time, at least 10 ms) has passed, collects the heap
/// (other threads' frees, empty pages retired) and purges what has been free for the decay time.
void heap_maintain(Heap* heap, Episode& episode);
/// cmh_alloc_collect().
void collect_everything();

// ---- threads.cpp: thread heaps, pools, bootstrap heap, fork ----
extern CMH_TLS int tls_test_cpu;
/// The calling thread's heap, created or adopted; nullptr when the thread has already
/// run its exit hook or is inside start-up (it then uses the bootstrap heap).
Heap* thread_heap_init();
void* bootstrap_alloc(size_t size, size_t counted, bool zero, size_t align);
/// The heap the calling thread may account work to, or nullptr.
Heap* owned_heap();
Heap* registry_first();
Heap* pool_pop_any(int node);
void pool_push(Heap* heap);
Heap* bootstrap_heap();
SpinLock& bootstrap_lock();
int current_node(Heap* heap);
/// Parks heaps of exited threads; with `force` every parked heap with pages, otherwise
/// those parked longer than the decay time. True when one was collected.
bool collect_pooled(uint64_t now, bool force, Episode& episode);
void threads_install_key();     // registers the bootstrap heap, creates the exit-hook key
void threads_install_atfork();  // from the start-up constructor (pthread_atfork may allocate)
uint64_t threads_exited();
bool is_emergency(const void* p);
void* emergency_alloc(size_t size);
size_t emergency_size(const void* p);

// ---- counters.cpp: readers ----
struct Totals {
  uint64_t bytes = 0, count = 0;
};
Totals heap_totals(const Heap* heap);
/// Per logical node n: bytes and allocations served from its memory, and the local share.
struct NodeTotals {
  uint64_t bytes = 0, count = 0, local_bytes = 0, local_count = 0;
};
NodeTotals node_totals(int n);
/// -Xlog:numa (numa_log.cpp): the per-node statistics on stderr, `when` = "at exit", ...
void numa_log_print(const char* when);
Totals process_totals();
uint64_t thread_bytes();
uint64_t thread_count();
// sample_hook.cpp: -prof flame:alloc's hook, checked on the slow path only.
bool sample_hook_set();
void sample_allocation(size_t size);
uint64_t live_threads_bytes();
uint64_t gc_count();
uint64_t gc_time_ns();
bool stats_fill(cmh_alloc_stats_t* stats);
size_t stats_json(char* buffer, size_t size);

// ---- debug.cpp: CMH_ALLOC_DEBUG invariant checks ----
void debug_poison_free(const Page* page, Block* block);
void debug_check_alloc(const Page* page, Block* block);
void debug_check_free(const Page* page, const void* p, Block* block, bool local);
void debug_check_page(const Page* page);
/// Every page queue, region and slice of `heap` (its owner, or whoever holds it without one).
void debug_check_heap(const Heap* heap);
[[noreturn]] void debug_fail(const char* what, const void* p);

// ---- init.cpp: start-up, options, messages ----
bool ensure_initialized();
/// True when -XX:Allocator chose another allocator (forward.hpp); starts the allocator first.
inline bool forward_chosen() { return ensure_initialized() && forward::g_on; }
bool process_ready();
const Options& options();
const NumaDecision& numa_decision();
const char* options_text();
/// Prints a message line on stderr (at most once per `once` flag when given).
void report_line(const char* line);
/// Out of memory: prints the one line (once per process), sets errno. Returns nullptr.
void* out_of_memory(size_t size);
/// cmh_alloc_set_oom_hook(): called by out_of_memory() after its report line, once.
void set_oom_hook(cmh_alloc_oom_hook_t hook);

}  // namespace cmh::allocator
