// SPDX-License-Identifier: MIT
// Every replaceable operator new and delete (plain, array, nothrow, sized, aligned, and
// their combinations), on the same fast paths as malloc and free. The only file of the
// allocator compiled with exceptions: a failed new runs the new_handler loop and throws
// std::bad_alloc, as the standard requires.
#include <new>

#include "fast_path.hpp"

using namespace cmh::allocator;

namespace {

void* allocate(std::size_t size, std::size_t align) {
  if (align <= 16) return alloc_fast(size);
  return heap_alloc_aligned(tls_heap, align, size);
}

CMH_NOINLINE void* new_failed(std::size_t size, std::size_t align, bool nothrow) {
  for (;;) {
    std::new_handler handler = std::get_new_handler();
    if (!handler) {
      if (nothrow) return nullptr;
      throw std::bad_alloc();
    }
    if (nothrow) {
      try {
        handler();
      } catch (...) {
        return nullptr;
      }
    } else {
      handler();
    }
    if (void* p = allocate(size, align)) return p;
  }
}

inline void* new_impl(std::size_t size) {
  void* p = alloc_fast(size);
  if (CMH_LIKELY(p != nullptr)) return p;
  return new_failed(size, 0, false);
}

inline void* new_aligned(std::size_t size, std::align_val_t align, bool nothrow) {
  void* p = allocate(size, static_cast<std::size_t>(align));
  if (CMH_LIKELY(p != nullptr)) return p;
  return new_failed(size, static_cast<std::size_t>(align), nothrow);
}

inline void* new_nothrow(std::size_t size) noexcept {
  void* p = alloc_fast(size);
  if (CMH_LIKELY(p != nullptr)) return p;
  return new_failed(size, 0, true);
}

}  // namespace

CMH_EXPORT void* operator new(std::size_t size) { return new_impl(size); }
CMH_EXPORT void* operator new[](std::size_t size) { return new_impl(size); }
CMH_EXPORT void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return new_nothrow(size); }
CMH_EXPORT void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return new_nothrow(size); }
CMH_EXPORT void* operator new(std::size_t size, std::align_val_t align) { return new_aligned(size, align, false); }
CMH_EXPORT void* operator new[](std::size_t size, std::align_val_t align) { return new_aligned(size, align, false); }
CMH_EXPORT void* operator new(std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return new_aligned(size, align, true);
}
CMH_EXPORT void* operator new[](std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return new_aligned(size, align, true);
}

CMH_EXPORT void operator delete(void* p) noexcept { free_fast(p); }
CMH_EXPORT void operator delete[](void* p) noexcept { free_fast(p); }
CMH_EXPORT void operator delete(void* p, const std::nothrow_t&) noexcept { free_fast(p); }
CMH_EXPORT void operator delete[](void* p, const std::nothrow_t&) noexcept { free_fast(p); }
CMH_EXPORT void operator delete(void* p, std::size_t) noexcept { free_fast(p); }
CMH_EXPORT void operator delete[](void* p, std::size_t) noexcept { free_fast(p); }
CMH_EXPORT void operator delete(void* p, std::align_val_t) noexcept { free_fast(p); }
CMH_EXPORT void operator delete[](void* p, std::align_val_t) noexcept { free_fast(p); }
CMH_EXPORT void operator delete(void* p, std::size_t, std::align_val_t) noexcept { free_fast(p); }
CMH_EXPORT void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { free_fast(p); }
CMH_EXPORT void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { free_fast(p); }
CMH_EXPORT void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { free_fast(p); }
