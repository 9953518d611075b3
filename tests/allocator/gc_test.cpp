// SPDX-License-Identifier: MIT
// Collections (gc.count / gc.time): each kind of episode is counted when its work happens
// (remote drains are in counters_test; a drain alone is no gc episode): retiring empty pages, adopting an exited thread's
// heap, cmh_alloc_collect(), and returning memory to the OS, both at once (collect) and
// after the decay time; and nothing is counted when the work is plain allocation.
#include <cmh/alloc.h>
#include <cmh/alloc_testing.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace {

using cmh_test::escape;

cmh_alloc_stats_t snapshot() {
  cmh_alloc_stats_t s;
  cmh_alloc_stats_get(cmh_alloc_stats_init(&s));
  return s;
}

// Run in a child with -XX:DecayTime=600000: the periodic maintenance (every half decay time,
// at least 10 ms, checked every 256th allocation) is a timed collection of its own, and
// under an emulated CPU's slow clock (qemu TCG) the loop below outlasts 10 ms.
void test_allocation_is_not_collection() {
  free(escape(malloc(64)));
  const uint64_t before = cmh_alloc_gc_count();
  // Refilling a page from its own free list is allocation, not collection.
  for (int i = 0; i < 100000; ++i) free(escape(malloc(64)));
  CHECK_EQ(cmh_alloc_gc_count(), before);
}

void test_retire_and_explicit() {
  const cmh_alloc_stats_t s0 = snapshot();
  std::vector<void*> blocks;
  for (int i = 0; i < 20000; ++i) blocks.push_back(malloc(256));  // ~80 pages of one class
  for (void* p : blocks) free(p);
  for (int i = 0; i < 200; ++i) free(escape(malloc(static_cast<size_t>(100000 + i * 1000))));  // slow-path calls
  const cmh_alloc_stats_t s1 = snapshot();
  CHECK(s1.pages_retired > s0.pages_retired);
  CHECK(s1.retire_count > s0.retire_count);
  CHECK(s1.gc_count > s0.gc_count);
  CHECK(s1.gc_time_ns > s0.gc_time_ns);
  cmh_alloc_collect();
  const cmh_alloc_stats_t s2 = snapshot();
  CHECK_EQ(s2.explicit_collect_count, s1.explicit_collect_count + 1);
  CHECK(s2.gc_count >= s1.gc_count + 1);
  CHECK_EQ(cmh_alloc_gc_count(), s2.gc_count);
  CHECK_EQ(cmh_alloc_gc_time_ns(), s2.gc_time_ns);
}

void test_adoption() {
  const cmh_alloc_stats_t s0 = snapshot();
  void* left = nullptr;
  // A parked heap is adopted by a thread on its node: both threads say they run on CPU 0
  // (before their first allocation), so they share a node whatever the machine's NUMA.
  // The first thread exits with a live block: its heap is parked with pages ...
  std::thread([&left] {
    cmh_alloc_test_set_cpu(0);
    left = malloc(1000);
  }).join();
  // ... and the next thread adopts it.
  std::thread([] {
    cmh_alloc_test_set_cpu(0);
    free(escape(malloc(10)));
  }).join();
  const cmh_alloc_stats_t s1 = snapshot();
  CHECK(s1.adopt_count > s0.adopt_count);
  free(left);
}

// Allocates `count` 1 MiB blocks, writes them (resident), frees them.
void free_touched_megabytes(int count) {
  std::vector<void*> blocks;
  for (int i = 0; i < count; ++i) {
    blocks.push_back(malloc(1 << 20));
    memset(blocks.back(), 1, 1 << 20);
  }
  for (void* p : blocks) free(p);
}

void test_purge_on_collect() {
  cmh_alloc_collect();
  const cmh_alloc_stats_t s0 = snapshot();
  free_touched_megabytes(48);
  const cmh_alloc_stats_t s1 = snapshot();
  // Freed memory stays resident until the decay time passes (no background thread) ...
  CHECK(s1.resident_bytes >= s0.resident_bytes + (40u << 20));
  cmh_alloc_collect();
  const cmh_alloc_stats_t s2 = snapshot();
  // ... or until a collection returns it.
  CHECK(s2.resident_bytes + (40u << 20) <= s1.resident_bytes);
  CHECK(s2.bytes_purged >= s1.bytes_purged + (40u << 20));
  CHECK(s2.purge_count > s1.purge_count);
}

// gc.count counts episodes that hand memory back (retire, purge) or were asked for; a drain
// of other threads' frees alone is counted by kind only. A producer whose pages the
// consumer refills drains many times and retires little.
void test_drain_alone_is_no_episode() {
  constexpr int kRing = 512, kBlocks = 200000;
  static void* ring[kRing];
  std::atomic<int> produced{0}, consumed{0};
  const cmh_alloc_stats_t s0 = snapshot();
  std::thread consumer([&] {
    for (int i = 0; i < kBlocks; ++i) {
      while (produced.load(std::memory_order_acquire) <= i) std::this_thread::yield();
      free(ring[i % kRing]);
      consumed.store(i + 1, std::memory_order_release);
    }
  });
  for (int i = 0; i < kBlocks; ++i) {
    while (i - consumed.load(std::memory_order_acquire) >= kRing) std::this_thread::yield();
    ring[i % kRing] = malloc(64);
    produced.store(i + 1, std::memory_order_release);
  }
  consumer.join();
  const cmh_alloc_stats_t s1 = snapshot();
  CHECK(s1.remote_drain_count > s0.remote_drain_count);
  CHECK(s1.gc_count - s0.gc_count <= (s1.retire_count - s0.retire_count) + (s1.purge_count - s0.purge_count) +
                                         (s1.explicit_collect_count - s0.explicit_collect_count));
}

int single_thread_child() {
  // No other thread, hence no purge thread: a cmh_alloc_collect() is exactly one episode.
  cmh_alloc_collect();
  const cmh_alloc_stats_t s1 = snapshot();
  cmh_alloc_collect();
  const cmh_alloc_stats_t s2 = snapshot();
  CHECK_EQ(s2.gc_count, s1.gc_count + 1);
  CHECK_EQ(s2.explicit_collect_count, s1.explicit_collect_count + 1);
  return cmh_test::done("single-thread child");
}

int decay_child() {
  // CMH_ALLOC=-XX:DecayTime=50: memory freed goes back after 50 ms, on a later slow path.
  free_touched_megabytes(32);
  const cmh_alloc_stats_t s1 = snapshot();
  usleep(120 * 1000);
  // Slow-path calls (each a large allocation) run the periodic maintenance.
  for (int i = 0; i < 600; ++i) free(escape(malloc(static_cast<size_t>(200000 + (i % 7) * 70000))));
  const cmh_alloc_stats_t s2 = snapshot();
  CHECK(s2.bytes_purged >= s1.bytes_purged + (24u << 20));
  CHECK(s2.purge_count > s1.purge_count);
  CHECK(s2.resident_bytes + (24u << 20) <= s1.resident_bytes);
  return cmh_test::done("decay child");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "decay") return decay_child();
  if (argc > 1 && std::string(argv[1]) == "single") return single_thread_child();
  if (argc > 1 && std::string(argv[1]) == "allocation") {
    test_allocation_is_not_collection();
    return cmh_test::done("allocation child");
  }
  auto alloc_child =
      cmh_test::run_child({cmh_test::self_path(), "allocation"}, {"CMH_ALLOC=-XX:DecayTime=600000"});
  if (alloc_child.code() != 0) std::fprintf(stderr, "%s%s", alloc_child.out.c_str(), alloc_child.err.c_str());
  CHECK_EQ(alloc_child.code(), 0);
  test_retire_and_explicit();
  test_adoption();
  test_purge_on_collect();
  test_drain_alone_is_no_episode();
  {
    auto single = cmh_test::run_child({cmh_test::self_path(), "single"}, {});
    if (single.code() != 0) std::fprintf(stderr, "%s%s", single.out.c_str(), single.err.c_str());
    CHECK_EQ(single.code(), 0);
  }
  auto child = cmh_test::run_child({cmh_test::self_path(), "decay"}, {"CMH_ALLOC=-XX:DecayTime=50"});
  if (child.code() != 0) std::fprintf(stderr, "%s%s", child.out.c_str(), child.err.c_str());
  CHECK_EQ(child.code(), 0);
  return cmh_test::done("alloc:collections");
}
