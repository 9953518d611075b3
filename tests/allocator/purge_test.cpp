// SPDX-License-Identifier: MIT
// Memory handed back when its owner never comes back to a slow path (alloc:purge):
//  - producer/consumer: the producer fills 32 MiB and idles, the consumer frees it all; the
//    purge thread returns it within a few decay times. The -XX:-BackgroundPurge control
//    keeps it, so the test fails if the purge thread does nothing.
//  - -Xmx: a thread whose blocks other threads freed holds no charge once another thread
//    needs the room (reclaim before failing).
//  - fork: a child parks the heaps of the parent's other threads and returns their memory.
// No timed assertion: each wait polls the allocator's own stats, capped at 60 s.
#include <cmh/alloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>

#include "test_support.hpp"

namespace {

constexpr size_t kBlocks = 32768;
constexpr size_t kMiB = size_t{1} << 20;
void* g_blocks[kBlocks];
std::atomic<int> g_phase{0};

cmh_alloc_stats_t snapshot() {
  cmh_alloc_stats_t s;
  cmh_alloc_stats_get(cmh_alloc_stats_init(&s));
  return s;
}

// A producer thread fills g_blocks with 32 MiB of touched blocks of a few sizes, then
// sleeps (allocating nothing) until phase 2.
std::thread start_producer() {
  std::thread t([] {
    for (size_t i = 0; i < kBlocks; ++i) {
      const size_t size = (i % 4 == 0) ? 512 : (i % 4 == 1) ? 1024 : (i % 4 == 2) ? 1536 : 1024;
      g_blocks[i] = malloc(size);
      memset(g_blocks[i], 1, size);
    }
    g_phase.store(1);
    while (g_phase.load() < 2) usleep(10 * 1000);
  });
  while (g_phase.load() < 1) usleep(1000);
  return t;
}

void free_all() {
  for (void*& p : g_blocks) {
    free(p);
    p = nullptr;
  }
}

// Polls until resident_bytes <= limit (true) or 60 s pass (false). Allocates nothing.
bool wait_resident_below(uint64_t limit) {
  for (int i = 0; i < 1200; ++i) {
    if (snapshot().resident_bytes <= limit) return true;
    usleep(50 * 1000);
  }
  return false;
}

int producer_consumer_child(bool purge_on) {
  const cmh_alloc_stats_t s0 = snapshot();
  std::thread producer = start_producer();
  free_all();  // remote frees: the producer never collects them
  const cmh_alloc_stats_t s1 = snapshot();
  const uint64_t filled = s1.resident_bytes - s0.resident_bytes;
  CHECK(filled >= 28 * kMiB);
  if (purge_on) {
    CHECK(wait_resident_below(s0.resident_bytes + filled / 4));
    // The purge thread records its episode after it has returned the memory: on a starved
    // machine (a TCG guest under load) the resident figure can drop well before the counts
    // move. Wait for them too, as long.
    for (int i = 0; i < 1200; ++i) {
      const cmh_alloc_stats_t s = snapshot();
      if (s.purge_count > s1.purge_count && s.gc_count > s1.gc_count) break;
      usleep(50 * 1000);
    }
    const cmh_alloc_stats_t s2 = snapshot();
    CHECK(s2.purge_count > s1.purge_count);
    CHECK(s2.gc_count > s1.gc_count);
    CHECK(s2.in_use_bytes <= s0.in_use_bytes + 4 * kMiB);
  } else {
    // Ten decay times: nothing returns the producer's memory without the purge thread.
    usleep(2000 * 1000);
    CHECK(snapshot().resident_bytes >= s0.resident_bytes + filled * 3 / 4);
  }
  g_phase.store(2);
  producer.join();
  return cmh_test::done(purge_on ? "purge child" : "no-purge child");
}

int xmx_child() {
  // CMH_ALLOC=-Xmx64m -XX:-BackgroundPurge: only the reclaim at the limit can help.
  std::thread producer = start_producer();  // 32 MiB (about 34 MiB charged) held by an idle thread
  free_all();
  size_t got = 0;
  std::thread b([&got] {
    static void* mine[65536];
    size_t n = 0;
    while (n < 65536) {
      void* p = malloc(1024);
      if (!p) break;
      mine[n++] = p;
    }
    got = n * 1024;
    for (size_t i = 0; i < n; ++i) free(mine[i]);
  });
  b.join();
  std::printf("second thread got %zu bytes of 64 MiB\n", got);
  CHECK(got >= 64 * kMiB * 9 / 10);
  g_phase.store(2);
  producer.join();
  return cmh_test::done("xmx child");
}

int fork_child_test() {
  std::thread producer = start_producer();
  const pid_t pid = fork();
  if (pid == 0) {
    // The producer does not exist here; its heap is parked. Free its blocks (remote frees
    // into a parked heap), then one slow-path allocation starts the child's purge thread.
    const cmh_alloc_stats_t s0 = snapshot();
    free_all();
    free(cmh_test::escape(malloc(300000)));
    const bool ok = wait_resident_below(s0.resident_bytes - 24 * kMiB);
    const cmh_alloc_stats_t s1 = snapshot();
    std::printf("fork child: resident %llu -> %llu\n", static_cast<unsigned long long>(s0.resident_bytes),
                static_cast<unsigned long long>(s1.resident_bytes));
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  g_phase.store(2);
  producer.join();
  free_all();
  return cmh_test::done("fork child");
}

void run(const char* mode, const char* env) {
  auto child = cmh_test::run_child({cmh_test::self_path(), mode}, {env});
  std::fprintf(stderr, "[%s] %s%s", mode, child.out.c_str(), child.err.c_str());
  CHECK_EQ(child.code(), 0);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "purge") return producer_consumer_child(true);
  if (mode == "no-purge") return producer_consumer_child(false);
  if (mode == "xmx") return xmx_child();
  if (mode == "fork") return fork_child_test();
  run("purge", "CMH_ALLOC=-XX:DecayTime=200");
  run("no-purge", "CMH_ALLOC=-XX:DecayTime=200 -XX:-BackgroundPurge");
  run("xmx", "CMH_ALLOC=-Xmx64m -XX:-BackgroundPurge");
  run("fork", "CMH_ALLOC=-XX:DecayTime=200");
  return cmh_test::done("alloc:purge");
}
