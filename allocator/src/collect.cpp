// SPDX-License-Identifier: MIT
// Collections. C++ frees explicitly, so a "collection" is the allocator's own
// reclamation work: one episode that drains frees made by other threads, retires empty
// pages or regions, adopts an exited thread's heap, or returns memory to the OS after
// the decay time. Episodes run on slow paths, in cmh_alloc_collect() and on the purge
// thread (purge.cpp); each is counted once and timed (Episode, internal.hpp).
#include "internal.hpp"

namespace cmh::allocator {

void heap_drain_notify(Heap* heap, Episode& episode) {
  Page* list = heap->notify.exchange(nullptr, std::memory_order_acquire);
  if (!list) return;
  episode.note(kGcDrain);
  while (list) {
    Page* page = list;
    list = page->notify_next;
    page->notify_pending = 0;
    if (page->flags & kInFull) {
      if (page->kind == kPageLarge) {
        // The remote free pushed its block together with the notification.
        page_collect(page, episode);
        if (page->used == 0) {
          page->flags &= static_cast<uint8_t>(~kInFull);
          large_became_empty(heap, page, episode);
        }
      } else {
        queue_remove(&heap->full, page);
        page->flags &= static_cast<uint8_t>(~kInFull);
        queue_push_back(&heap->queues[page->size_class], page);
        page->queue = kQueueClass;
        if (heap->queues[page->size_class].first == page) update_direct(heap, page->size_class);
      }
    } else if (page->queue == kQueueClass && page->used == 0 && (page->next || page->prev)) {
      // It emptied while the notification was in flight: retire it now that nothing points to it.
      page_try_retire(heap, page, episode);
    }
  }
}

namespace {

uint32_t chain_length(const Block* b) {
  uint32_t n = 0;
  for (; b; b = b->next) ++n;
  return n;
}

/// A heap that fork_child parked for a thread the child does not have: that thread may
/// have been between the two stores of a fast path (a block off `free` but `used` not yet
/// raised, or a block on `local_free` but `used` not yet lowered). The lists themselves
/// are always whole, so `used` is recounted from them: a block lost in flight counts as in
/// use (its page stays), and no page retires with a block still out. Paid once, in the
/// child, when the heap is first collected, not in the fork itself.
void recount_after_fork(Heap* heap) {
  auto recount = [](Page* page) {
    if (page->kind != kPageSmall && page->kind != kPageMedium) return;
    // Other threads' frees (thread_free) still count in `used` until page_collect takes them.
    const uint32_t free = chain_length(page->free) + chain_length(page->local_free);
    page->used = free <= page->capacity ? page->capacity - free : 0;
  };
  for (auto& q : heap->queues)
    for (Page* page = q.first; page; page = page->next) recount(page);
  for (Page* page = heap->full.first; page; page = page->next) recount(page);
  heap->fork_cut = false;
}

}  // namespace

void heap_collect(Heap* heap, CollectMode mode, Episode& episode) {
  if (heap->fork_cut) recount_after_fork(heap);
  heap_fold(heap);
  heap_drain_notify(heap, episode);
  retiring_clear(heap);
  for (size_t c = 0; c < kClassCount; ++c) {
    PageQueue& q = heap->queues[c];
    for (Page* page = q.first; page;) {
      Page* next = page->next;
      page_collect(page, episode);
      const bool alone = q.first == page && page->next == nullptr;
      if (page->used == 0 && !(mode == CollectMode::kLight && alone)) page_try_retire(heap, page, episode);
      page = next;
    }
  }
  const bool cache_ages = mode == CollectMode::kLight || mode == CollectMode::kMaintain;
  for (Page* page = heap->large_cache.first; page;) {
    Page* next = page->next;
    if (!cache_ages || page->stamp + 2 <= heap->maintenance_epoch) page_try_retire(heap, page, episode);
    page = next;
  }
  const uint64_t now = episode.now();
  const bool keep_one = mode == CollectMode::kLight || mode == CollectMode::kMaintain;
  const size_t before = heap->avail_count;
  release_empty_regions(heap, keep_one, now);
  if (heap->avail_count != before) episode.note(kGcRetire);
  if (mode == CollectMode::kForce) {
    for (uint32_t list : {heap->regions_avail, heap->regions_full}) {
      for (uint32_t i = list; i; i = g_space.regions[i - 1].next) episode.purged(region_purge(i - 1, now, true));
    }
  }
  if constexpr (CMH_ALLOC_DEBUG) debug_check_heap(heap);
}

void heap_maintain(Heap* heap, Episode& episode) {
  const uint64_t now = prim::monotonic_ns();
  if (now < heap->next_maintenance) return;
  const uint64_t decay = static_cast<uint64_t>(g_space.decay_ns);
  const uint64_t period = decay / 2 > 10000000 ? decay / 2 : 10000000;
  heap->next_maintenance = now + period;
  // A thread back after at least the decay time without maintenance (it was idle, or only
  // freed): what its collection finds free was freed while it was away, so all of it goes
  // back to the OS now rather than one more decay time later.
  const bool was_away = heap->last_maintenance != 0 && now - heap->last_maintenance >= decay;
  heap->last_maintenance = now;
  heap->active_at.store(now, std::memory_order_relaxed);
  ++heap->maintenance_epoch;
  // Frees other threads made into this heap's pages, and pages that emptied, come back
  // here even if this thread never runs out of blocks again (a producer whose consumer
  // freed everything); large blocks cached for reuse go back after one to two periods.
  // The only page of a class stays (a malloc/free loop reuses it) unless the thread was away.
  heap_collect(heap, was_away ? CollectMode::kMaintain : CollectMode::kLight, episode);
  for (uint32_t list : {heap->regions_avail, heap->regions_full}) {
    for (uint32_t i = list; i; i = g_space.regions[i - 1].next) episode.purged(region_purge(i - 1, now, was_away));
  }
  release_empty_regions(heap, true, now);
  episode.purged(node_pools_purge(now, was_away));
  collect_pooled(now, false, episode);
}

void collect_everything() {
  Heap* self = owned_heap();
  if (!self) self = thread_heap_init();
  Episode episode(self);
  episode.note(kGcExplicit);
  if (self) {
    LockGuard guard(self->lock);
    heap_collect(self, CollectMode::kForce, episode);
    reclaim_live_heaps(self, episode);
  }
  collect_pooled(episode.now(), true, episode);
  {
    LockGuard guard(bootstrap_lock());
    heap_collect(bootstrap_heap(), CollectMode::kForce, episode);
  }
  episode.purged(node_pools_purge(episode.now(), true));
}

}  // namespace cmh::allocator
