// SPDX-License-Identifier: MIT
// The process and thread lifecycle around the allocator: allocation from static
// constructors (before main) and from thread_local destructors and late pthread key
// destructors (after the allocator parked the thread's heap), with exact counts; and
// fork() from a multithreaded process while other threads allocate, the child then
// allocating, freeing the parent's blocks and starting threads of its own.
#include <cmh/alloc.h>
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace {

using cmh_test::escape;

// ---- before main ----

struct Early {
  char* block = nullptr;
  std::string* text = nullptr;
  uint64_t total_seen = 0;
  Early() {
    block = static_cast<char*>(malloc(1000));
    memset(block, 'e', 1000);
    text = new std::string(200, 'e');
    total_seen = cmh_alloc_total_allocated_bytes();
  }
};
Early g_early;

void test_static_constructor() {
  CHECK(g_early.block && malloc_usable_size(g_early.block) >= 1000);
  CHECK(g_early.block[999] == 'e');
  CHECK(*g_early.text == std::string(200, 'e'));
  CHECK(g_early.total_seen >= 1000 + 200);
  free(g_early.block);
  delete g_early.text;
}

// ---- at thread exit ----

constexpr uint64_t kDestructorBytes = 5000 + 301;  // malloc(5000) and a 300-character string

struct ThreadState {
  std::vector<void*> blocks;
  ~ThreadState() {
    // Runs after the thread function returned, before the allocator's exit hook.
    for (void* p : blocks) free(p);
    free(escape(malloc(5000)));
    std::string s(300, 't');
    escape(s.data());
  }
};
thread_local ThreadState t_state;

pthread_key_t g_late_key;
std::atomic<int> g_late_runs{0};

void late_destructor(void* value) {
  // A key created after the allocator's: its destructor runs after the heap was parked, so
  // these allocations use the bootstrap heap. They must work and they must count.
  char* copy = strdup(static_cast<const char*>(value));
  if (copy && strcmp(copy, "late") == 0) g_late_runs.fetch_add(1);
  free(copy);
  free(escape(malloc(777)));
}

void test_thread_exit_allocations() {
  CHECK_EQ(pthread_key_create(&g_late_key, late_destructor), 0);
  constexpr int kThreads = 50;
  const uint64_t bytes0 = cmh_alloc_total_allocated_bytes(), main0 = cmh_alloc_thread_allocated_bytes();
  std::vector<uint64_t> body(kThreads);
  for (int i = 0; i < kThreads; ++i) {
    std::thread([i, &body] {
      const uint64_t start = cmh_alloc_thread_allocated_bytes();
      for (int k = 0; k < 10; ++k) t_state.blocks.push_back(malloc(100));
      pthread_setspecific(g_late_key, const_cast<char*>("late"));
      body[i] = cmh_alloc_thread_allocated_bytes() - start;
    }).join();
  }
  const uint64_t bytes1 = cmh_alloc_total_allocated_bytes(), main1 = cmh_alloc_thread_allocated_bytes();
  CHECK_EQ(g_late_runs.load(), kThreads);
  uint64_t expected = main1 - main0;
  for (uint64_t b : body) expected += b + kDestructorBytes + 5 /* strdup("late") */ + 777;
  // The body's vector growth is in `body`; the rest is exactly the destructors' allocations.
  CHECK_EQ(bytes1 - bytes0, expected);
}

// ---- fork from a multithreaded process ----

std::atomic<bool> g_stop{false};
constexpr size_t kSlots = 256;
std::atomic<char*> g_shared[kSlots];

bool block_ok(const char* p) {
  size_t size = 0;
  memcpy(&size, p, 8);
  if (size == 0 || size > 3000) return false;
  for (size_t i = 0; i < size; ++i)
    if (p[8 + i] != static_cast<char>(size & 0x7f)) return false;
  return true;
}

void churn(int seed) {
  uint64_t x = static_cast<uint64_t>(seed) * 2654435761u + 1;
  while (!g_stop.load(std::memory_order_relaxed)) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const size_t size = 1 + (x >> 33) % 3000;
    // [size as 8 bytes][size bytes of a tag derived from size]
    char* p = static_cast<char*>(malloc(size + 8));
    memcpy(p, &size, 8);
    memset(p + 8, static_cast<int>(size & 0x7f), size);
    char* old = g_shared[(x >> 20) % kSlots].exchange(p);
    if (old) {
      if (!block_ok(old)) std::abort();
      free(old);
    }
    if ((x & 0xff) == 0) free(escape(malloc(300000)));
  }
}

int child_work() {
  // The parent's blocks (some from heaps of threads that do not exist here) can be read
  // and freed; the allocator works from this thread and from new threads.
  int bad = 0;
  for (auto& slot : g_shared) {
    char* p = slot.exchange(nullptr);
    if (!p) continue;
    if (!block_ok(p)) ++bad;
    free(p);
  }
  std::vector<void*> mine;
  for (int i = 0; i < 20000; ++i) mine.push_back(malloc(static_cast<size_t>(i % 500) + 1));
  for (void* p : mine) free(p);
  std::thread helpers[2];
  for (auto& h : helpers)
    h = std::thread([] {
      std::vector<std::string> v(2000, std::string(64, 'c'));
      escape(v.data());
    });
  for (auto& h : helpers) h.join();
  // The counters are readable (no reader waits on a dead thread's half-done fold).
  if (cmh_alloc_total_allocated_bytes() == 0 || cmh_alloc_gc_count() == static_cast<uint64_t>(-1)) ++bad;
  cmh_alloc_collect();
  return bad == 0 ? 0 : 3;
}

void test_fork() {
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) threads.emplace_back(churn, t);
  int ok = 0;
  constexpr int kForks = 40;
  for (int i = 0; i < kForks; ++i) {
    usleep(2000);  // let the threads get into the middle of something
    pid_t pid = fork();
    if (pid == 0) _exit(child_work());
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
      ++ok;
    else
      std::fprintf(stderr, "fork %d: child status %d\n", i, status);
  }
  g_stop.store(true);
  for (auto& t : threads) t.join();
  for (auto& slot : g_shared) free(slot.exchange(nullptr));
  CHECK_EQ(ok, kForks);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "";
  if (which == "static") {
    test_static_constructor();
    test_thread_exit_allocations();
    return cmh_test::done("alloc:static-and-thread-exit");
  }
  if (which == "fork") {
    test_fork();
    return cmh_test::done("alloc:fork");
  }
  std::fprintf(stderr, "usage: %s static|fork\n", argv[0]);
  return 2;
}
