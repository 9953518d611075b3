// SPDX-License-Identifier: MIT
// The heap/page layer's allocation side beyond the inlined fast paths: finding or making a
// page for a size class (collecting its frees, threading fresh blocks, parking full
// pages), large and huge blocks, aligned allocation, and retiring pages that emptied.
// Everything here runs on the thread that owns the heap (or holds the bootstrap lock).
// The free side is free.cpp.
#include <cstring>

#include "internal.hpp"
#include "size_class.hpp"

namespace cmh::allocator {

Page g_empty_page{};

namespace {

constexpr uint32_t kLargeCacheMax = 8;
constexpr uint32_t kRetireDelay = 4;  // slow-path calls an empty page waits before it retires

struct DirectRange {
  uint8_t first[kClassCount];
  uint8_t last[kClassCount];
  constexpr DirectRange() : first(), last() {
    for (size_t c = 0; c < kClassCount; ++c) first[c] = 255, last[c] = 0;
    for (size_t slot = 0; slot < kDirectSlots; ++slot) {
      size_t c = kDirectClasses.class_of[slot];
      if (first[c] == 255) first[c] = static_cast<uint8_t>(slot);
      last[c] = static_cast<uint8_t>(slot);
    }
  }
};
constexpr DirectRange kDirectRange{};

bool find_in_heap_regions(Heap* heap, int node, size_t count, uint32_t* region, int* slice) {
  for (uint32_t i = heap->regions_avail; i; i = g_space.regions[i - 1].next) {
    const RegionInfo& info = g_space.regions[i - 1];
    if (node >= 0 && info.node != node) continue;
    int s = region_find_slices(info, count);
    if (s >= 0) {
      *region = i - 1;
      *slice = s;
      return true;
    }
  }
  return false;
}

bool acquire_region_for(Heap* heap, int node, size_t count, uint32_t* region, int* slice) {
  uint32_t r = region_acquire(node, heap);
  if (r == UINT32_MAX) return false;
  region_list_push(heap, r, kListAvail);
  *region = r;
  *slice = region_find_slices(g_space.regions[r], count);
  return *slice >= 0;
}

// Slices for a new page: the heap's regions on the chosen node, a new region of that
// node, then (the node ran out) the heap's other regions and the other nodes by distance.
bool find_slices(Heap* heap, int node, size_t count, uint32_t* region, int* slice) {
  if (find_in_heap_regions(heap, node, count, region, slice)) return true;
  if (acquire_region_for(heap, node, count, region, slice)) return true;
  if (find_in_heap_regions(heap, -1, count, region, slice)) return true;
  for (int i = 0; i < g_space.node_count - 1; ++i) {
    if (acquire_region_for(heap, g_space.layout->fallback[node][i], count, region, slice)) return true;
  }
  return false;
}

// A page of `slices` slices charged `charge` bytes against -Xmx.
Page* page_fresh(Heap* heap, uint8_t kind, size_t slices, uint64_t charge) {
  const int preferred = current_node(heap);
  const int node = choose_node(preferred, charge);
  if (!charge_in_use(charge)) return nullptr;
  uint32_t r = 0;
  int first = 0;
  if (!find_slices(heap, node, slices, &r, &first)) {
    g_space.in_use.fetch_sub(charge, std::memory_order_relaxed);
    return nullptr;
  }
  RegionInfo& info = g_space.regions[r];
  record_placement(preferred, info.node, charge);
  const bool zero = region_take_slices(r, static_cast<size_t>(first), slices);
  if (info.used_slices == g_space.slices_per_region) {
    region_list_remove(heap, r);
    region_list_push(heap, r, kListFull);
  }
  const size_t slice = region_first_slice(r) + static_cast<size_t>(first);
  Page* page = g_hot.pages + slice;
  for (size_t i = 1; i < slices; ++i) {
    Page& interior = page[i];
    interior.kind = kPageInterior;
    interior.slice_offset = static_cast<uint32_t>(i);
    interior.heap.store(nullptr, std::memory_order_relaxed);
  }
  page->free = nullptr;
  page->local_free = nullptr;
  page->used = 0;
  page->flags = 0;
  page->kind = kind;
  page->node = info.node;
  page->is_zero = zero ? 1 : 0;
  page->thread_free.store(kNormal, std::memory_order_relaxed);
  page->slice_offset = 0;
  page->slice_count = static_cast<uint32_t>(slices);
  page->charged = charge;
  page->capacity = 0;
  page->next = page->prev = page->notify_next = nullptr;
  page->notify_pending = 0;
  page->queue = kQueueNone;
  page->stamp = 0;
  // Publish the owner last: a racing free() of a wild pointer must not see a half-made page.
  page->heap.store(heap, std::memory_order_release);
  return page;
}

void page_extend(Page* page) {
  const size_t bs = page->block_size;
  size_t n = page->reserved - page->capacity;
  // One OS page at a time (at least one block): threading writes a link into every block,
  // so a larger grain would touch (make resident) pages nobody asked for. Only fresh
  // memory is threaded this way; freed blocks come back through the free lists.
  const size_t grain = kExtendBytes / bs > 1 ? kExtendBytes / bs : 1;
  if (n > grain) n = grain;
  char* first = reinterpret_cast<char*>(page_start(page)) + size_t{page->capacity} * bs;
  for (size_t i = 0; i + 1 < n; ++i) reinterpret_cast<Block*>(first + i * bs)->next = reinterpret_cast<Block*>(first + (i + 1) * bs);
  reinterpret_cast<Block*>(first + (n - 1) * bs)->next = page->free;
  if constexpr (CMH_ALLOC_DEBUG) {
    for (size_t i = 0; i < n; ++i) debug_poison_free(page, reinterpret_cast<Block*>(first + i * bs));
  }
  page->free = reinterpret_cast<Block*>(first);
  page->capacity += static_cast<uint32_t>(n);
}

Page* page_fresh_class(Heap* heap, size_t c) {
  const size_t slices = class_page_slices(c);
  Page* page = page_fresh(heap, slices == 1 ? kPageSmall : kPageMedium, slices, slices * kSliceSize);
  if (!page) return nullptr;
  page->size_class = static_cast<uint8_t>(c);
  page->block_size = class_size(c);
  page->reserved = static_cast<uint32_t>(slices * kSliceSize / page->block_size);
  page_extend(page);
  queue_push_front(&heap->queues[c], page);
  page->queue = kQueueClass;
  update_direct(heap, c);
  return page;
}

// Owner: the page has no free block left. Marks it kFull and parks it in the full queue
// unless a remote free is pending or under way (then it stays where it is).
void page_to_full(Heap* heap, Page* page) {
  if (page->notify_pending) return;
  uintptr_t expected = kNormal;
  if (!page->thread_free.compare_exchange_strong(expected, kFull, std::memory_order_acq_rel,
                                                 std::memory_order_relaxed))
    return;
  queue_remove(&heap->queues[page->size_class], page);
  queue_push_front(&heap->full, page);
  page->queue = kQueueFull;
  page->flags |= kInFull;
  update_direct(heap, page->size_class);
}

Page* find_page(Heap* heap, size_t c, Episode& episode) {
  PageQueue& q = heap->queues[c];
  for (Page* page = q.first; page;) {
    Page* next = page->next;
    if (!page->free) page_collect(page, episode);
    if (!page->free && page->capacity < page->reserved) page_extend(page);
    if (page->free) {
      if (page != q.first) {
        queue_remove(&q, page);
        queue_push_front(&q, page);
        update_direct(heap, c);
      }
      return page;
    }
    page_to_full(heap, page);
    page = next;
  }
  return page_fresh_class(heap, c);
}

// Marks a large page's only block as handed out.
void* large_hand_out(Page* page, bool* is_zero) {
  page->used = 1;
  page->free = page->local_free = nullptr;
  // Its only block is in use: kFull, so that a remote free tells the owner. A large page in
  // use sits in no queue (the notification finds it by pointer): nothing to unlink on free.
  page->thread_free.store(kFull, std::memory_order_release);
  page->flags = kInFull;
  page->queue = kQueueNone;
  *is_zero = page->is_zero;
  return reinterpret_cast<void*>(page_start(page));
}

/// A cached large page of exactly the slices `size` needs that nothing can still reach,
/// charged for `size` and taken out of the cache; or nullptr (none, or -Xmx refused the
/// charge: then *refused).
Page* large_from_cache(Heap* heap, size_t size, bool* refused) {
  const size_t slices = (size + kSliceSize - 1) / kSliceSize;
  for (Page* p = heap->large_cache.first; p; p = p->next) {
    if (p->slice_count == slices && page_can_retire(p)) {
      // Cached pages are not charged (large_became_empty): charged again for this block.
      const uint64_t charge = block_charge(size);
      if (!charge_in_use(charge)) {
        *refused = true;
        return nullptr;
      }
      charge_node(p->node, charge);
      p->charged = charge;
      queue_remove(&heap->large_cache, p);
      --heap->large_cached;
      p->is_zero = 0;
      return p;
    }
  }
  return nullptr;
}

void* alloc_large(Heap* heap, size_t size, bool* is_zero) {
  const size_t slices = (size + kSliceSize - 1) / kSliceSize;
  bool refused = false;
  Page* page = large_from_cache(heap, size, &refused);
  if (refused) return nullptr;
  if (!page) {
    page = page_fresh(heap, kPageLarge, slices, block_charge(size));
    if (!page) return nullptr;
    page->block_size = slices * kSliceSize;
    page->reserved = page->capacity = 1;
    page->size_class = 0;
  }
  return large_hand_out(page, is_zero);
}

void* alloc_huge(Heap* heap, size_t size, bool* is_zero) {
  const uint64_t region = g_space.region_size;
  if (size > g_hot.size) return nullptr;
  const uint32_t count = static_cast<uint32_t>((size + region - 1) / region);
  const uint64_t bytes = uint64_t{count} * region;
  const uint64_t charge = block_charge(size);
  const int preferred = current_node(heap);
  int node = choose_node(preferred, charge);
  if (!charge_in_use(charge)) return nullptr;
  uint32_t r = huge_acquire(node, count, is_zero);
  for (int i = 0; r == UINT32_MAX && i < g_space.node_count - 1; ++i) {
    node = g_space.layout->fallback[preferred][i];
    r = huge_acquire(node, count, is_zero);
  }
  if (r == UINT32_MAX) {
    g_space.in_use.fetch_sub(charge, std::memory_order_relaxed);
    return nullptr;
  }
  record_placement(preferred, node, charge);
  Page* page = g_hot.pages + region_first_slice(r);
  page->free = page->local_free = nullptr;
  page->used = 1;
  page->flags = 0;
  page->kind = kPageHuge;
  page->node = g_space.regions[r].node;
  page->is_zero = *is_zero;
  page->block_size = bytes;
  page->slice_offset = 0;
  page->slice_count = static_cast<uint32_t>(count * g_space.slices_per_region);
  page->reserved = page->capacity = 1;
  page->charged = charge;
  page->thread_free.store(kNormal, std::memory_order_relaxed);
  page->stamp = 0;  // huge: slice index + 1 of an aligned interior descriptor, if any
  page->heap.store(nullptr, std::memory_order_release);
  return reinterpret_cast<void*>(page_start(page));
}

void* alloc_block(Heap* heap, size_t size, bool* is_zero, Episode& episode) {
  *is_zero = false;
  if (size <= kMediumMax) {
    Page* page = find_page(heap, class_of_size(size), episode);
    if (!page) return nullptr;
    Block* block = page->free;
    page->free = block->next;
    page->used++;
    if constexpr (CMH_ALLOC_DEBUG) debug_check_alloc(page, block);
    return block;
  }
  if (size <= g_space.region_size / 2) return alloc_large(heap, size, is_zero);
  return alloc_huge(heap, size, is_zero);
}

// A class's current page whose tally is at kTallyCheck: the fast path sent the call here
// to run the periodic work.
CMH_INLINE bool tally_due(const Page* head) {
  return head && (__atomic_load_n(&head->tally, __ATOMIC_RELAXED) & kTallyCheck);
}

// The periodic part of a slow path that takes the heap's lock. Every 256 allocations of a
// class (its current page's tally at kTallyCheck, `tally_full`: the fast path's one test
// sent the call here; slow-path allocations count in the tally too) and every 256 such
// calls, the tallies are folded, which re-arms that test, and the maintenance clock is
// read. In between, a slow path only drains notifications and retires pages that waited
// long enough: no fold, no clock (both were a measurable share of small-block loops'
// slow paths).
void heap_slow_tick(Heap* heap, Episode& episode, bool tally_full) {
  ++heap->slow_calls;
  const bool due = tally_full || (heap->slow_calls & 255) == 0;
  if (due) fold_tally(heap);
  if (heap->notify.load(std::memory_order_relaxed)) heap_drain_notify(heap, episode);
  if (heap->retiring_count) retiring_process(heap, episode, false);
  if (due) heap_maintain(heap, episode);
  if (CMH_UNLIKELY(purge_thread_wanted())) purge_thread_start();  // a fork child's first slow path
}

}  // namespace

// ---- region lists of a heap, and slow-path counting (shared with free.cpp) ----

namespace {
uint32_t& list_head(Heap* heap, uint8_t list) { return list == kListAvail ? heap->regions_avail : heap->regions_full; }
}  // namespace

void region_list_push(Heap* heap, uint32_t r, uint8_t list) {
  RegionInfo& info = g_space.regions[r];
  uint32_t& head = list_head(heap, list);
  info.list = list;
  info.prev = 0;
  info.next = head;
  if (head) g_space.regions[head - 1].prev = r + 1;
  head = r + 1;
  if (list == kListAvail) ++heap->avail_count;
}

void region_list_remove(Heap* heap, uint32_t r) {
  RegionInfo& info = g_space.regions[r];
  if (info.list == kListNone) return;
  uint32_t& head = list_head(heap, info.list);
  if (info.prev)
    g_space.regions[info.prev - 1].next = info.next;
  else
    head = info.next;
  if (info.next) g_space.regions[info.next - 1].prev = info.prev;
  if (info.list == kListAvail) --heap->avail_count;
  info.list = kListNone;
  info.prev = info.next = 0;
}

void count_slow(Heap* heap, uint64_t bytes, const void* block) {
  const uint32_t n = page_of_pointer(block)->node;
  HeapCounters& c = heap->counters;
  add_relaxed(c.bytes, bytes);
  add_relaxed(c.count, 1);
  add_relaxed(c.per_node[n].bytes, bytes);
  add_relaxed(c.per_node[n].count, 1);
  if (n == heap->node) {
    add_relaxed(c.per_node[n].local_bytes, bytes);
    add_relaxed(c.per_node[n].local_count, 1);
  }
}

// ---- direct table ----

void update_direct(Heap* heap, size_t c) {
  // The page that was the class's current one stops carrying its tally: folded first.
  Page* head = heap->queues[c].first;
  Page* tallied = heap->tallied[c].load(std::memory_order_relaxed);
  if (tallied != head) {
    if (tallied) fold_page(heap, tallied);
    heap->tallied[c].store(head, std::memory_order_relaxed);
  }
  if (kDirectRange.first[c] == 255) return;
  Page* target = head ? head : &g_empty_page;
  for (size_t slot = kDirectRange.first[c]; slot <= kDirectRange.last[c]; ++slot) heap->direct[slot] = target;
}

// ---- counters ----

void heap_fold(Heap* heap) { fold_tally(heap); }

// ---- pages ----

void page_collect(Page* page, Episode& episode) {
  uintptr_t tf = page->thread_free.load(std::memory_order_relaxed);
  if (tf & ~kStateMask) {
    while (!page->thread_free.compare_exchange_weak(tf, tf & kStateMask, std::memory_order_acquire,
                                                    std::memory_order_relaxed)) {
    }
    Block* list = thread_free_list(tf);
    if (list) {
      episode.note(kGcDrain);
      // Other threads' frees go where a list is empty, so that nothing is walked: a walk
      // reads blocks nobody touched for a while (the periodic collection walked every
      // page's lists, a tenth of larson's allocator time). Only a page with blocks on all
      // three lists appends one to another.
      if (!page->free) {
        page->free = list;
      } else if (!page->local_free) {
        page->local_free = list;
      } else {
        Block* tail = list;
        while (tail->next) tail = tail->next;
        tail->next = page->free;
        page->free = list;
      }
      page->used -= thread_free_count(tf);
    }
  }
  // The owner's frees when `free` ran out. With both lists holding blocks nothing moves:
  // `used` does not depend on which list a free block is on, and malloc takes local_free
  // once free is empty.
  if (page->local_free && !page->free) {
    page->free = page->local_free;
    page->local_free = nullptr;
  }
  if constexpr (CMH_ALLOC_DEBUG) debug_check_page(page);
}

bool page_can_retire(const Page* page) {
  return page->used == 0 && !page->notify_pending &&
         page->thread_free.load(std::memory_order_acquire) == kNormal;
}

bool page_try_retire(Heap* heap, Page* page, Episode& episode) {
  if (!page_can_retire(page)) return false;
  episode.note(kGcRetire);
  switch (page->queue) {
    case kQueueClass:
      queue_remove(&heap->queues[page->size_class], page);
      update_direct(heap, page->size_class);
      break;
    case kQueueFull: queue_remove(&heap->full, page); break;
    case kQueueLargeCache:
      queue_remove(&heap->large_cache, page);
      --heap->large_cached;
      break;
    default: break;
  }
  for (uint32_t i = 0; i < heap->retiring_count; ++i) {
    if (heap->retiring[i] == page) {
      heap->retiring[i] = heap->retiring[--heap->retiring_count];
      heap->retiring_stamp[i] = heap->retiring_stamp[heap->retiring_count];
      break;
    }
  }
  const size_t slice = page_slice(page);
  const uint32_t r = region_of_slice(slice);
  const size_t count = page->slice_count;
  for (size_t i = 0; i < count; ++i) {
    Page& d = page[i];
    d.kind = kPageFree;
    d.slice_offset = 0;
    d.flags = 0;
    d.queue = kQueueNone;
    d.heap.store(nullptr, std::memory_order_relaxed);
  }
  page->free = page->local_free = nullptr;
  RegionInfo& info = g_space.regions[r];
  const bool was_full = info.list == kListFull;
  region_give_slices(r, slice - region_first_slice(r), count, episode.now());
  uncharge_in_use(info.node, page->charged);
  page->charged = 0;
  heap->counters.pages_retired.fetch_add(1, std::memory_order_relaxed);  // the owner or a reclaimer
  if (was_full) {
    region_list_remove(heap, r);
    region_list_push(heap, r, kListAvail);
  }
  if (info.used_slices == 0 && heap->avail_count > 1) {
    region_list_remove(heap, r);
    region_release(r, episode.now());
  }
  return true;
}

void page_became_empty(Heap* heap, Page* page) {
  LockGuard guard(heap->lock);
  // Between the fast path's last free and this lock, the purge thread may have retired it.
  if (page->heap.load(std::memory_order_relaxed) != heap || page->used != 0 || page->queue != kQueueClass ||
      (page->next == nullptr && page->prev == nullptr))
    return;
  page_became_empty_locked(heap, page);
}

void page_became_empty_locked(Heap* heap, Page* page) {
  // Not retired at once: a page that empties is often refilled soon (a batch of frees
  // followed by a batch of mallocs). It waits kRetireDelay slow-path calls.
  if (heap->retiring_count == 8) {
    Episode episode(heap);
    retiring_process(heap, episode, true);
  }
  heap->retiring[heap->retiring_count] = page;
  heap->retiring_stamp[heap->retiring_count] = heap->slow_calls;
  ++heap->retiring_count;
}

void retiring_process(Heap* heap, Episode& episode, bool all) {
  for (uint32_t i = 0; i < heap->retiring_count;) {
    Page* page = heap->retiring[i];
    const bool still_empty = page->heap.load(std::memory_order_relaxed) == heap && page->used == 0 &&
                             page->queue == kQueueClass && (page->next || page->prev);
    if (!still_empty || all || heap->slow_calls - heap->retiring_stamp[i] >= kRetireDelay) {
      heap->retiring[i] = heap->retiring[--heap->retiring_count];
      heap->retiring_stamp[i] = heap->retiring_stamp[heap->retiring_count];
      if (still_empty) page_try_retire(heap, page, episode);
      continue;
    }
    ++i;
  }
}

void retiring_clear(Heap* heap) { heap->retiring_count = 0; }

void large_became_empty(Heap* heap, Page* page, Episode& episode) {
  // A cached block is free memory, like a page's free blocks: no longer charged.
  uncharge_in_use(page->node, page->charged);
  page->charged = 0;
  queue_push_front(&heap->large_cache, page);
  page->queue = kQueueLargeCache;
  page->stamp = heap->maintenance_epoch;
  page->flags = 0;
  ++heap->large_cached;
  if (heap->large_cached > kLargeCacheMax) {
    for (Page* p = heap->large_cache.last; p; p = p->prev) {
      if (page_try_retire(heap, p, episode)) break;
    }
  }
}

void release_empty_regions(Heap* heap, bool keep_one, uint64_t now) {
  for (uint32_t i = heap->regions_avail; i;) {
    const uint32_t r = i - 1;
    i = g_space.regions[r].next;
    if (g_space.regions[r].used_slices != 0) continue;
    if (keep_one && heap->avail_count <= 1) return;
    region_list_remove(heap, r);
    region_release(r, now);
  }
}

// ---- allocation ----

namespace {
CMH_INLINE void* alloc_in(Heap* heap, size_t size, size_t counted, bool zero) {
  if (size <= kMediumMax) {
    // The queue head usually has a block, or the owner's frees to take back (a malloc/free
    // loop): no lock and no further work, unless the periodic work is due (the tally at
    // kTallyCheck, which also bounds it: heap.hpp). Notifications and pages waiting to
    // retire wait for the next call that takes the lock.
    const size_t c = class_of_size(size);
    Page* page = heap->queues[c].first;
    Block* block = nullptr;
    if (page && !tally_due(page)) {
      block = page->free;
      if (!block && page->local_free) {
        block = page->local_free;
        page->local_free = nullptr;
      }
    }
    if (block) {
      page->free = block->next;
      page->used++;
      if constexpr (CMH_ALLOC_DEBUG) debug_check_alloc(page, block);
      tally_add(page, counted);
      if (zero) memset(block, 0, size);
      return block;
    }
  }
  if (size > kMediumMax && size <= g_space.region_size / 2 && heap->large_cache.first &&
      ((heap->slow_calls + 1) & 255) != 0 && !heap->notify.load(std::memory_order_relaxed)) {
    // A large block freed a moment ago comes back without further slow-path work. Large
    // blocks do not count in the tally: every 256th such call takes the full path instead.
    ++heap->slow_calls;
    LockGuard guard(heap->lock);
    bool refused = false;
    if (Page* page = large_from_cache(heap, size, &refused)) {
      bool is_zero = false;
      void* p = large_hand_out(page, &is_zero);
      count_slow(heap, counted, p);
      if (zero) memset(p, 0, size);
      return p;
    }
  }
  void* p = nullptr;
  bool is_zero = false;
  {
    Episode episode(heap);
    LockGuard guard(heap->lock);
    heap_slow_tick(heap, episode, size <= kMediumMax && tally_due(heap->queues[class_of_size(size)].first));
    p = alloc_block(heap, size, &is_zero, episode);
    if (CMH_UNLIKELY(!p) && size <= g_hot.size) {
      // Out of memory: collect everything we can reach, other live threads' free pages
      // included, then try once more.
      heap_collect(heap, CollectMode::kForce, episode);
      collect_pooled(episode.now(), true, episode);
      reclaim_live_heaps(heap, episode);
      tls_limit_refused = false;
      p = alloc_block(heap, size, &is_zero, episode);
      if (!p) heap->counters.oom.store(heap->counters.oom.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }
    if (p && size <= kMediumMax) {
      tally_add(page_of_pointer(p), counted);  // its class's current page, folded if it was due
    } else if (p) {
      count_slow(heap, counted, p);
    }
  }
  // The out-of-memory hook may allocate: called with no lock held (except the bootstrap
  // lock, which a heap without an owner thread is used under).
  if (CMH_UNLIKELY(!p)) return out_of_memory(size);
  if (zero && !is_zero) memset(p, 0, size);
  return p;
}
}  // namespace

void* heap_alloc_in(Heap* heap, size_t size, size_t counted, bool zero) { return alloc_in(heap, size, counted, zero); }

void* heap_alloc_generic(Heap* heap, size_t size, size_t counted, bool zero) {
  if (CMH_UNLIKELY(sample_hook_set())) sample_allocation(counted);
  if (CMH_UNLIKELY(heap == &g_empty_heap)) {
    if (CMH_UNLIKELY(tls_uncounted)) return uncounted_alloc(size, 0);
    if (CMH_UNLIKELY(forward_chosen())) return forward::alloc(size, counted, zero);
    heap = thread_heap_init();
    if (!heap) return bootstrap_alloc(size, counted, zero, 0);
  }
  return alloc_in(heap, size, counted, zero);
}

void* heap_alloc_aligned_in(Heap* heap, size_t align, size_t size) {
  // Blocks of the 8-byte class are only 8-aligned: a smaller request takes a 16-byte block.
  if (align <= 16) return heap_alloc_in(heap, size < align ? align : size, size, false);
  if (align <= kSliceSize) {
    // A multiple of a power of two A is a class with A-aligned blocks (size_class.hpp);
    // large and huge blocks start on a slice.
    if (size > kMediumMax) return heap_alloc_in(heap, size, size, false);
    const size_t rounded = size == 0 ? align : (size + align - 1) & ~(align - 1);
    return heap_alloc_in(heap, rounded, size, false);
  }
  const size_t total = size + align;
  if (total < size) return out_of_memory(size);
  char* p = static_cast<char*>(heap_alloc_in(heap, total > kMediumMax ? total : kMediumMax + 1, size, false));
  if (!p) return nullptr;
  char* aligned = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(p) + align - 1) & ~(uintptr_t{align} - 1));
  if (aligned != p) {
    Page* page = page_of_pointer(p);
    page->flags |= kHasAligned;
    if (page->kind == kPageHuge) {
      const size_t slice = slice_index(aligned);
      Page& interior = g_hot.pages[slice];
      interior.kind = kPageInterior;
      interior.slice_offset = static_cast<uint32_t>(slice - page_slice(page));
      page->stamp = slice + 1;
    }
  }
  return aligned;
}

void* heap_alloc_aligned(Heap* heap, size_t align, size_t size) {
  if (CMH_UNLIKELY(heap == &g_empty_heap)) {
    if (CMH_UNLIKELY(tls_uncounted)) return uncounted_alloc(size, align);
    if (CMH_UNLIKELY(forward_chosen())) return forward::alloc_aligned(align, size);
    heap = thread_heap_init();
    if (!heap) return bootstrap_alloc(size, size, false, align);
  }
  return heap_alloc_aligned_in(heap, align, size);
}

}  // namespace cmh::allocator
