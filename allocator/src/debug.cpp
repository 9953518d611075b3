// SPDX-License-Identifier: MIT
// CMH_ALLOC_DEBUG invariant checks. ASan cannot run on top of a replaced malloc, so these
// are what protects the allocator and its tests:
//  - blocks: freed blocks carry a cookie and a poison fill that malloc verifies (write after
//    free); free() validates the pointer and detects double frees (cookie, then a scan of
//    the page's lists);
//  - free lists: every link stays inside its page on a block boundary, no list is longer
//    than the page (a cycle), and a page's blocks balance (in use + on its lists = threaded);
//  - heaps, on every collection: each page sits in the queue its tags name, each region the
//    heap lists is owned by it with a slice map that matches its pages, every page's -Xmx
//    charge is what its kind charges, and only a class's current page holds a tally.
// A failed check prints one line naming the check, the page (or pointer) and its shape,
// then aborts.
#include <cstring>

#include "internal.hpp"
#include "text.hpp"

namespace cmh::allocator {
namespace {

constexpr uint64_t kFreedCookie = 0x636d682d66726565ull;  // "cmh-free"
constexpr unsigned char kPoison = 0xdf;
constexpr size_t kPoisonLimit = 4096;  // poison at most this much of a block: cheap enough

size_t poison_end(const Page* page) {
  return page->block_size < kPoisonLimit ? page->block_size : kPoisonLimit;
}

uint64_t cookie_of(const Block* block) { return kFreedCookie ^ reinterpret_cast<uintptr_t>(block); }

/// One line: the check that failed, the page with its shape, and the address at fault.
[[noreturn]] void page_fail(const char* check, const Page* page, const void* at) {
  char line[320];
  TextBuffer text(line, sizeof(line));
  text.add("cmh-alloc: ").add(check).add(": page ").add_hex(page_start(page));
  text.add(" (block size ").add_uint(page->block_size).add(", capacity ").add_uint(page->capacity);
  text.add(", used ").add_uint(page->used).add(") at ").add_hex(reinterpret_cast<uintptr_t>(at)).add('\n');
  prim::write_stderr(text.c_str(), text.length() < sizeof(line) ? text.length() : sizeof(line) - 1);
  prim::abort_process();
}

/// A free-list link must be null or a block of the same page: inside its threaded part and
/// on a block boundary. A link cut by a stray store (issue 24's pre-touch) fails here.
void check_link(const Page* page, const Block* link, const char* list) {
  if (!link) return;
  const uintptr_t start = page_start(page);
  const uintptr_t at = reinterpret_cast<uintptr_t>(link);
  if (at < start || at - start >= uint64_t{page->capacity} * page->block_size || (at - start) % page->block_size != 0) {
    char check[96];
    TextBuffer text(check, sizeof(check));
    text.add("a free list leaves its page (").add(list).add(" list)");
    page_fail(text.c_str(), page, link);
  }
}

bool list_contains(const Block* list, const Block* block, uint32_t limit) {
  for (uint32_t i = 0; list && i <= limit; ++i, list = list->next)
    if (list == block) return true;
  return false;
}

/// Length of a free list, every link checked; a list longer than the page is a cycle.
uint32_t list_length(const Page* page, const Block* list, const char* name) {
  uint32_t n = 0;
  for (; list; list = list->next) {
    check_link(page, list, name);
    if (++n > page->capacity) page_fail("a free list is longer than its page (a cycle: a block freed twice?)", page, list);
  }
  return n;
}

void check_region(const Heap* heap, uint32_t r, uint8_t list) {
  const RegionInfo& info = g_space.regions[r];
  const void* at = reinterpret_cast<const void*>(region_address(r));
  if (info.owner != heap || info.state != kRegionOwned) debug_fail("a heap lists a region it does not own", at);
  if (info.list != list) debug_fail("a region's list tag differs from the list that holds it", at);
  uint32_t used = 0;
  for (size_t w = 0; w < kSliceWords; ++w) used += static_cast<uint32_t>(popcount(info.used[w]));
  if (used != info.used_slices) debug_fail("a region's slice count differs from its slice map", at);
  if (list == kListFull && used != g_space.slices_per_region) debug_fail("a region on the full list has free slices", at);
  // Every used slice belongs to a page of this heap that covers it; every free one to none.
  const size_t first = region_first_slice(r);
  for (size_t s = 0; s < g_space.slices_per_region; ++s) {
    const bool in_use = (info.used[s / 64] >> (s % 64)) & 1;
    const Page& d = g_hot.pages[first + s];
    if (!in_use) {
      if (d.kind != kPageFree) debug_fail("a free slice still has a page", reinterpret_cast<const void*>(slice_address(first + s)));
      continue;
    }
    const Page* head = d.kind == kPageInterior ? &d - d.slice_offset : &d;
    if (head->kind == kPageFree || head->kind == kPageInterior || head->kind == kPageHuge ||
        page_slice(head) < first || page_slice(head) + head->slice_count <= first + s)
      debug_fail("a used slice belongs to no page", reinterpret_cast<const void*>(slice_address(first + s)));
    if (head->heap.load(std::memory_order_relaxed) != heap) page_fail("a page in a heap's region has another owner", head, head);
  }
}

void check_queue(const Heap* heap, const PageQueue& q, uint8_t tag, int size_class) {
  const Page* prev = nullptr;
  for (const Page* page = q.first; page; prev = page, page = page->next) {
    if (page->prev != prev) page_fail("a page queue's links are broken", page, page);
    if (page->queue != tag) page_fail("a page's queue tag differs from the queue that holds it", page, page);
    if (page->heap.load(std::memory_order_relaxed) != heap) page_fail("a heap's queue holds another heap's page", page, page);
    if (size_class >= 0 && page->size_class != size_class) page_fail("a page sits in another size class's queue", page, page);
    if ((page->kind == kPageSmall || page->kind == kPageMedium) && page->charged != uint64_t{page->slice_count} * kSliceSize)
      page_fail("a page's -Xmx charge is not its slices", page, page);
    // Only a class's current page counts allocations; any other would be missed by readers.
    if (page->tally != 0 && (size_class < 0 || page != q.first))
      page_fail("a page that is not its class's current page holds a tally", page, page);
    debug_check_page(page);
  }
  if (q.last != prev) debug_fail("a page queue's tail is not its last page", q.last);
}

}  // namespace

void debug_fail(const char* what, const void* p) {
  char line[256];
  TextBuffer text(line, sizeof(line));
  text.add("cmh-alloc: ").add(what).add(": ").add_hex(reinterpret_cast<uintptr_t>(p)).add('\n');
  prim::write_stderr(text.c_str(), text.length() < sizeof(line) ? text.length() : sizeof(line) - 1);
  prim::abort_process();
}

void debug_poison_free(const Page* page, Block* block) {
  auto* words = reinterpret_cast<uint64_t*>(block);
  words[1] = cookie_of(block);
  const size_t end = poison_end(page);
  if (end > 16) memset(reinterpret_cast<char*>(block) + 16, kPoison, end - 16);
}

void debug_check_alloc(const Page* page, Block* block) {
  auto* words = reinterpret_cast<uint64_t*>(block);
  if (words[1] != cookie_of(block)) debug_fail("a free block was overwritten (write after free?)", block);
  const auto* bytes = reinterpret_cast<const unsigned char*>(block);
  for (size_t i = 16; i < poison_end(page); ++i)
    if (bytes[i] != kPoison) debug_fail("a free block was overwritten (write after free?)", bytes + i);
  words[1] = 0;
  if (page->used > page->capacity) page_fail("a page hands out more blocks than it has", page, block);
  if (page->kind == kPageSmall || page->kind == kPageMedium) check_link(page, page->free, "free");
}

void debug_check_free(const Page* page, const void* p, Block* block, bool local) {
  const uintptr_t start = page_start(page);
  const uintptr_t offset = reinterpret_cast<uintptr_t>(p) - start;
  if (page->kind != kPageLarge) {
    if (!(page->flags & kHasAligned) && offset % page->block_size != 0)
      debug_fail("free() of a pointer that is not the start of a block", p);
    if (offset / page->block_size >= page->capacity) debug_fail("free() of a pointer beyond the page's blocks", p);
  } else if (!(page->flags & kHasAligned) && offset != 0) {
    debug_fail("free() of a pointer inside a block", p);
  }
  if (page->used == 0) debug_fail("double free (the page has no block in use)", p);
  const auto* words = reinterpret_cast<const uint64_t*>(block);
  if (words[1] != cookie_of(block)) return;
  if (!local) debug_fail("double free (the block already carries the freed cookie)", p);
  if (list_contains(page->free, block, page->reserved) || list_contains(page->local_free, block, page->reserved))
    debug_fail("double free", p);
}

void debug_check_page(const Page* page) {
  if (page->kind != kPageSmall && page->kind != kPageMedium) return;
  if (page->capacity > page->reserved) page_fail("a page threaded more blocks than fit", page, page);
  const uint32_t free = list_length(page, page->free, "free");
  const uint32_t local = list_length(page, page->local_free, "local_free");
  if (page->used + free + local > page->capacity) page_fail("a page's block accounting is inconsistent", page, page);
  if ((page->thread_free.load(std::memory_order_acquire) & ~kStateMask) == 0 && page->used + free + local != page->capacity)
    page_fail("a page lost track of blocks (in use + free != threaded)", page, page);
}

void debug_check_heap(const Heap* heap) {
  for (size_t c = 0; c < kClassCount; ++c) {
    check_queue(heap, heap->queues[c], kQueueClass, static_cast<int>(c));
    if (heap->tallied[c].load(std::memory_order_relaxed) != heap->queues[c].first)
      debug_fail("a heap's tallied page is not its class's current page", heap->queues[c].first);
  }
  check_queue(heap, heap->full, kQueueFull, -1);
  check_queue(heap, heap->large_cache, kQueueLargeCache, -1);
  uint32_t avail = 0;
  for (uint32_t i = heap->regions_avail; i; i = g_space.regions[i - 1].next, ++avail) check_region(heap, i - 1, kListAvail);
  for (uint32_t i = heap->regions_full; i; i = g_space.regions[i - 1].next) check_region(heap, i - 1, kListFull);
  if (avail != heap->avail_count) debug_fail("a heap's region count differs from its region list", heap);
}

}  // namespace cmh::allocator
