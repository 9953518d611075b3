// SPDX-License-Identifier: MIT
// The heap/page layer's free side beyond the inlined fast path: the generic free (huge
// blocks, aligned interior pointers, pages in the full queue, the debug checks), the
// remote-free protocol (see page.hpp for the thread_free states), realloc with in-place
// growth of large blocks, and malloc_usable_size. remote_free() is the only code here that
// runs on a thread other than the page's owner; it touches only atomics.
#include <cstring>

#include "internal.hpp"

namespace cmh::allocator {
namespace {

Block* block_of(const Page* page, const void* p) {
  uintptr_t start = page_start(page);
  uintptr_t offset = reinterpret_cast<uintptr_t>(p) - start;
  if (page->flags & kHasAligned) offset -= offset % page->block_size;
  return reinterpret_cast<Block*>(start + offset);
}

// Owner: leaves kFull so that no remote free will notify. When a remote free already took
// the notification, the page is or will be on the notify list: note it as pending.
void leave_full_state(Page* page) {
  uintptr_t tf = page->thread_free.load(std::memory_order_relaxed);
  for (;;) {
    if ((tf & kStateMask) != kFull) {
      page->notify_pending = 1;
      return;
    }
    if (page->thread_free.compare_exchange_weak(tf, tf & ~kStateMask, std::memory_order_acq_rel,
                                                std::memory_order_relaxed))
      return;
  }
}

void free_huge(Page* page) {
  Heap* self = owned_heap();
  Episode episode(self);
  episode.note(kGcRetire);
  const size_t slice = page_slice(page);
  const uint32_t r = region_of_slice(slice);
  if (page->stamp) {
    Page& interior = g_hot.pages[page->stamp - 1];
    interior.kind = kPageFree;
    interior.slice_offset = 0;
  }
  const uint64_t bytes = page->charged;
  page->charged = 0;
  page->kind = kPageFree;
  page->used = 0;
  page->stamp = 0;
  page->flags = 0;
  uncharge_in_use(g_space.regions[r].node, bytes);
  huge_release(r, episode.now());
}

void remote_free(Page* page, Block* block) {
  uintptr_t tf = page->thread_free.load(std::memory_order_relaxed);
  uintptr_t state;
  for (;;) {
    state = tf & kStateMask;
    block->next = thread_free_list(tf);
    const uintptr_t next_state = state == kFull ? kNotifying : state;
    const uintptr_t count = (tf & ~(kThreadFreeOne - 1)) + kThreadFreeOne;
    if (page->thread_free.compare_exchange_weak(tf, count | reinterpret_cast<uintptr_t>(block) | next_state,
                                                std::memory_order_release, std::memory_order_relaxed))
      break;
  }
  if (state != kFull) return;
  // We took the notification: the page cannot be retired while it is kNotifying, so its
  // owner (heaps are never freed) is stable here.
  Heap* owner = page->heap.load(std::memory_order_relaxed);
  Page* head = owner->notify.load(std::memory_order_relaxed);
  do {
    page->notify_next = head;
  } while (!owner->notify.compare_exchange_weak(head, page, std::memory_order_release, std::memory_order_relaxed));
  tf = page->thread_free.load(std::memory_order_relaxed);
  while (!page->thread_free.compare_exchange_weak(tf, (tf & ~kStateMask) | kNormal, std::memory_order_release,
                                                  std::memory_order_relaxed)) {
  }
  // Another thread's full page got a free: its owner may never come back for it (a
  // consumer that never allocates frees a producer's blocks), so the purge thread runs.
  if (owner != bootstrap_heap()) purge_thread_start();
}

void local_free(Heap* heap, Page* page, Block* block) {
  LockGuard guard(heap->lock);  // may move the page between queues: the slow-path rule
  block->next = page->local_free;
  page->local_free = block;
  if (page->flags & kInFull) {
    if (page->kind == kPageLarge) {
      // Its only block comes back here, so no other thread can be freeing into it: no CAS.
      if (page->thread_free.load(std::memory_order_relaxed) == kFull)
        page->thread_free.store(kNormal, std::memory_order_relaxed);
      else
        leave_full_state(page);
      page->flags &= static_cast<uint8_t>(~kInFull);
    } else {
      leave_full_state(page);
      queue_remove(&heap->full, page);
      page->flags &= static_cast<uint8_t>(~kInFull);
      queue_push_back(&heap->queues[page->size_class], page);
      page->queue = kQueueClass;
      if (heap->queues[page->size_class].first == page) update_direct(heap, page->size_class);
    }
  }
  if (--page->used == 0) {
    if (page->kind == kPageLarge) {
      Episode episode(heap);
      large_became_empty(heap, page, episode);
    } else if (page->next || page->prev) {
      page_became_empty_locked(heap, page);
    }
  }
}

// A block kept in place for a larger `size`: its -Xmx charge follows (false when refused).
bool charge_growth(Page* page, size_t size) {
  const uint64_t charge = block_charge(size);
  if (charge <= page->charged) return true;
  if (!charge_in_use(charge - page->charged)) return false;
  charge_node(page->node, charge - page->charged);
  page->charged = charge;
  return true;
}

bool grow_large_in_place(Heap* heap, Page* page, size_t size) {
  LockGuard guard(heap->lock);
  const size_t new_slices = (size + kSliceSize - 1) / kSliceSize;
  if (size > g_space.region_size / 2 || new_slices <= page->slice_count) return false;
  const size_t slice = page_slice(page);
  const uint32_t r = region_of_slice(slice);
  const size_t first = slice - region_first_slice(r) + page->slice_count;
  const size_t extra = new_slices - page->slice_count;
  if (first + extra > g_space.slices_per_region) return false;
  const RegionInfo& info = g_space.regions[r];
  for (size_t i = first; i < first + extra; ++i)
    if ((info.used[i / 64] >> (i % 64)) & 1) return false;
  if (!charge_growth(page, size)) return false;
  region_take_slices(r, first, extra);
  if (info.used_slices == g_space.slices_per_region) {
    region_list_remove(heap, r);
    region_list_push(heap, r, kListFull);
  }
  for (size_t i = page->slice_count; i < new_slices; ++i) {
    page[i].kind = kPageInterior;
    page[i].slice_offset = static_cast<uint32_t>(i);
  }
  page->slice_count = static_cast<uint32_t>(new_slices);
  page->block_size = new_slices * kSliceSize;
  return true;
}

}  // namespace

void free_generic(void* p) {
  if (!p) return;
  if (CMH_UNLIKELY(!is_ours(p))) {
    if (is_emergency(p)) return;
    if (CMH_UNLIKELY(forward::g_on)) return forward::free(p);
    if constexpr (CMH_ALLOC_DEBUG) debug_fail("free() of a pointer cmh did not allocate", p);
    return;
  }
  if constexpr (CMH_ALLOC_DEBUG) {
    const uint8_t state = g_space.regions[(reinterpret_cast<uintptr_t>(p) - g_hot.base) >> g_space.region_shift].state;
    if (state != kRegionOwned && state != kRegionHuge && state != kRegionHugeTail)
      debug_fail("free() of a pointer into free heap memory (double free or invalid pointer)", p);
  }
  Page* page = page_of_pointer(p);
  if (page->kind == kPageHuge) {
    if constexpr (CMH_ALLOC_DEBUG) {
      if (!(page->flags & kHasAligned) && p != reinterpret_cast<void*>(page_start(page)))
        debug_fail("free() of a pointer inside a block", p);
    }
    free_huge(page);
    return;
  }
  if (CMH_UNLIKELY(page->kind == kPageFree || page->kind == kPageInterior)) {
    if constexpr (CMH_ALLOC_DEBUG) debug_fail("free() of a pointer that is not in use (double free or invalid pointer)", p);
    return;
  }
  Block* block = block_of(page, p);
  Heap* self = tls_heap;
  const bool local = page->heap.load(std::memory_order_relaxed) == self;
  if constexpr (CMH_ALLOC_DEBUG) {
    debug_check_free(page, p, block, local);
    debug_poison_free(page, block);
  }
  if (local)
    local_free(self, page, block);
  else
    remote_free(page, block);
}

size_t usable_size(const void* p) {
  if (!p) return 0;
  if (!is_ours(p)) {
    if (is_emergency(p)) return emergency_size(p);
    return forward::g_on ? forward::usable_size(p) : 0;
  }
  const Page* page = page_of_pointer(p);
  if (page->kind == kPageFree || page->kind == kPageInterior) return 0;
  const uintptr_t start = page_start(page);
  const uintptr_t at = reinterpret_cast<uintptr_t>(p);
  if (page->kind == kPageHuge || page->kind == kPageLarge) return start + page->block_size - at;
  const uintptr_t block = start + (at - start) / page->block_size * page->block_size;
  return block + page->block_size - at;
}

int node_of(const void* p) {
  if (!g_space.numa_on || !is_ours(p)) return -1;
  const RegionInfo& info = g_space.regions[(reinterpret_cast<uintptr_t>(p) - g_hot.base) >> g_space.region_shift];
  if (info.state == kRegionUnused) return -1;
  return g_space.layout->node_id[info.node];
}

void* heap_realloc(void* p, size_t size) {
  Heap* heap = tls_heap;
  if (CMH_UNLIKELY(heap == &g_empty_heap) && forward_chosen() && !is_emergency(p)) return forward::realloc(p, size);
  if (!p) return heap_alloc_generic(heap, size, size, false);
  if (size == 0) {
    // glibc's behaviour: realloc(p, 0) frees p and returns NULL.
    free_generic(p);
    return nullptr;
  }
  size_t usable = 0;
  if (is_ours(p)) {
    if constexpr (CMH_ALLOC_DEBUG) {
      const uint8_t state = g_space.regions[(reinterpret_cast<uintptr_t>(p) - g_hot.base) >> g_space.region_shift].state;
      if (state != kRegionOwned && state != kRegionHuge && state != kRegionHugeTail)
        debug_fail("realloc() of a pointer into free heap memory", p);
    }
    Page* page = page_of_pointer(p);
    usable = usable_size(p);
    if (usable == 0) debug_fail("realloc() of a pointer that is not in use (double free or invalid pointer)", p);
    switch (page->kind) {
      case kPageSmall:
      case kPageMedium:
        if (size <= usable && size >= usable / 2) return p;
        break;
      case kPageLarge:
        if (size <= usable && size > kMediumMax && charge_growth(page, size)) return p;
        if (size > usable && !(page->flags & kHasAligned) && page->heap.load(std::memory_order_relaxed) == heap &&
            grow_large_in_place(heap, page, size)) {
          count_slow(heap, size - usable, p);
          return p;
        }
        break;
      case kPageHuge:
        if (size <= usable && size >= usable / 2 && charge_growth(page, size)) return p;
        break;
      default: break;
    }
  } else if (is_emergency(p)) {
    usable = emergency_size(p);
  } else {
    debug_fail("realloc() of a pointer cmh did not allocate", p);
  }
  void* q = heap_alloc_generic(heap, size, size, false);
  if (!q) return nullptr;
  memcpy(q, p, usable < size ? usable : size);
  free_generic(p);
  return q;
}

}  // namespace cmh::allocator
