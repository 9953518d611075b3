// SPDX-License-Identifier: MIT
// The region layer (see region.hpp): reservation, node pools with free-region bitmaps,
// commit + mbind on first use, huge runs, per-region slice bitmaps, decay purging and
// the -Xmx / placement accounting. Pool operations take the node's spin lock; slice
// operations run on the owning heap's thread only.
#include "region.hpp"

#include <cstring>

#include "prim.hpp"
#include "text.hpp"

namespace cmh::allocator {

HotGlobals g_hot;
RegionSpace g_space;

namespace {

uint32_t regions_per_node = 0;

size_t slice_words() { return (g_space.slices_per_region + 63) / 64; }
uint64_t last_word_mask() {
  size_t rem = g_space.slices_per_region % 64;
  return rem ? (uint64_t{1} << rem) - 1 : ~uint64_t{0};
}

bool has_dirty(const RegionInfo& info) {
  for (size_t w = 0; w < slice_words(); ++w)
    if (info.dirty[w]) return true;
  return false;
}

size_t count_bits(const uint64_t* words) {
  size_t n = 0;
  for (size_t w = 0; w < slice_words(); ++w) n += static_cast<size_t>(popcount(words[w]));
  return n;
}

bool bit(const uint64_t* words, size_t i) { return (words[i / 64] >> (i % 64)) & 1; }
void set_bits(uint64_t* words, size_t first, size_t count) {
  for (size_t i = first; i < first + count; ++i) words[i / 64] |= uint64_t{1} << (i % 64);
}
void clear_bits(uint64_t* words, size_t first, size_t count) {
  for (size_t i = first; i < first + count; ++i) words[i / 64] &= ~(uint64_t{1} << (i % 64));
}

int node_of_region(uint32_t r) { return static_cast<int>(r / regions_per_node); }

bool pool_bit(const NodeArena& a, uint32_t r) { return bit(a.free_bits, r - a.first); }
void pool_set(NodeArena& a, uint32_t r) { set_bits(a.free_bits, r - a.first, 1); }
void pool_clear(NodeArena& a, uint32_t r) { clear_bits(a.free_bits, r - a.first, 1); }

void message(const char* text) { prim::write_stderr(text, strlen(text)); }

// Makes region r usable: commits its memory and its descriptors, and binds it to its
// node before anything touches it. Called with the node lock held.
bool commit_region(uint32_t r) {
  NodeArena& a = g_space.nodes[node_of_region(r)];
  void* addr = reinterpret_cast<void*>(region_address(r));
  if (prim::commit(addr, g_space.region_size) != 0) return false;
  const size_t page = prim::os_page_size();
  uintptr_t desc = reinterpret_cast<uintptr_t>(g_hot.pages + region_first_slice(r));
  uintptr_t desc_end = desc + g_space.slices_per_region * sizeof(Page);
  desc &= ~(uintptr_t{page} - 1);
  desc_end = (desc_end + page - 1) & ~(uintptr_t{page} - 1);
  if (prim::commit(reinterpret_cast<void*>(desc), desc_end - desc) != 0) return false;
  RegionInfo& info = g_space.regions[r];
  info.node = static_cast<uint8_t>(node_of_region(r));
  if (g_space.numa_on) {
    const int logical = node_of_region(r);
    if (g_space.layout->real_bind[logical]) {
      a.stats.bind_calls.fetch_add(1, std::memory_order_relaxed);
      if (prim::bind_to_node(addr, g_space.region_size, g_space.layout->node_id[logical]) != 0)
        a.stats.bind_failures.fetch_add(1, std::memory_order_relaxed);
    } else {
      a.stats.simulated_binds.fetch_add(1, std::memory_order_relaxed);
    }
  }
  a.stats.committed_bytes.fetch_add(g_space.region_size, std::memory_order_relaxed);
  return true;
}

void purge_slices(uint32_t r, size_t first, size_t count) {
  RegionInfo& info = g_space.regions[r];
  size_t dirty = 0;
  for (size_t i = first; i < first + count; ++i) dirty += bit(info.dirty, i) ? 1 : 0;
  if (dirty == 0) return;
  prim::purge(reinterpret_cast<void*>(slice_address(region_first_slice(r) + first)), count * kSliceSize);
  clear_bits(info.dirty, first, count);
  const uint64_t bytes = dirty * kSliceSize;
  g_space.nodes[info.node].stats.dirty_bytes.fetch_sub(bytes, std::memory_order_relaxed);
  g_space.bytes_purged.fetch_add(bytes, std::memory_order_relaxed);
}

// Runs of free dirty slices of region r, purged. Returns bytes purged.
uint64_t purge_free_dirty(uint32_t r) {
  RegionInfo& info = g_space.regions[r];
  uint64_t before = g_space.bytes_purged.load(std::memory_order_relaxed);
  const size_t n = g_space.slices_per_region;
  for (size_t i = 0; i < n;) {
    if (bit(info.used, i) || !bit(info.dirty, i)) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < n && !bit(info.used, j) && bit(info.dirty, j)) ++j;
    purge_slices(r, i, j - i);
    i = j;
  }
  info.dirty_since = 0;
  return g_space.bytes_purged.load(std::memory_order_relaxed) - before;
}

}  // namespace

bool region_space_init(uint64_t max_heap, unsigned region_shift, int64_t decay_ms, const NodeLayout& layout,
                       bool numa_on) {
  g_space.layout = &layout;
  const int nodes = layout.count;
  if (region_shift == 0) {
    region_shift = kDefaultRegionShift;
    // A small -Xmx gets smaller regions, so that every node still has several.
    if (max_heap) {
      while (region_shift > kMinRegionShift && (uint64_t{8} * static_cast<uint64_t>(nodes) << region_shift) > max_heap)
        --region_shift;
    }
  }
  const size_t region = size_t{1} << region_shift;
  // Each node's part of the reservation: ample address space (it costs nothing while
  // PROT_NONE); -Xmx is enforced on bytes in use, not on address space. A large or huge
  // block is charged its size but may occupy up to twice that in slices or regions, so a
  // node's part holds twice -Xmx.
  uint64_t per_node = nodes <= 16 ? (uint64_t{64} << 30) : (uint64_t{1} << 40) / static_cast<uint64_t>(nodes);
  if (max_heap) {
    uint64_t rounded = (max_heap + region - 1) / region * region;
    if (2 * rounded + region > per_node) per_node = 2 * rounded + region;
  }
  void* base = nullptr;
  Page* pages = nullptr;
  for (;; per_node /= 2) {
    per_node = per_node / region * region;
    if (per_node < region * 4) break;
    const uint64_t total = per_node * static_cast<uint64_t>(nodes);
    base = prim::reserve(total, region);
    if (!base) continue;
    pages = static_cast<Page*>(prim::reserve(total / kSliceSize * sizeof(Page), prim::os_page_size()));
    if (pages) break;
    // Leak the heap reservation on this (never seen) path rather than add an unmap primitive.
    base = nullptr;
  }
  if (!base || !pages) {
    message("cmh-alloc: cannot reserve address space for the heap; allocations will fail\n");
    return false;
  }
  // Pointers to blocks share a word with a count in its high 16 bits (page.hpp).
  if (reinterpret_cast<uintptr_t>(base) + per_node * static_cast<uint64_t>(nodes) > kThreadFreeOne) {
    message("cmh-alloc: the heap's address space lies above 2^48; allocations will fail\n");
    return false;
  }
  regions_per_node = static_cast<uint32_t>(per_node / region);
  const uint32_t region_count = regions_per_node * static_cast<uint32_t>(nodes);
  auto* infos = static_cast<RegionInfo*>(prim::map_zeroed(size_t{region_count} * sizeof(RegionInfo)));
  const size_t bitmap_words = (regions_per_node + 63) / 64;
  auto* bitmaps = static_cast<uint64_t*>(prim::map_zeroed(bitmap_words * 8 * static_cast<size_t>(nodes)));
  if (!infos || !bitmaps) {
    message("cmh-alloc: cannot map the heap's metadata; allocations will fail\n");
    return false;
  }
  g_space.region_shift = region_shift;
  g_space.region_size = region;
  g_space.slices_per_region = region / kSliceSize;
  g_space.region_count = region_count;
  g_space.regions = infos;
  g_space.node_count = nodes;
  g_space.heap_limit = max_heap;
  g_space.node_budget = max_heap ? (max_heap + static_cast<uint64_t>(nodes) - 1) / static_cast<uint64_t>(nodes) : 0;
  g_space.decay_ns = decay_ms * 1000000;
  g_space.numa_on = numa_on;
  for (int n = 0; n < nodes; ++n) {
    NodeArena& a = g_space.nodes[n];
    a.first = static_cast<uint32_t>(n) * regions_per_node;
    a.end = a.first + regions_per_node;
    a.high = a.first;
    a.free_bits = bitmaps + static_cast<size_t>(n) * bitmap_words;
  }
  g_hot.pages = pages;
  g_hot.size = per_node * static_cast<uint64_t>(nodes);
  g_hot.base = reinterpret_cast<uintptr_t>(base);
  return true;
}

uint32_t region_commit_initial(uint64_t bytes) {
  const uint32_t wanted = static_cast<uint32_t>((bytes + g_space.region_size - 1) / g_space.region_size);
  uint32_t done = 0;
  // Round-robin over the nodes, as G1 spreads its regions (JEP 345).
  for (uint32_t i = 0; i < wanted; ++i) {
    NodeArena& a = g_space.nodes[i % static_cast<uint32_t>(g_space.node_count)];
    LockGuard guard(a.lock);
    if (a.high >= a.end) continue;
    uint32_t r = a.high;
    if (!commit_region(r)) break;
    ++a.high;
    RegionInfo& info = g_space.regions[r];
    info.state = kRegionFree;
    info.pinned = 1;
    pool_set(a, r);
    ++done;
  }
  return done;
}

CMH_TLS bool tls_limit_refused = false;

bool charge_in_use(uint64_t bytes) {
  if (g_space.heap_limit == 0) {
    g_space.in_use.fetch_add(bytes, std::memory_order_relaxed);
    return true;
  }
  uint64_t current = g_space.in_use.load(std::memory_order_relaxed);
  do {
    if (current + bytes > g_space.heap_limit) {
      tls_limit_refused = true;
      return false;
    }
  } while (!g_space.in_use.compare_exchange_weak(current, current + bytes, std::memory_order_relaxed));
  return true;
}

void charge_node(int node, uint64_t bytes) {
  g_space.nodes[node].stats.in_use_bytes.fetch_add(bytes, std::memory_order_relaxed);
}

void uncharge_in_use(int node, uint64_t bytes) {
  g_space.in_use.fetch_sub(bytes, std::memory_order_relaxed);
  g_space.nodes[node].stats.in_use_bytes.fetch_sub(bytes, std::memory_order_relaxed);
}

int choose_node(int preferred, uint64_t bytes) {
  if (g_space.node_budget == 0 || g_space.node_count == 1) return preferred;
  auto fits = [&](int n) {
    return g_space.nodes[n].stats.in_use_bytes.load(std::memory_order_relaxed) + bytes <= g_space.node_budget;
  };
  if (fits(preferred)) return preferred;
  for (int i = 0; i < g_space.node_count - 1; ++i) {
    int other = g_space.layout->fallback[preferred][i];
    if (fits(other)) return other;
  }
  return preferred;
}

void record_placement(int preferred, int landed, uint64_t bytes) {
  g_space.nodes[preferred].stats.page_requests.fetch_add(1, std::memory_order_relaxed);
  if (landed == preferred)
    g_space.nodes[preferred].stats.page_hits.fetch_add(1, std::memory_order_relaxed);
  else
    g_space.nodes[landed].stats.page_fallbacks.fetch_add(1, std::memory_order_relaxed);
  g_space.nodes[landed].stats.in_use_bytes.fetch_add(bytes, std::memory_order_relaxed);
}

uint32_t region_acquire(int node, Heap* owner) {
  NodeArena& a = g_space.nodes[node];
  LockGuard guard(a.lock);
  uint32_t found = UINT32_MAX;
  const uint32_t words = (a.high - a.first + 63) / 64;
  for (uint32_t w = 0; w < words && found == UINT32_MAX; ++w) {
    if (a.free_bits[w]) found = a.first + w * 64 + static_cast<uint32_t>(lowest_bit(a.free_bits[w]));
  }
  if (found != UINT32_MAX) {
    pool_clear(a, found);
    if (has_dirty(g_space.regions[found])) --a.dirty_free;
  } else {
    if (a.high >= a.end || !commit_region(a.high)) return UINT32_MAX;
    found = a.high++;
  }
  RegionInfo& info = g_space.regions[found];
  info.state = kRegionOwned;
  info.owner = owner;
  info.list = kListNone;
  info.prev = info.next = 0;
  a.stats.regions_in_use.fetch_add(1, std::memory_order_relaxed);
  return found;
}

void region_release(uint32_t r, uint64_t now) {
  RegionInfo& info = g_space.regions[r];
  NodeArena& a = g_space.nodes[info.node];
  info.owner = nullptr;
  info.list = kListNone;
  info.prev = info.next = 0;
  info.used_slices = 0;
  if (g_space.decay_ns == 0 && !info.pinned) purge_free_dirty(r);
  const bool dirty = has_dirty(info);
  info.dirty_since = dirty ? now : 0;
  LockGuard guard(a.lock);
  info.state = kRegionFree;
  pool_set(a, r);
  if (dirty) ++a.dirty_free;
  a.stats.regions_in_use.fetch_sub(1, std::memory_order_relaxed);
}

uint32_t huge_acquire(int node, uint32_t count, bool* is_zero) {
  NodeArena& a = g_space.nodes[node];
  LockGuard guard(a.lock);
  // The lowest run of `count` regions that are free or not committed yet.
  uint32_t start = a.first, length = 0;
  for (uint32_t r = a.first; r < a.end && length < count; ++r) {
    bool free = r >= a.high || pool_bit(a, r);
    if (free) {
      if (length == 0) start = r;
      ++length;
    } else {
      length = 0;
      // Skip whole busy words quickly.
      if (r + 64 <= a.high && ((r - a.first) % 64) == 0 && a.free_bits[(r - a.first) / 64] == 0) r += 63;
    }
  }
  if (length < count) return UINT32_MAX;
  const uint32_t old_high = a.high;
  for (uint32_t r = (start > old_high ? start : old_high); r < start + count; ++r) {
    if (!commit_region(r)) {
      // Leave what was committed in the pool; nothing of the run is taken.
      for (uint32_t c = old_high; c < r; ++c) {
        g_space.regions[c].state = kRegionFree;
        pool_set(a, c);
      }
      a.high = r;
      return UINT32_MAX;
    }
  }
  if (start + count > a.high) a.high = start + count;
  bool zero = true;
  const size_t words = slice_words();
  for (uint32_t r = start; r < start + count; ++r) {
    RegionInfo& info = g_space.regions[r];
    if (r < old_high) {
      pool_clear(a, r);
      if (has_dirty(info)) {
        --a.dirty_free;
        zero = false;
      }
    }
    info.state = r == start ? kRegionHuge : kRegionHugeTail;
    info.owner = nullptr;
    info.run = r == start ? count : 0;
    info.used_slices = static_cast<uint32_t>(g_space.slices_per_region);
    const size_t fresh = g_space.slices_per_region - count_bits(info.dirty);
    a.stats.dirty_bytes.fetch_add(fresh * kSliceSize, std::memory_order_relaxed);
    for (size_t w = 0; w < words; ++w) {
      uint64_t full = w + 1 == words ? last_word_mask() : ~uint64_t{0};
      info.used[w] = full;
      info.dirty[w] = full;
    }
    info.dirty_since = 0;
  }
  a.stats.regions_in_use.fetch_add(count, std::memory_order_relaxed);
  *is_zero = zero;
  return start;
}

void huge_release(uint32_t first, uint64_t now) {
  RegionInfo& head = g_space.regions[first];
  const uint32_t count = head.run;
  NodeArena& a = g_space.nodes[head.node];
  for (uint32_t r = first; r < first + count; ++r) {
    RegionInfo& info = g_space.regions[r];
    memset(info.used, 0, sizeof(info.used));
    info.used_slices = 0;
    info.run = 0;
    if (g_space.decay_ns == 0 && !info.pinned) purge_free_dirty(r);
    info.dirty_since = has_dirty(info) ? now : 0;
  }
  LockGuard guard(a.lock);
  for (uint32_t r = first; r < first + count; ++r) {
    RegionInfo& info = g_space.regions[r];
    info.state = kRegionFree;
    pool_set(a, r);
    if (has_dirty(info)) ++a.dirty_free;
  }
  a.stats.regions_in_use.fetch_sub(count, std::memory_order_relaxed);
}

int region_find_slices(const RegionInfo& info, size_t count) {
  const size_t n = g_space.slices_per_region;
  if (info.used_slices + count > n) return -1;
  if (count == 1) {
    for (size_t w = 0; w < slice_words(); ++w) {
      uint64_t free = ~info.used[w] & (w + 1 == slice_words() ? last_word_mask() : ~uint64_t{0});
      if (free) return static_cast<int>(w * 64 + static_cast<size_t>(lowest_bit(free)));
    }
    return -1;
  }
  size_t run = 0;
  for (size_t i = 0; i < n; ++i) {
    if (bit(info.used, i)) {
      run = 0;
      continue;
    }
    if (++run == count) return static_cast<int>(i + 1 - count);
  }
  return -1;
}

bool region_take_slices(uint32_t r, size_t first, size_t count) {
  RegionInfo& info = g_space.regions[r];
  size_t fresh = 0;
  for (size_t i = first; i < first + count; ++i) fresh += bit(info.dirty, i) ? 0 : 1;
  set_bits(info.used, first, count);
  set_bits(info.dirty, first, count);
  info.used_slices += static_cast<uint32_t>(count);
  g_space.nodes[info.node].stats.dirty_bytes.fetch_add(fresh * kSliceSize, std::memory_order_relaxed);
  return fresh == count;
}

void region_give_slices(uint32_t r, size_t first, size_t count, uint64_t now) {
  RegionInfo& info = g_space.regions[r];
  clear_bits(info.used, first, count);
  info.used_slices -= static_cast<uint32_t>(count);
  if (g_space.decay_ns == 0 && !info.pinned) {
    purge_slices(r, first, count);
  } else if (info.dirty_since == 0) {
    info.dirty_since = now;
  }
}

uint64_t region_purge(uint32_t r, uint64_t now, bool force) {
  RegionInfo& info = g_space.regions[r];
  if (info.pinned || info.dirty_since == 0) return 0;
  if (!force && now - info.dirty_since < static_cast<uint64_t>(g_space.decay_ns)) return 0;
  return purge_free_dirty(r);
}

uint64_t node_pools_purge(uint64_t now, bool force) {
  uint64_t purged = 0;
  for (int n = 0; n < g_space.node_count; ++n) {
    NodeArena& a = g_space.nodes[n];
    for (bool more = true; more;) {
      more = false;
      uint32_t batch[32];
      uint32_t count = 0;
      {
        LockGuard guard(a.lock);
        if (a.dirty_free == 0) break;
        for (uint32_t r = a.first; r < a.high && count < 32; ++r) {
          if (!pool_bit(a, r)) continue;
          RegionInfo& info = g_space.regions[r];
          if (info.pinned || !has_dirty(info)) continue;
          if (!force && now - info.dirty_since < static_cast<uint64_t>(g_space.decay_ns)) continue;
          // Taken out of the pool while it is purged, so that nobody allocates from it.
          pool_clear(a, r);
          --a.dirty_free;
          batch[count++] = r;
        }
        more = count == 32;
      }
      for (uint32_t i = 0; i < count; ++i) purged += purge_free_dirty(batch[i]);
      LockGuard guard(a.lock);
      for (uint32_t i = 0; i < count; ++i) pool_set(a, batch[i]);
    }
  }
  return purged;
}

uint64_t region_resident_bytes(int node) {
  const NodeArena& a = g_space.nodes[node];
  uint64_t resident = 0;
  for (uint32_t r = a.first; r < a.high; ++r) {
    if (g_space.regions[r].state == kRegionUnused) continue;
    resident += prim::resident_bytes(reinterpret_cast<void*>(region_address(r)), g_space.region_size);
  }
  return resident;
}

void region_locks_acquire() {
  for (int n = 0; n < g_space.node_count; ++n) g_space.nodes[n].lock.lock();
}
void region_locks_release() {
  for (int n = g_space.node_count - 1; n >= 0; --n) g_space.nodes[n].lock.unlock();
}
void region_locks_reset() {
  for (int n = 0; n < g_space.node_count; ++n) g_space.nodes[n].lock.reset();
}

}  // namespace cmh::allocator
