// SPDX-License-Identifier: MIT
// The region layer. One reservation, aligned to the region size, is split into one
// contiguous slice per logical NUMA node; each node's regions are committed (mprotect)
// and bound to the node (mbind, before first touch) the first time they are used, and
// go back to the node's pool when empty. A heap owns whole regions and carves pages out
// of their slices without locks; huge blocks take runs of regions. Node pools, the
// -Xmx accounting, decay purging and placement statistics live here. Below: prim only.
#pragma once

#include <cmh/alloc.h>

#include <atomic>

#include "config.hpp"
#include "page.hpp"
#include "spin_lock.hpp"
#include "topology.hpp"

namespace cmh::allocator {

enum RegionState : uint8_t { kRegionUnused = 0, kRegionFree, kRegionOwned, kRegionHuge, kRegionHugeTail };
enum RegionList : uint8_t { kListNone = 0, kListAvail, kListFull };

struct RegionInfo {
  uint8_t state;          // RegionState
  uint8_t node;           // logical node, fixed by position in the reservation
  uint8_t pinned;         // part of -Xms: never purged
  uint8_t list;           // RegionList in the owner heap
  uint32_t used_slices;
  uint32_t prev, next;    // owner heap's region list (index + 1; 0 = none)
  uint32_t run;           // huge: regions in the run (on the first one)
  uint32_t unused;
  Heap* owner;
  uint64_t dirty_since;   // when its oldest unpurged free dirty slice appeared; 0 = none
  uint64_t used[kSliceWords];   // slices in a page
  uint64_t dirty[kSliceWords];  // slices written since commit or purge
};

// The fast path's view of the reservation, on one cache line.
struct alignas(64) HotGlobals {
  uintptr_t base = 0;   // 0 before start-up: every pointer is then foreign
  uintptr_t size = 0;
  Page* pages = nullptr;
};
extern HotGlobals g_hot;

struct NodeStats {
#define CMH_ALLOC_NODE_COUNTER_(name, description) std::atomic<uint64_t> name{0};
  CMH_ALLOC_NODE_STATS_FIELDS(CMH_ALLOC_NODE_COUNTER_)
#undef CMH_ALLOC_NODE_COUNTER_
  std::atomic<uint64_t> dirty_bytes{0};
};

struct NodeArena {
  SpinLock lock;
  uint32_t first = 0, end = 0;  // region indices [first, end)
  uint32_t high = 0;            // regions [first, high) have been committed
  uint64_t* free_bits = nullptr;  // bit (r - first): region r is free (for r < high)
  uint32_t dirty_free = 0;      // free regions holding dirty slices
  NodeStats stats;
};

struct RegionSpace {
  unsigned region_shift = kDefaultRegionShift;
  size_t region_size = 0;
  size_t slices_per_region = 0;
  uint32_t region_count = 0;
  RegionInfo* regions = nullptr;
  int node_count = 1;
  NodeArena nodes[kMaxNodes];
  uint64_t heap_limit = 0;       // -Xmx, 0 = unlimited
  uint64_t node_budget = 0;      // -Xmx share per node: beyond it a node "runs out"
  std::atomic<uint64_t> in_use{0};
  std::atomic<uint64_t> bytes_purged{0};
  int64_t decay_ns = 0;
  const NodeLayout* layout = nullptr;  // init.cpp's (not a copy: fewer pages touched at start-up)
  bool numa_on = false;
};
extern RegionSpace g_space;

// ---- Addresses and indices ----
inline size_t slice_index(const void* p) { return (reinterpret_cast<uintptr_t>(p) - g_hot.base) >> kSliceShift; }
inline uintptr_t slice_address(size_t slice) { return g_hot.base + (slice << kSliceShift); }
inline size_t page_slice(const Page* page) { return static_cast<size_t>(page - g_hot.pages); }
inline uintptr_t page_start(const Page* page) { return slice_address(page_slice(page)); }
inline uint32_t region_of_slice(size_t slice) {
  return static_cast<uint32_t>(slice >> (g_space.region_shift - kSliceShift));
}
inline uintptr_t region_address(uint32_t region) { return g_hot.base + (uintptr_t{region} << g_space.region_shift); }
inline size_t region_first_slice(uint32_t region) { return size_t{region} << (g_space.region_shift - kSliceShift); }
inline bool is_ours(const void* p) { return reinterpret_cast<uintptr_t>(p) - g_hot.base < g_hot.size; }

/// Sets up the reservation from the options and layout (kept by reference: static storage).
/// Returns false (after a message)
/// when no address space could be reserved at all.
bool region_space_init(uint64_t max_heap, unsigned region_shift, int64_t decay_ms, const NodeLayout& layout,
                       bool numa_on);

/// Commits -Xms worth of regions round-robin over the nodes, pinned. Returns the count.
uint32_t region_commit_initial(uint64_t bytes);

// ---- Limit and placement ----
/// What -Xmx charges: small and medium pages are charged whole (their blocks are size-class
/// rounded), large and huge blocks the requested size rounded up to the charge grain (the OS
/// page, what can become resident), never the run of slices or regions holding them.
inline constexpr uint64_t kChargeGrain = 4096;
inline uint64_t block_charge(uint64_t size) { return (size + kChargeGrain - 1) & ~(kChargeGrain - 1); }
/// Charges `bytes` against -Xmx. False (and tls_limit_refused set) when the limit would be
/// exceeded.
bool charge_in_use(uint64_t bytes);
extern CMH_TLS bool tls_limit_refused;
/// The per-node share of a charge (choose_node's view), once its node is known.
void charge_node(int node, uint64_t bytes);
void uncharge_in_use(int node, uint64_t bytes);
/// The node to place `bytes` on for a heap on `preferred`: itself, or the nearest node that
/// has not used up its -Xmx share.
int choose_node(int preferred, uint64_t bytes);
void record_placement(int preferred, int landed, uint64_t bytes);

// ---- Whole regions (node pools) ----
/// A free region of `node` (committed and bound), owned by `owner` from now on; UINT32_MAX
/// when the node's part of the reservation is exhausted or the OS refused to commit.
uint32_t region_acquire(int node, Heap* owner);
/// Gives an empty owned region back to its node's pool.
void region_release(uint32_t region, uint64_t now);
/// A run of `count` regions of `node` for one huge block; UINT32_MAX when none.
uint32_t huge_acquire(int node, uint32_t count, bool* is_zero);
void huge_release(uint32_t first, uint64_t now);

// ---- Slices inside an owned region (owner only, no lock) ----
/// First slice (within the region) of a run of `count` free slices, or -1.
int region_find_slices(const RegionInfo& info, size_t count);
/// Marks slices used; returns true when they were all clean (read as zero).
bool region_take_slices(uint32_t region, size_t first, size_t count);
void region_give_slices(uint32_t region, size_t first, size_t count, uint64_t now);
/// Purges the region's free dirty slices when older than the decay time (or `force`).
uint64_t region_purge(uint32_t region, uint64_t now, bool force);
/// Purges free regions of every node pool that are older than the decay time (or `force`).
uint64_t node_pools_purge(uint64_t now, bool force);

// ---- Statistics ----
uint64_t region_resident_bytes(int node);

// ---- Fork ----
void region_locks_acquire();
void region_locks_release();
void region_locks_reset();

}  // namespace cmh::allocator
