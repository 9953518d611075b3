// SPDX-License-Identifier: MIT
// API conformance of every function the allocator replaces: alignment, zero sizes,
// NULL, realloc shrink/grow/move, malloc_usable_size >= requested, errno on failure,
// overflow in calloc/reallocarray, every operator new/delete form, the new_handler loop,
// and that libc's and libstdc++'s own allocations land on the allocator.
#include <cmh/alloc.h>
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <new>
#include <string>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace {

// Sizes hidden from the compiler, so that deliberate over-large requests draw no warning.
size_t opaque(size_t v) {
  volatile size_t hidden = v;
  return hidden;
}

bool aligned_to(const void* p, size_t align) { return (reinterpret_cast<uintptr_t>(p) & (align - 1)) == 0; }

bool all_bytes(const void* p, size_t n, unsigned char v) {
  const auto* b = static_cast<const unsigned char*>(p);
  for (size_t i = 0; i < n; ++i)
    if (b[i] != v) return false;
  return true;
}

const size_t kSizes[] = {0,    1,    7,     8,     15,    16,    17,     31,     32,      33,     100,
                         128,  129,  255,   256,   1000,  1024,  1025,   4000,   8192,    8193,   30000,
                         65536, 65537, 100000, 1 << 20, (1 << 20) + 1, 2 << 20, (2 << 20) + 1, 5 << 20, 40 << 20};

void test_malloc_free() {
  for (size_t size : kSizes) {
    auto* p = static_cast<unsigned char*>(cmh_test::escape(malloc(size)));
    CHECK(p != nullptr);
    if (!p) continue;
    // 16-aligned, but for blocks of 8 bytes or less: no object that small needs more (C11
    // 7.22.3), and the release build serves them from an 8-byte class.
    CHECK(aligned_to(p, size > 8 ? 16 : 8));
    const size_t usable = malloc_usable_size(p);
    CHECK(usable >= size);
    memset(p, 0x5a, usable);  // the whole usable size is ours to write
    free(p);
  }
  // malloc(0) gives distinct, freeable pointers.
  void* a = cmh_test::escape(malloc(0));
  void* b = cmh_test::escape(malloc(0));
  CHECK(a && b && a != b);
  free(a);
  free(b);
  free(nullptr);
  // Many live blocks of every small size: distinct and intact.
  std::vector<unsigned char*> blocks;
  for (int i = 0; i < 20000; ++i) {
    size_t size = static_cast<size_t>(i % 3000) + 1;
    auto* p = static_cast<unsigned char*>(malloc(size));
    memset(p, i & 0xff, size);
    blocks.push_back(p);
  }
  for (int i = 0; i < 20000; ++i) {
    size_t size = static_cast<size_t>(i % 3000) + 1;
    CHECK(all_bytes(blocks[i], size, static_cast<unsigned char>(i & 0xff)));
    free(blocks[i]);
  }
}

void test_failures_set_errno() {
  errno = 0;
  CHECK(cmh_test::escape(malloc(opaque(SIZE_MAX))) == nullptr);
  CHECK_EQ(errno, ENOMEM);
  errno = 0;
  CHECK(cmh_test::escape(malloc(size_t{1} << 50)) == nullptr);
  CHECK_EQ(errno, ENOMEM);
  errno = 0;
  CHECK(cmh_test::escape(calloc(opaque(SIZE_MAX / 2), 3)) == nullptr);  // n*size overflows
  CHECK_EQ(errno, ENOMEM);
  errno = 0;
  CHECK(cmh_test::escape(calloc(size_t{1} << 25, size_t{1} << 25)) == nullptr);  // 2^50, too big
  CHECK_EQ(errno, ENOMEM);
  // A successful call leaves errno alone.
  errno = 1234;
  void* p = cmh_test::escape(malloc(10));
  free(p);
  CHECK_EQ(errno, 1234);
  errno = 0;
}

void test_calloc() {
  for (size_t size : kSizes) {
    // Dirty a block of this size first, so that calloc must really clear reused memory.
    void* dirty = malloc(size);
    if (dirty) memset(dirty, 0xee, malloc_usable_size(dirty));
    free(cmh_test::escape(dirty));
    auto* p = static_cast<unsigned char*>(cmh_test::escape(calloc(1, size)));
    CHECK(p != nullptr);
    if (p) CHECK(all_bytes(p, size, 0));
    free(p);
  }
  auto* q = static_cast<int*>(calloc(1000, sizeof(int)));
  CHECK(q && all_bytes(q, 1000 * sizeof(int), 0));
  free(q);
  void* zero = calloc(0, 10);
  CHECK(zero != nullptr);
  free(zero);
}

void test_realloc() {
  free(realloc(nullptr, 0));  // like malloc(0)
  auto* p = static_cast<unsigned char*>(realloc(nullptr, 100));
  CHECK(p != nullptr);
  for (int i = 0; i < 100; ++i) p[i] = static_cast<unsigned char>(i);
  // Grow through every kind: small, medium, large, huge; contents survive each move.
  size_t size = 100;
  for (size_t next : {200u, 5000u, 70000u, 300000u, 3000000u, 9000000u}) {
    p = static_cast<unsigned char*>(realloc(p, next));
    CHECK(p != nullptr);
    CHECK(malloc_usable_size(p) >= next);
    bool ok = true;
    for (int i = 0; i < 100; ++i) ok &= p[i] == static_cast<unsigned char>(i);
    CHECK(ok);
    memset(p + size, 0x11, next - size);
    size = next;
  }
  // Shrink back down; the prefix survives.
  for (size_t next : {1000000u, 100000u, 1000u, 50u}) {
    p = static_cast<unsigned char*>(realloc(p, next));
    CHECK(p != nullptr);
    CHECK(malloc_usable_size(p) >= next);
    bool ok = true;
    for (int i = 0; i < 50; ++i) ok &= p[i] == static_cast<unsigned char>(i);
    CHECK(ok);
  }
  // A failed realloc returns NULL with ENOMEM and leaves the block alone.
  errno = 0;
  CHECK(realloc(cmh_test::hide(p), size_t{1} << 50) == nullptr);
  CHECK_EQ(errno, ENOMEM);
  CHECK(p[10] == 10);
  // realloc(p, 0) frees p and returns NULL (glibc's behaviour).
  CHECK(realloc(p, 0) == nullptr);

  // reallocarray: overflow is ENOMEM and keeps the block.
  auto* r = static_cast<int*>(reallocarray(nullptr, 10, sizeof(int)));
  CHECK(r != nullptr);
  r[9] = 9;
  errno = 0;
  CHECK(reallocarray(cmh_test::hide(r), opaque(SIZE_MAX / 2), 4) == nullptr);
  CHECK_EQ(errno, ENOMEM);
  r = static_cast<int*>(reallocarray(r, 1000, sizeof(int)));
  CHECK(r != nullptr && r[9] == 9);
  free(r);
}

void test_aligned() {
  const size_t alignments[] = {8, 16, 32, 64, 128, 256, 4096, 8192, 65536, 1 << 17, 1 << 20, 2 << 20, 8 << 20};
  const size_t sizes[] = {0, 1, 24, 100, 5000, 70000, 1 << 20, 3 << 20, 20 << 20};
  for (size_t align : alignments) {
    for (size_t size : sizes) {
      void* p = nullptr;
      CHECK_EQ(posix_memalign(&p, align, size), 0);
      CHECK(p != nullptr && aligned_to(p, align));
      CHECK(malloc_usable_size(p) >= size);
      if (p) memset(p, 0x33, size);
      free(p);
      void* q = aligned_alloc(align, size);
      CHECK(q != nullptr && aligned_to(q, align));
      free(q);
      void* m = memalign(align, size);
      CHECK(m != nullptr && aligned_to(m, align));
      free(m);
    }
  }
  // Many live aligned blocks at once, freed in another order.
  std::vector<void*> live;
  for (int i = 0; i < 2000; ++i) {
    void* p = nullptr;
    size_t align = size_t{16} << (i % 9);
    CHECK_EQ(posix_memalign(&p, align, static_cast<size_t>(i % 700)), 0);
    CHECK(aligned_to(p, align));
    live.push_back(p);
  }
  for (size_t i = 0; i < live.size(); i += 2) free(live[i]);
  for (size_t i = 1; i < live.size(); i += 2) free(live[i]);

  // posix_memalign reports errors in its result and leaves *out alone.
  void* untouched = reinterpret_cast<void*>(0x1234);
  CHECK_EQ(posix_memalign(&untouched, 0, 10), EINVAL);
  CHECK_EQ(posix_memalign(&untouched, 24, 10), EINVAL);
  CHECK_EQ(posix_memalign(&untouched, 4, 10), EINVAL);  // less than sizeof(void*)
  CHECK_EQ(posix_memalign(&untouched, 64, size_t{1} << 50), ENOMEM);
  CHECK(untouched == reinterpret_cast<void*>(0x1234));
  errno = 0;
  CHECK(aligned_alloc(3, 10) == nullptr);
  CHECK_EQ(errno, EINVAL);
  // memalign rounds a non-power-of-two alignment up, as glibc does.
  void* m = memalign(48, 10);
  CHECK(m && aligned_to(m, 64));
  free(m);
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* v = valloc(10);
  CHECK(v && aligned_to(v, page));
  free(v);
  void* pv = pvalloc(page + 1);
  CHECK(pv && aligned_to(pv, page) && malloc_usable_size(pv) >= 2 * page);
  free(pv);
  void* pv0 = pvalloc(0);
  CHECK(pv0 && malloc_usable_size(pv0) >= page);
  free(pv0);
  CHECK_EQ(malloc_usable_size(nullptr), 0u);
}

int g_handler_calls = 0;
void counting_handler() {
  if (++g_handler_calls == 3) std::set_new_handler(nullptr);
}

void test_new_delete() {
  int* one = new int(7);
  CHECK(one && *one == 7 && aligned_to(one, 8));  // 4 bytes: an 8-byte block in the release build
  auto* pair = new std::pair<long double, char>();  // 32 bytes: the default new alignment
  CHECK(pair && aligned_to(pair, __STDCPP_DEFAULT_NEW_ALIGNMENT__));
  delete pair;
  void* small16 = ::operator new(4, std::align_val_t(16));  // 16 asked for: never an 8-byte block
  CHECK(aligned_to(small16, 16));
  ::operator delete(small16, std::align_val_t(16));
  delete one;
  int* many = new int[1000];
  many[999] = 1;
  delete[] many;
  void* zero = ::operator new(0);
  void* zero2 = ::operator new(0);
  CHECK(zero && zero2 && zero != zero2);
  ::operator delete(zero);
  ::operator delete(zero2, size_t{0});
  for (size_t align : {32u, 64u, 4096u, 65536u, 1u << 21}) {
    void* p = ::operator new(100, std::align_val_t(align));
    CHECK(aligned_to(p, align));
    ::operator delete(p, std::align_val_t(align));
    void* q = ::operator new[](5000, std::align_val_t(align));
    CHECK(aligned_to(q, align));
    ::operator delete[](q, 5000, std::align_val_t(align));
    void* r = ::operator new(10, std::align_val_t(align), std::nothrow);
    CHECK(r && aligned_to(r, align));
    ::operator delete(r, std::align_val_t(align), std::nothrow);
    void* s = ::operator new[](10, std::align_val_t(align), std::nothrow);
    CHECK(s && aligned_to(s, align));
    ::operator delete[](s, std::align_val_t(align), std::nothrow);
    void* t = ::operator new(300, std::align_val_t(align));
    ::operator delete(t, 300, std::align_val_t(align));
  }
  struct alignas(128) Wide {
    char bytes[200];
  };
  Wide* w = new Wide;
  CHECK(aligned_to(w, 128));
  delete w;
  Wide* ws = new Wide[10];
  CHECK(aligned_to(ws, 128));
  delete[] ws;
  void* sized = ::operator new(48);
  ::operator delete(sized, 48);
  void* sized_array = ::operator new[](48);
  ::operator delete[](sized_array, 48);
  void* nt = ::operator new(64, std::nothrow);
  CHECK(nt != nullptr);
  ::operator delete(nt, std::nothrow);
  void* nta = ::operator new[](64, std::nothrow);
  ::operator delete[](nta, std::nothrow);

  // Failure: nothrow forms return NULL, the others throw std::bad_alloc.
  const size_t huge = size_t{1} << 50;
  CHECK(::operator new(huge, std::nothrow) == nullptr);
  CHECK(::operator new[](huge, std::nothrow) == nullptr);
  CHECK(::operator new(huge, std::align_val_t(64), std::nothrow) == nullptr);
  int thrown = 0;
  try {
    cmh_test::escape(::operator new(huge));
  } catch (const std::bad_alloc&) {
    ++thrown;
  }
  try {
    cmh_test::escape(::operator new[](huge, std::align_val_t(256)));
  } catch (const std::bad_alloc&) {
    ++thrown;
  }
  CHECK_EQ(thrown, 2);
  // The new_handler loop runs until the handler uninstalls itself, then new throws.
  std::set_new_handler(counting_handler);
  try {
    cmh_test::escape(::operator new(huge));
  } catch (const std::bad_alloc&) {
    ++thrown;
  }
  CHECK_EQ(g_handler_calls, 3);
  CHECK_EQ(thrown, 3);
}

void test_interposition() {
  // libc's and libstdc++'s internal allocations come from the allocator: it knows their size.
  char* dup = strdup("interposed");
  CHECK(dup && malloc_usable_size(dup) >= 11);
  free(dup);
  const uint64_t before = cmh_alloc_total_allocated_bytes();
  auto* s = new std::string(1000, 'x');
  const uint64_t after = cmh_alloc_total_allocated_bytes();
  CHECK(after - before >= 1000);
  delete s;
  CHECK(cmh_alloc_version() == CMH_ALLOC_API_VERSION);
}

}  // namespace

int main() {
  test_malloc_free();
  test_failures_set_errno();
  test_calloc();
  test_realloc();
  test_aligned();
  test_new_delete();
  test_interposition();
  return cmh_test::done("alloc:api");
}
