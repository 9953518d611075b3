// SPDX-License-Identifier: MIT
// Thread-local heaps and the inlined fast paths. A heap is reached through one
// initial-exec TLS pointer; it holds a direct page table for sizes <= 1 KiB, a page
// queue per size class, and its counters. Heaps are never freed: a thread's heap is
// parked at thread exit and adopted by a later thread, so the set of counter records
// only grows and the process total (the sum over all records) is exact and monotonic.
// Fast path cost: malloc pops `page->free` and adds to the page's tally, both on the page
// descriptor's first cache line; free pushes onto `page->local_free`. No lock, no atomic
// read-modify-write.
#pragma once

#include <atomic>

#include "config.hpp"
#include "page.hpp"
#include "region.hpp"
#include "spin_lock.hpp"

namespace cmh::allocator {

enum HeapState : uint32_t { kHeapEmpty = 0, kHeapLive, kHeapPooled, kHeapBusy, kHeapOrphan, kHeapBootstrap };

// A tally packs, since the last fold, the bytes (high 40 bits) and the allocation count
// (low 24 bits) into one word, so counting is one add. Each size class's current page
// (the head of its queue, the direct table's target) carries the tally of what was taken
// from it (Page::tally), on the cache line malloc already writes; every other page's is
// 0, because a page's tally is folded into the heap's 64-bit totals when it stops being
// its class's current page (update_direct), and Heap::tallied names the pages a reader
// must add. Small and medium blocks are counted there on every path; the slow path folds
// once a tally's count reaches 256, and no path adds to a tally at 256 without folding
// first, so a tally holds at most 257 allocations of at most 64 KiB: neither field can
// overflow. (Large and huge blocks are counted straight into the totals.)
inline constexpr unsigned kTallyBytesShift = 24;
inline constexpr uint64_t kTallyCountMask = (uint64_t{1} << kTallyBytesShift) - 1;
inline uint64_t tally_bytes(uint64_t t) { return t >> kTallyBytesShift; }
inline uint64_t tally_count(uint64_t t) { return t & kTallyCountMask; }
// The count's bit 8: set once a page served 256 allocations since its last fold (a count
// stays below 512), when malloc takes the slow path once (one test on the fast path), so
// that a thread that only ever hits its free lists still runs the periodic work
// (collecting other threads' frees, returning memory after the decay time) at least
// every 256 allocations of one size class.
inline constexpr uint64_t kTallyCheck = 256;

// Kinds of collection work, for the per-kind episode counters.
enum GcKind : unsigned {
  kGcDrain = 1,     // drained frees made by other threads
  kGcRetire = 2,    // retired empty pages or regions
  kGcPurge = 4,     // returned memory to the OS
  kGcAdopt = 8,     // adopted the heap of an exited thread
  kGcExplicit = 16  // cmh_alloc_collect()
};

// Folded per-node totals: bytes and allocations served from a logical node's memory, and
// of those, the ones served while the heap was on that node (the thread's node as of its
// last page refill: local). Remote = total - local.
struct NodeCounters {
  std::atomic<uint64_t> bytes{0}, count{0}, local_bytes{0}, local_count{0};
};

struct HeapCounters {
  std::atomic<uint64_t> bytes{0}, count{0};  // folded totals (the sum over per_node)
  NodeCounters per_node[kMaxNodes];
  std::atomic<uint64_t> gc_count{0}, gc_ns{0};
  std::atomic<uint64_t> drains{0}, retires{0}, purges{0}, adopts{0}, explicit_collects{0};
  std::atomic<uint64_t> pages_retired{0}, bytes_purged{0}, oom{0};
};

struct Heap {
  // ---- fast path
  Page* direct[kDirectSlots];
  // Per size class, the page whose tally is live (its current page, or nullptr): the
  // owner changes an entry under `seq`, after folding the page it replaces; readers add
  // the tallies of these pages to the folded totals.
  std::atomic<Page*> tallied[kClassCount] = {};
  // ---- slow path: the owner, under `lock`. The fast paths (and the quick refill of a
  // class's current page from its own frees) take no lock: whoever else holds `lock` (the
  // purge thread, an -Xmx reclaim) touches only what they cannot reach (purge.cpp).
  SpinLock lock;
  std::atomic<uint64_t> active_at{0};  // when the owner last ran its periodic work
  PageQueue queues[kClassCount];
  PageQueue full;
  PageQueue large_cache;
  uint32_t large_cached = 0;
  uint32_t node = 0;
  uint32_t regions_avail = 0, regions_full = 0;  // region lists (index + 1)
  uint32_t avail_count = 0;
  uint32_t slow_calls = 0;
  uint64_t next_maintenance = 0;
  uint64_t last_maintenance = 0;  // when heap_maintain last ran its work
  uint64_t maintenance_epoch = 0;
  Page* retiring[8] = {};
  uint32_t retiring_stamp[8] = {};
  uint32_t retiring_count = 0;
  std::atomic<Page*> notify{nullptr};  // pages a remote free found full (MPSC stack)
  // ---- counters: single writer (the owner), read by anyone
  std::atomic<uint32_t> seq{0};  // odd while the owner folds the tally
  HeapCounters counters;
  std::atomic<uint64_t> adopt_bytes{0}, adopt_count{0};  // totals when its thread took it
  std::atomic<uint32_t> state{kHeapEmpty};
  Heap* registry_next = nullptr;  // immutable once published
  Heap* pool_next = nullptr;
  uint64_t parked_at = 0;
  // Parked by fork_child: its owner's lock-free fast path may have been cut mid-update,
  // so its pages' `used` can be off by one block until heap_collect recounts them.
  bool fork_cut = false;

  constexpr Heap();
};

// The page that never has a free block: every direct slot of a heap without pages points
// here, so the fast path needs no null check.
extern Page g_empty_page;
extern Heap g_empty_heap;
extern CMH_TLS Heap* tls_heap;

constexpr Heap::Heap() : direct() {
  for (auto& d : direct) d = &g_empty_page;
}

CMH_INLINE void add_relaxed(std::atomic<uint64_t>& a, uint64_t v) {
  a.store(a.load(std::memory_order_relaxed) + v, std::memory_order_relaxed);
}

/// Owner (or the holder of a parked or bootstrap heap): moves `page`'s tally into the
/// heap's 64-bit totals under the seqlock. Bytes from a page on the heap's own node are
/// local; heap->node changes only after a fold_tally, so that between two folds it is one
/// value.
CMH_INLINE void fold_page(Heap* heap, Page* page) {
  const uint64_t t = __atomic_load_n(&page->tally, __ATOMIC_RELAXED);
  if (t == 0) return;
  const uint32_t s = heap->seq.load(std::memory_order_relaxed);
  heap->seq.store(s + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  HeapCounters& c = heap->counters;
  const uint64_t bytes = tally_bytes(t), count = tally_count(t);
  add_relaxed(c.bytes, bytes);
  add_relaxed(c.count, count);
  NodeCounters& node = c.per_node[page->node];
  add_relaxed(node.bytes, bytes);
  add_relaxed(node.count, count);
  if (page->node == heap->node) {
    add_relaxed(node.local_bytes, bytes);
    add_relaxed(node.local_count, count);
  }
  __atomic_store_n(&page->tally, 0, __ATOMIC_RELAXED);
  heap->seq.store(s + 2, std::memory_order_release);
}

/// Every live tally of the heap into its totals (see fold_page).
CMH_INLINE void fold_tally(Heap* heap) {
  for (auto& tallied : heap->tallied)
    if (Page* page = tallied.load(std::memory_order_relaxed)) fold_page(heap, page);
}

/// The page descriptor of the block holding p (p inside the reservation).
CMH_INLINE Page* page_of_pointer(const void* p) {
  Page* page = g_hot.pages + slice_index(p);
  return page - page->slice_offset;
}

/// Counts one allocation of `bytes` from `page`, its class's current page.
CMH_INLINE void tally_add(Page* page, uint64_t bytes) {
  const uint64_t t = __atomic_load_n(&page->tally, __ATOMIC_RELAXED);
  __atomic_store_n(&page->tally, t + (bytes << kTallyBytesShift) + 1, __ATOMIC_RELAXED);
}

}  // namespace cmh::allocator
