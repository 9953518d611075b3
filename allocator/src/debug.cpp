// SPDX-License-Identifier: MIT
// CMH_ALLOC_DEBUG invariant checks. ASan cannot run on top of a replaced malloc, so these
// are what protects the allocator and its tests: freed blocks carry a cookie and a poison
// fill that malloc verifies (write after free), free() validates the pointer and detects
// double frees, and the slow path checks each page's block accounting. A failed check
// prints one line naming the problem and the address, then aborts.
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

bool list_contains(const Block* list, const Block* block, uint32_t limit) {
  for (uint32_t i = 0; list && i <= limit; ++i, list = list->next)
    if (list == block) return true;
  return false;
}

uint32_t list_length(const Block* list, uint32_t limit, const void* page) {
  uint32_t n = 0;
  for (; list; list = list->next)
    if (++n > limit) debug_fail("a page's free list is longer than the page (corrupted or cyclic)", page);
  return n;
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
  if (page->used > page->capacity) debug_fail("page hands out more blocks than it has", page);
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
  const uint32_t free = list_length(page->free, page->reserved, page);
  const uint32_t local = list_length(page->local_free, page->reserved, page);
  if (page->used + free + local > page->capacity) debug_fail("a page's block accounting is inconsistent", page);
  if ((page->thread_free.load(std::memory_order_acquire) & ~kStateMask) == 0 && page->used + free + local != page->capacity)
    debug_fail("a page lost track of blocks", page);
}

}  // namespace cmh::allocator
