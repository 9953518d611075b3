// SPDX-License-Identifier: MIT
// The forwarding layer (-XX:Allocator=glibc|jemalloc|tcmalloc|mimalloc|<path.so> in
// CMH_ALLOC): the bundled allocator's entry points stay in place, start-up reserves no heap,
// so every call misses the fast path; behind the miss (heap.cpp, free.cpp) the call goes to
// the next definition of malloc & co. (dlsym RTLD_NEXT: the preloaded library, or libc) and
// is counted with the bundled heap's rules, in one record per thread (single writer, parked
// at thread exit and adopted by the next thread, never freed): exact, exited threads included.
#pragma once

#include "config.hpp"

namespace cmh::allocator::forward {

/// Set once by configure(), before the allocator is ready; read on missed fast paths only.
extern bool g_on;

/// Reads -XX:Allocator= from CMH_ALLOC's text (may be nullptr). True when a foreign
/// allocator was chosen: g_on is set, and the caller must not reserve a heap.
bool configure(const char* cmh_alloc);
/// The start-up constructor's part: the thread key and the fork handlers.
void install();

void* alloc(size_t size, size_t counted, bool zero);
void* alloc_aligned(size_t align, size_t size);
void free(void* p);
void* realloc(void* p, size_t size);
size_t usable_size(const void* p);

struct Counts {
  uint64_t bytes = 0, count = 0;
};
Counts totals();
uint64_t thread_bytes();
uint64_t thread_count();
uint64_t live_threads_bytes();

/// "glibc", "jemalloc", ... or the path; the library malloc resolved to; nullptr problem
/// when it resolved as chosen, otherwise one line saying why not.
const char* name();
const char* options_text();
const char* problem();
const char* numa_reason();

}  // namespace cmh::allocator::forward
