// SPDX-License-Identifier: MIT
// The inlined fast paths shared by the malloc family (entry.cpp) and operator new/delete
// (entry_new.cpp). malloc: index the direct table, pop `page->free`, one thread-local add
// (into the page's tally, on the line malloc already writes).
// free: subtract the reservation base, shift to the slice's descriptor, compare its owner
// with the calling thread's heap, push onto `local_free`. Anything else is a call to heap.cpp.
#pragma once

#include "internal.hpp"

namespace cmh::allocator {

/// pre: size <= kDirectMax. A block from the direct page of `size`, counted; or nullptr
/// (no free block, or the periodic slow path is due: kTallyCheck).
CMH_INLINE void* pop_direct(Heap* heap, size_t size) {
  Page* page = heap->direct[(size + kDirectGrain - 1) / kDirectGrain];
  Block* block = page->free;
  const uint64_t t = __atomic_load_n(&page->tally, __ATOMIC_RELAXED);
  if (CMH_UNLIKELY(block == nullptr || (t & kTallyCheck))) return nullptr;
  page->free = block->next;
  page->used++;
  __atomic_store_n(&page->tally, t + (size << kTallyBytesShift) + 1, __ATOMIC_RELAXED);
  if constexpr (CMH_ALLOC_DEBUG) debug_check_alloc(page, block);
  return block;
}

CMH_INLINE void* alloc_fast(size_t size) {
  Heap* heap = tls_heap;
  if (CMH_LIKELY(size <= kDirectMax)) {
    if (void* block = pop_direct(heap, size); CMH_LIKELY(block != nullptr)) return block;
  }
  return heap_alloc_generic(heap, size, size, false);
}

CMH_INLINE void free_fast(void* p) {
  const uintptr_t offset = reinterpret_cast<uintptr_t>(p) - g_hot.base;
  if (CMH_LIKELY(offset < g_hot.size)) {
    // Interior descriptors (later slices of multi-slice pages) have no owner: those blocks
    // take the generic path, which follows slice_offset. No dependent load here.
    Page* page = g_hot.pages + (offset >> kSliceShift);
    Heap* heap = tls_heap;
    if (CMH_LIKELY(page->heap.load(std::memory_order_relaxed) == heap && page->flags == 0)) {
      auto* block = static_cast<Block*>(p);
      // The checked build runs this same lock-free path, with the free checks in front.
      if constexpr (CMH_ALLOC_DEBUG) {
        debug_check_free(page, p, block, true);
        debug_poison_free(page, block);
      }
      block->next = page->local_free;
      page->local_free = block;
      // Compiler-only: the list store lands before `used` drops (purge.cpp reads `used`).
      std::atomic_signal_fence(std::memory_order_release);
      if (CMH_LIKELY(--page->used != 0)) return;
      // The only page of its class stays; others wait a little, then retire.
      if (page->next == nullptr && page->prev == nullptr) return;
      page_became_empty(heap, page);
      return;
    }
  }
  free_generic(p);
}

}  // namespace cmh::allocator
