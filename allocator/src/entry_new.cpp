// SPDX-License-Identifier: MIT
// Every replaceable operator new and delete (plain, array, nothrow, sized, aligned, and
// their combinations), on the same fast paths as malloc and free. The only file of the
// allocator compiled with exceptions (in the object library; the .so has no C++ runtime):
// a failed new runs the new_handler loop and throws std::bad_alloc, as the standard requires.
#include <new>

#include "fast_path.hpp"

#ifndef CMH_ALLOC_CXX_RUNTIME
#define CMH_ALLOC_CXX_RUNTIME 1
#endif

using namespace cmh::allocator;

namespace {

void* allocate(std::size_t size, std::size_t align) {
  // Blocks of 8 bytes or less are 8-aligned only (config.hpp): 16 goes the aligned way.
  if (align <= 8 || (align <= 16 && size > 8)) return alloc_fast(size);
  return heap_alloc_aligned(tls_heap, align, size);
}

#if CMH_ALLOC_CXX_RUNTIME
// Linked into a C++ executable: its C++ runtime is ours.
std::new_handler current_new_handler() { return std::get_new_handler(); }
[[noreturn]] void throw_bad_alloc() { throw std::bad_alloc(); }
#else
// libcmhalloc.so links no C++ runtime (a C program preloading it should not load
// libstdc++). operator new is only called by C++ code, whose process has a C++ runtime:
// the new_handler and the bad_alloc throw come from that one, looked up by name when first
// needed. The .so is built without exceptions, so a nothrow new whose new_handler throws
// lets the exception through instead of returning NULL (see README).
std::atomic<void*> g_get_new_handler{nullptr};
std::atomic<void*> g_throw_bad_alloc{nullptr};

void* runtime_function(std::atomic<void*>& slot, const char* name) {
  void* fn = slot.load(std::memory_order_acquire);
  if (!fn) {
    fn = prim::find_symbol(name);
    slot.store(fn, std::memory_order_release);
  }
  return fn;
}

std::new_handler current_new_handler() {
  auto get = reinterpret_cast<std::new_handler (*)()>(runtime_function(g_get_new_handler, "_ZSt15get_new_handlerv"));
  return get ? get() : nullptr;
}

[[noreturn]] void throw_bad_alloc() {
  if (auto raise = reinterpret_cast<void (*)()>(runtime_function(g_throw_bad_alloc, "_ZSt17__throw_bad_allocv"))) raise();
  report_line("cmh-alloc: operator new failed and the process has no C++ runtime to throw std::bad_alloc\n");
  prim::abort_process();
}
#endif

CMH_NOINLINE void* new_failed(std::size_t size, std::size_t align, bool nothrow) {
  for (;;) {
    std::new_handler handler = current_new_handler();
    if (!handler) {
      if (nothrow) return nullptr;
      throw_bad_alloc();
    }
#if CMH_ALLOC_CXX_RUNTIME
    if (nothrow) {
      try {
        handler();
      } catch (...) {
        return nullptr;
      }
    } else {
      handler();
    }
#else
    handler();
#endif
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
