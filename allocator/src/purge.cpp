// SPDX-License-Identifier: MIT
// Memory handed back when its owner is not there to do it: reclaiming a live heap from
// another thread (the purge thread, an -Xmx reclaim, cmh_alloc_collect()), and the purge
// thread itself.
//
// The reclaimer holds the heap's lock, so the owner is not on a slow path; the owner may
// still run its lock-free fast paths, which touch only
//  - a size class's current page (`queues[c].first`, the direct table's target): malloc
//    pops its `free` list, the quick refill swaps in its `local_free`;
//  - pages that hold a block the owner frees (`local_free`, `used`), when the page's
//    flags are 0 (a full page's free takes the generic path, under the lock).
// So a reclaimer leaves every current page alone and retires a page only when nobody
// holds one of its blocks: `used` equals the number of blocks on its remote list. `used`
// only drops without the lock (the owner freeing a block it holds), and never below that
// count, so once equal it stays equal, and no block of the page can reach the owner again.
#include <pthread.h>
#include <signal.h>
#include <time.h>

#include "internal.hpp"

namespace cmh::allocator {

CMH_TLS bool tls_uncounted = false;

namespace {

std::atomic<bool> g_purge_started{false};
std::atomic<bool> g_purge_wanted{false};  // a fork child that had other threads' heaps

// Takes a page's remote list when it holds every block still out (see above); true if it
// did: no block of the page is in use, its lists are dropped and `used` is 0.
bool take_all_remote(Page* page) {
  const uint32_t used = __atomic_load_n(&page->used, __ATOMIC_ACQUIRE);
  uintptr_t tf = page->thread_free.load(std::memory_order_acquire);
  if ((tf & kStateMask) != kNormal || thread_free_count(tf) != used) return false;
  if (used != 0 &&
      !page->thread_free.compare_exchange_strong(tf, kNormal, std::memory_order_acq_rel, std::memory_order_relaxed))
    return false;
  page->used = 0;
  page->free = page->local_free = nullptr;
  return true;
}

void retire_notified(Heap* heap, Episode& episode) {
  Page* list = heap->notify.exchange(nullptr, std::memory_order_acquire);
  Page* keep = nullptr;
  Page* keep_tail = nullptr;
  while (list) {
    Page* page = list;
    list = page->notify_next;
    // A full page (or a large block in use) that other threads' frees emptied.
    if ((page->flags & kInFull) && !(page->flags & kHasAligned) && take_all_remote(page)) {
      episode.note(kGcDrain);
      page->notify_pending = 0;
      page->flags = 0;
      if (page->kind == kPageLarge) page->queue = kQueueNone;
      page_try_retire(heap, page, episode);
      continue;
    }
    page->notify_next = keep;  // the owner's next slow path takes the rest
    keep = page;
    if (!keep_tail) keep_tail = page;
  }
  if (!keep) return;
  Page* head = heap->notify.load(std::memory_order_relaxed);
  do {
    keep_tail->notify_next = head;
  } while (!heap->notify.compare_exchange_weak(head, keep, std::memory_order_release, std::memory_order_relaxed));
}

uint64_t decay_ns() { return static_cast<uint64_t>(g_space.decay_ns); }

void purge_pass() {
  const uint64_t now = prim::monotonic_ns();
  const uint64_t decay = decay_ns();
  Episode episode(nullptr);  // process-wide: the purge thread owns no heap
  for (Heap* heap = registry_first(); heap; heap = heap->registry_next) {
    if (heap->state.load(std::memory_order_acquire) != kHeapLive) continue;
    // Only heaps whose owner has not run its periodic work for a decay time: an active
    // owner returns its own memory.
    if (now - heap->active_at.load(std::memory_order_relaxed) < decay) continue;
    if (heap->regions_avail == 0 && heap->regions_full == 0) continue;
    if (!heap->lock.try_lock()) continue;
    if (heap->state.load(std::memory_order_relaxed) == kHeapLive) reclaim_foreign(heap, episode);
    heap->lock.unlock();
  }
  collect_pooled(now, false, episode);
  episode.purged(node_pools_purge(now, false));
}

void* purge_main(void*) {
  tls_uncounted = true;
  for (;;) {
    const uint64_t decay = decay_ns();
    const uint64_t period = decay / 2 > 10000000 ? decay / 2 : 10000000;
    timespec ts{static_cast<time_t>(period / 1000000000), static_cast<long>(period % 1000000000)};
    while (nanosleep(&ts, &ts) != 0) {
    }
    purge_pass();
  }
  return nullptr;
}

}  // namespace

void reclaim_foreign(Heap* heap, Episode& episode) {
  retire_notified(heap, episode);
  for (size_t c = 0; c < kClassCount; ++c) {
    Page* first = heap->queues[c].first;
    if (!first) continue;
    for (Page* page = first->next; page;) {
      Page* next = page->next;
      if (!page->notify_pending && !(page->flags & ~kHasAligned) && take_all_remote(page)) {
        episode.note(kGcDrain);
        page_try_retire(heap, page, episode);
      }
      page = next;
    }
  }
  for (Page* page = heap->large_cache.first; page;) {
    Page* next = page->next;
    page_try_retire(heap, page, episode);
    page = next;
  }
  // Purged first, so that the regions released below reach the node pool clean.
  const uint64_t now = episode.now();
  for (uint32_t list : {heap->regions_avail, heap->regions_full}) {
    for (uint32_t i = list; i; i = g_space.regions[i - 1].next) episode.purged(region_purge(i - 1, now, true));
  }
  const uint32_t before = heap->avail_count;
  release_empty_regions(heap, false, now);
  if (heap->avail_count != before) episode.note(kGcRetire);
}

void reclaim_live_heaps(Heap* self, Episode& episode) {
  for (Heap* heap = registry_first(); heap; heap = heap->registry_next) {
    if (heap == self || heap->state.load(std::memory_order_acquire) != kHeapLive) continue;
    bool locked = false;
    for (int tries = 0; tries < 256 && !(locked = heap->lock.try_lock()); ++tries) prim::yield();
    if (!locked) continue;
    if (heap->state.load(std::memory_order_relaxed) == kHeapLive) reclaim_foreign(heap, episode);
    heap->lock.unlock();
  }
}

void purge_thread_start() {
  if (g_purge_started.load(std::memory_order_relaxed)) return;
  if (!options().background_purge) {
    g_purge_wanted.store(false, std::memory_order_relaxed);
    return;
  }
  if (g_purge_started.exchange(true)) return;
  g_purge_wanted.store(false, std::memory_order_relaxed);
  // Its creation allocates (the TLS vector): from static memory, uncounted, so that the
  // byte counts stay those of the program. It takes no signal and needs a small stack
  // (glibc takes the static TLS out of it, hence more than the loop itself needs). If it
  // cannot be created it is not tried again: threads return their own memory as before.
  Heap* saved = tls_heap;
  const bool saved_uncounted = tls_uncounted;
  tls_heap = &g_empty_heap;
  tls_uncounted = true;
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_t thread;
  (void)pthread_create(&thread, &attr, purge_main, nullptr);
  pthread_attr_destroy(&attr);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  tls_uncounted = saved_uncounted;
  tls_heap = saved;
}

void purge_thread_forked(bool wanted) {
  g_purge_started.store(false, std::memory_order_relaxed);
  g_purge_wanted.store(wanted, std::memory_order_relaxed);
}

bool purge_thread_wanted() { return g_purge_wanted.load(std::memory_order_relaxed); }

void* uncounted_alloc(size_t size, size_t align) {
  void* p = emergency_alloc(align > 16 ? size + align : size);
  if (p && align > 16) p = reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(p) + align - 1) & ~(uintptr_t{align} - 1));
  return p;
}

}  // namespace cmh::allocator
