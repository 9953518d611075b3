// SPDX-License-Identifier: MIT
// The forwarding layer (-XX:Allocator in CMH_ALLOC): exact counts of every entry point on
// each available allocator. The parent runs this executable again per allocator (cmh,
// glibc, and jemalloc, tcmalloc, mimalloc where installed, preloaded); each child checks
// the deltas of malloc, calloc, realloc, the aligned family, operator new, 500 exited
// threads and a fork() child, and that malloc resolved to the chosen library.
#include <cmh/alloc.h>
#include <malloc.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "test_support.hpp"

using cmh_test::escape;
using cmh_test::hide;

namespace {

struct Delta {
  uint64_t bytes, count;
};

template <typename F>
Delta measure(F&& f) {
  const uint64_t b0 = cmh_alloc_total_allocated_bytes(), c0 = cmh_alloc_total_allocations();
  f();
  return Delta{cmh_alloc_total_allocated_bytes() - b0, cmh_alloc_total_allocations() - c0};
}

#define CHECK_DELTA(d, b, c) \
  do {                       \
    const Delta d_ = (d);    \
    CHECK_EQ(d_.bytes, (b)); \
    CHECK_EQ(d_.count, (c)); \
  } while (0)

void* thread_alloc(void*) {
  free(escape(malloc(1000)));
  return nullptr;
}
void* thread_nothing(void*) { return nullptr; }

void run_threads(void* (*body)(void*), int n) {
  for (int i = 0; i < n; ++i) {
    pthread_t t;
    if (pthread_create(&t, nullptr, body, nullptr) != 0) std::abort();
    pthread_join(t, nullptr);
  }
}

struct alignas(64) Wide {
  char c[100];
};

int child(const char* expected) {
  const char* problem = nullptr;
  const char* backend = cmh_alloc_backend(&problem);
  CHECK(std::strcmp(backend, expected) == 0);
  CHECK(problem == nullptr);
  if (problem) std::fprintf(stderr, "%s\n", problem);
  std::printf("%s: %s\n", expected, cmh_alloc_options_string());
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));

  void* p = nullptr;
  CHECK_DELTA(measure([&] { p = escape(malloc(100)); }), 100u, 1u);
  CHECK_DELTA(measure([&] { free(p); }), 0u, 0u);
  CHECK_DELTA(measure([&] { p = escape(malloc(0)); }), 0u, 1u);
  free(p);
  CHECK_DELTA(measure([&] { p = escape(calloc(10, 30)); }), 300u, 1u);
  bool zero = true;
  for (int i = 0; i < 300; ++i) zero = zero && static_cast<char*>(p)[i] == 0;
  CHECK(zero);
  free(p);
  CHECK_DELTA(measure([&] { p = escape(realloc(nullptr, 50)); }), 50u, 1u);
  void* q = nullptr;
  CHECK_DELTA(measure([&] { q = realloc(hide(p), 0); }), 0u, 0u);
  CHECK(q == nullptr);
  // Growth: counted as the new size when moved, the growth beyond usable when in place.
  for (size_t to : {size_t{200}, size_t{5000}, size_t{300000}}) {
    p = escape(malloc(100));
    const size_t usable = malloc_usable_size(p);
    const Delta d = measure([&] { q = escape(realloc(hide(p), to)); });
    if (q != p)
      CHECK_DELTA(d, to, 1u);
    else
      CHECK_DELTA(d, to > usable ? to - usable : 0, to > usable ? 1u : 0u);
    free(q);
  }
  // Shrinking that fits: nothing, or the new size when the allocator moved it.
  p = escape(malloc(1000));
  const Delta fit = measure([&] { q = escape(realloc(hide(p), 900)); });
  if (q == p)
    CHECK_DELTA(fit, 0u, 0u);
  else
    CHECK_DELTA(fit, 900u, 1u);
  free(q);

  CHECK_DELTA(measure([&] { CHECK(posix_memalign(&p, 64, 100) == 0); }), 100u, 1u);
  CHECK(reinterpret_cast<uintptr_t>(p) % 64 == 0);
  free(p);
  CHECK_DELTA(measure([&] { p = escape(aligned_alloc(64, 128)); }), 128u, 1u);
  free(p);
  CHECK_DELTA(measure([&] { p = escape(memalign(32, 100)); }), 100u, 1u);
  CHECK(reinterpret_cast<uintptr_t>(p) % 32 == 0);
  free(p);
  CHECK_DELTA(measure([&] { p = escape(valloc(100)); }), 100u, 1u);
  CHECK(reinterpret_cast<uintptr_t>(p) % page == 0);
  free(p);
  CHECK_DELTA(measure([&] { p = escape(pvalloc(100)); }), page, 1u);
  free(p);

  int* ints = nullptr;
  CHECK_DELTA(measure([&] { ints = escape(new int[250]); }), 1000u, 1u);
  delete[] ints;
  CHECK_DELTA(measure([&] { ints = escape(new int); }), sizeof(int), 1u);
  delete ints;
  char* chars = nullptr;
  CHECK_DELTA(measure([&] { chars = escape(new (std::nothrow) char[10]); }), 10u, 1u);
  delete[] chars;
  Wide* wide = nullptr;
  CHECK_DELTA(measure([&] { wide = escape(new Wide); }), sizeof(Wide), 1u);
  CHECK(reinterpret_cast<uintptr_t>(wide) % 64 == 0);
  delete wide;

  // 500 exited threads x 1000 B, exactly: against a round of threads that allocate nothing.
  run_threads(thread_nothing, 50);  // warm-up: stacks and TLS of thread creation
  const uint64_t live0 = cmh_alloc_live_threads_allocated_bytes();
  const Delta empty = measure([] { run_threads(thread_nothing, 500); });
  const Delta body = measure([] { run_threads(thread_alloc, 500); });
  CHECK_EQ(body.bytes - empty.bytes, 500u * 1000u);
  CHECK_EQ(body.count - empty.count, 500u);
  // The live view leaves out the exited threads.
  CHECK(cmh_alloc_live_threads_allocated_bytes() - live0 < 500u * 1000u);

  // A fork() child counts its own allocations.
  const pid_t pid = fork();
  if (pid == 0) {
    const Delta d = measure([&] { free(escape(malloc(777))); });
    _exit(d.bytes == 777 && d.count == 1 ? 0 : 3);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  return cmh_test::done(expected);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "child") == 0) return child(argv[2]);
  struct Choice {
    const char* name;
    const char* library;
  } choices[] = {{"cmh", nullptr},
                 {"glibc", nullptr},
                 {"jemalloc", "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"},
                 {"tcmalloc", "/usr/lib/x86_64-linux-gnu/libtcmalloc.so.4"},
                 {"mimalloc", "/usr/lib/x86_64-linux-gnu/libmimalloc.so.2"}};
  const std::string self = cmh_test::self_path();
  for (const Choice& c : choices) {
    if (c.library && access(c.library, R_OK) != 0) {
      std::printf("SKIP %s: %s is not installed\n", c.name, c.library);
      continue;
    }
    std::vector<std::string> env = {std::string("CMH_ALLOC=-XX:Allocator=") + c.name};
    if (c.library) env.push_back(std::string("LD_PRELOAD=") + c.library);
    const cmh_test::ChildResult r = cmh_test::run_child({self, "child", c.name}, env);
    std::fputs(r.out.c_str(), stdout);
    std::fputs(r.err.c_str(), stderr);
    if (!r.exited() || r.code() != 0) {
      std::fprintf(stderr, "%s: the child failed (status %d)\n", c.name, r.status);
      ++cmh_test::failures();
    }
  }
  return cmh_test::done("forward");
}
