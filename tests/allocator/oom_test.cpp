// SPDX-License-Identifier: MIT
// Out of memory under a small -Xmx, each case in a fresh process: malloc (large and small
// blocks), calloc and realloc return NULL with ENOMEM, operator new throws std::bad_alloc,
// nothrow new returns NULL, a new_handler runs, the allocator prints exactly one line saying
// the heap limit was reached, and the heap is usable again once memory is freed.
#include <cmh/alloc.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>

#include <new>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using cmh_test::escape;

int fill_with(size_t size) {
  std::vector<void*> blocks;
  blocks.reserve(400000);
  errno = 0;
  for (;;) {
    void* p = malloc(size);
    if (!p) break;
    blocks.push_back(p);
  }
  CHECK_EQ(errno, ENOMEM);
  const uint64_t limit = 32u << 20;
  // Most of -Xmx was usable (pages are charged whole), never more than -Xmx.
  CHECK(blocks.size() * size > limit / 2);
  CHECK(blocks.size() * size <= limit);
  cmh_alloc_stats_t stats;
  cmh_alloc_stats_get(cmh_alloc_stats_init(&stats));
  CHECK_EQ(stats.heap_limit_bytes, limit);
  CHECK(stats.oom_count >= 1);
  CHECK(stats.in_use_bytes <= limit);
  for (void* p : blocks) free(p);
  // After the frees the heap serves again.
  void* again = escape(malloc(size));
  CHECK(again != nullptr);
  free(again);
  return cmh_test::done("oom child");
}

int other_functions() {
  errno = 0;
  CHECK(escape(malloc(64u << 20)) == nullptr);  // bigger than -Xmx at once
  CHECK_EQ(errno, ENOMEM);
  errno = 0;
  CHECK(escape(calloc(1, 40u << 20)) == nullptr);
  CHECK_EQ(errno, ENOMEM);
  void* p = malloc(1000);
  errno = 0;
  CHECK(realloc(cmh_test::hide(p), 48u << 20) == nullptr);
  CHECK_EQ(errno, ENOMEM);
  free(p);
  void* q = nullptr;
  CHECK_EQ(posix_memalign(&q, 4096, 40u << 20), ENOMEM);
  return cmh_test::done("oom child");
}

std::vector<char*>* g_blocks = nullptr;
int g_handler_calls = 0;

// A new_handler that frees the blocks once, so that the retried allocation succeeds.
void release_blocks() {
  ++g_handler_calls;
  for (char* p : *g_blocks) delete[] p;
  g_blocks->clear();
  std::set_new_handler(nullptr);
}

int new_throws() {
  std::vector<char*> blocks;
  blocks.reserve(1000);
  g_blocks = &blocks;
  bool threw = false;
  try {
    for (;;) blocks.push_back(new char[1 << 20]);
  } catch (const std::bad_alloc&) {
    threw = true;
  }
  CHECK(threw);
  CHECK(::operator new(1 << 20, std::nothrow) == nullptr);
  CHECK(::operator new(1 << 20, std::align_val_t(4096), std::nothrow) == nullptr);
  // The new_handler runs, frees memory, and the same new then succeeds.
  std::set_new_handler(release_blocks);
  char* after = new char[1 << 20];
  CHECK(after != nullptr);
  CHECK_EQ(g_handler_calls, 1);
  delete[] after;
  return cmh_test::done("oom child");
}

// Through LD_PRELOAD of libcmhalloc.so, which has no C++ runtime of its own: the same
// failed new throws the program's std::bad_alloc and runs its new_handler.
int new_throws_preloaded() {
  CHECK(dlsym(RTLD_DEFAULT, "cmh_alloc_version") != nullptr);  // the preloaded allocator is in use
  return new_throws();
}

void expect_one_line(const char* what) {
  auto child = cmh_test::run_child({cmh_test::self_path(), what}, {"CMH_ALLOC=-Xmx32m"});
  if (child.code() != 0) std::fprintf(stderr, "%s: %s%s\n", what, child.out.c_str(), child.err.c_str());
  CHECK_EQ(child.code(), 0);
  CHECK_EQ(cmh_test::count_lines(child.err, "\n"), 1);
  CHECK_EQ(child.err.rfind("cmh-alloc: heap limit reached (-Xmx32m): cannot allocate ", 0), 0u);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "";
  if (which == "large") return fill_with(1 << 20);
  if (which == "small") return fill_with(100);
  if (which == "others") return other_functions();
  if (which == "new") return new_throws();
  if (which == "new-preloaded") return new_throws_preloaded();
  for (const char* what : {"large", "small", "others", "new"}) expect_one_line(what);
  return cmh_test::done("alloc:oom");
}
