// SPDX-License-Identifier: MIT
// The C allocation entry points that replace glibc's for the whole process: malloc,
// free, calloc, realloc, reallocarray, posix_memalign, aligned_alloc, memalign, valloc,
// pvalloc, malloc_usable_size. Semantics follow glibc where the standards leave room
// (malloc(0) returns a unique pointer, realloc(p, 0) frees p and returns NULL).
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>

#include <cstring>

#include "fast_path.hpp"

using namespace cmh::allocator;

namespace {

void* aligned(size_t align, size_t size) { return heap_alloc_aligned(tls_heap, align, size); }

size_t next_power_of_two(size_t v) {
  if (v <= 1) return 1;
  return size_t{1} << (64 - __builtin_clzll(v - 1));
}

}  // namespace

extern "C" {

CMH_EXPORT void* malloc(size_t size) noexcept { return alloc_fast(size); }

CMH_EXPORT void free(void* p) noexcept { free_fast(p); }

CMH_EXPORT void* calloc(size_t count, size_t size) noexcept {
  size_t total = 0;
  if (__builtin_mul_overflow(count, size, &total)) {
    errno = ENOMEM;
    return nullptr;
  }
  Heap* heap = tls_heap;
  if (CMH_LIKELY(total <= kDirectMax)) {
    if (void* block = pop_direct(heap, total); CMH_LIKELY(block != nullptr)) return memset(block, 0, total);
  }
  return heap_alloc_generic(heap, total, total, true);
}

CMH_EXPORT void* realloc(void* p, size_t size) noexcept { return heap_realloc(p, size); }

CMH_EXPORT void* reallocarray(void* p, size_t count, size_t size) noexcept {
  size_t total = 0;
  if (__builtin_mul_overflow(count, size, &total)) {
    errno = ENOMEM;
    return nullptr;
  }
  return heap_realloc(p, total);
}

CMH_EXPORT int posix_memalign(void** out, size_t align, size_t size) noexcept {
  if (align < sizeof(void*) || (align & (align - 1)) != 0) return EINVAL;
  const int saved = errno;  // POSIX: the result is the return value; errno stays
  void* p = aligned(align, size);
  errno = saved;
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}

CMH_EXPORT void* aligned_alloc(size_t align, size_t size) noexcept {
  if (align == 0 || (align & (align - 1)) != 0) {
    errno = EINVAL;
    return nullptr;
  }
  return aligned(align, size);
}

CMH_EXPORT void* memalign(size_t align, size_t size) noexcept {
  // glibc rounds a non-power-of-two alignment up.
  if (align > (size_t{1} << 62)) {
    errno = EINVAL;
    return nullptr;
  }
  return aligned(next_power_of_two(align), size);
}

CMH_EXPORT void* valloc(size_t size) noexcept { return aligned(prim::os_page_size(), size); }

CMH_EXPORT void* pvalloc(size_t size) noexcept {
  const size_t page = prim::os_page_size();
  const size_t rounded = size == 0 ? page : (size + page - 1) & ~(page - 1);
  if (rounded < size) {
    errno = ENOMEM;
    return nullptr;
  }
  return aligned(page, rounded);
}

CMH_EXPORT size_t malloc_usable_size(void* p) noexcept { return usable_size(p); }

}  // extern "C"
