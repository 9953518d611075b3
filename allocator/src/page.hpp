// SPDX-License-Identifier: MIT
// Page descriptors. Every 64 KiB slice of the reservation has one 128-byte descriptor
// in a side table (index = (p - base) >> 16), so free() finds a block's page with a
// subtraction and a shift. A page is a run of slices: small (1 slice, blocks <= 8 KiB),
// medium (8 slices, blocks <= 64 KiB), large (one block of whole slices) or huge (one
// block of whole regions). The other slices of a run are "interior": they only point
// back to the first one. Free lists are sharded mimalloc-style: `free` feeds malloc,
// `local_free` takes the owner's frees, `thread_free` (atomic) takes other threads'.
#pragma once

#include <atomic>
#include <cstddef>

#include "config.hpp"

namespace cmh::allocator {

struct Heap;

struct Block {
  Block* next;
};

enum PageKind : uint8_t { kPageFree = 0, kPageSmall, kPageMedium, kPageLarge, kPageHuge, kPageInterior };

// Page::flags: any bit set sends free() to the generic path.
inline constexpr uint8_t kInFull = 1;      // in the heap's full queue (or a large block in use)
inline constexpr uint8_t kHasAligned = 2;  // holds an interior pointer from aligned allocation

// The two low bits of Page::thread_free.
//  kNormal:    remote frees push onto the list.
//  kFull:      the page is in its owner's full queue; the first remote free pushes its block,
//              moves to kNotifying, tells the owner (heap notify list), then sets kNormal.
//  kNotifying: that remote free is between its push and its notification.
inline constexpr uintptr_t kNormal = 0, kFull = 1, kNotifying = 2, kStateMask = 3;
// The high 16 bits count the blocks on the list (a page holds at most 8192), so that the
// owner collects a whole list with one exchange and no walk over blocks another core just
// wrote (the walk was half of a producer's time in a producer/consumer pipeline). Blocks
// live below 2^48 (region_space_init checks the reservation).
inline constexpr unsigned kThreadFreeCountShift = 48;
inline constexpr uintptr_t kThreadFreeOne = uintptr_t{1} << kThreadFreeCountShift;
inline constexpr uintptr_t kThreadFreeList = (kThreadFreeOne - 1) & ~kStateMask;
inline Block* thread_free_list(uintptr_t tf) { return reinterpret_cast<Block*>(tf & kThreadFreeList); }
inline uint32_t thread_free_count(uintptr_t tf) { return static_cast<uint32_t>(tf >> kThreadFreeCountShift); }

struct alignas(64) Page {
  // ---- cache line 0: written by the owner's malloc and free fast paths (and read by them)
  Block* free;                // blocks malloc pops
  Block* local_free;          // owner's frees, moved to `free` on the slow path
  uint32_t used;              // blocks handed out and not yet back (locally or collected)
  uint32_t capacity;          // blocks threaded so far (the free list grows 4 KiB at a time)
  uint32_t reserved;          // blocks that fit in the page
  uint8_t node;               // logical node of its region: the malloc fast path counts per node
  uint8_t size_class;
  uint8_t is_zero;            // made from clean slices: the memory reads as zero (large/huge)
  uint8_t notify_pending;     // owner left kFull and found a remote notification under way
  Page* next;                 // queue links
  Page* prev;
  uint64_t stamp;             // large cache: maintenance epoch when cached
  // What malloc took from this page since the heap last folded it (heap.hpp: count in
  // the high 24 bits, bytes in the low 40): only a size class's current page has one, so
  // counting is one add on the line malloc already writes. Owner writes, anyone reads.
  uint64_t tally;
  // ---- cache line 1: what any free() reads (written by the owner only when the page
  // changes hands or state) and the remote-free list. A remote free touches only this
  // line, so the owner's mallocs on line 0 and another thread's frees do not share a line.
  std::atomic<Heap*> heap;    // owner; nullptr for huge blocks and free slices
  uint8_t flags;              // kInFull | kHasAligned: any bit set sends free() to the generic path
  uint8_t kind;               // PageKind
  uint8_t queue;              // which heap queue holds it (kQueueNone, kQueueClass, ...)
  uint8_t spare;
  uint32_t slice_offset;      // interior descriptor: distance to the run's first slice
  std::atomic<uintptr_t> thread_free;  // other threads' frees | state bits
  uint64_t block_size;
  Page* notify_next;          // link in the owner's notify list
  uint32_t slice_count;
  uint32_t padding;
  uint64_t charged;           // bytes charged against -Xmx for this page (see region.hpp)
  uint8_t spare_tail[8];
};
static_assert(sizeof(Page) == 128, "descriptor index arithmetic assumes 128-byte pages");
static_assert(offsetof(Page, heap) == 64, "the fields every free() reads start the second cache line");

inline constexpr uint8_t kQueueNone = 0, kQueueClass = 1, kQueueFull = 2, kQueueLargeCache = 3;

struct PageQueue {
  Page* first = nullptr;
  Page* last = nullptr;
};

inline void queue_push_front(PageQueue* q, Page* page) {
  page->prev = nullptr;
  page->next = q->first;
  if (q->first)
    q->first->prev = page;
  else
    q->last = page;
  q->first = page;
}

// A page that comes back from the full queue goes to the back: the current page (the
// front, which malloc's direct table points to) keeps serving, and the returning page
// gathers more frees before the queue reaches it (mimalloc's order too).
inline void queue_push_back(PageQueue* q, Page* page) {
  page->next = nullptr;
  page->prev = q->last;
  if (q->last)
    q->last->next = page;
  else
    q->first = page;
  q->last = page;
}

inline void queue_remove(PageQueue* q, Page* page) {
  if (page->prev)
    page->prev->next = page->next;
  else
    q->first = page->next;
  if (page->next)
    page->next->prev = page->prev;
  else
    q->last = page->prev;
  page->next = page->prev = nullptr;
}

}  // namespace cmh::allocator
