// SPDX-License-Identifier: MIT
// Multithreaded stress in the style of mimalloc's test-stress (our own code): random sizes
// with a power-of-two skew and some large and huge blocks, objects handed between threads
// through a shared transfer array, threads ending and restarting every round with objects
// surviving them, every object's contents verified when it is freed. Built twice: linked
// with the debug-checked allocator, and without any allocator to run under
// LD_PRELOAD=libcmhalloc.so (--require-cmh checks that the preload took effect).
#include <dlfcn.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

namespace {

int g_threads = 6;
int g_scale = 40;
int g_rounds = 12;
std::atomic<long> g_bad{0};

constexpr size_t kTransferSlots = 1000;
std::atomic<uint64_t*> g_transfer[kTransferSlots];

// xorshift64*: deterministic per thread and round.
struct Random {
  uint64_t state;
  uint64_t next() {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545f4914f6cdd1dull;
  }
  bool chance(int percent) { return next() % 100 < static_cast<uint64_t>(percent); }
};

// An object is an array of words: [0] = word count, [1] = cookie, the rest a pattern
// derived from the cookie; the last word repeats the cookie.
uint64_t* make_object(Random& rng, size_t items) {
  const size_t words = items < 3 ? 3 : items;
  uint64_t* p = nullptr;
  const uint64_t kind = rng.next() % 8;
  if (kind == 0) {
    p = static_cast<uint64_t*>(calloc(words, 8));
  } else if (kind == 1) {
    void* q = nullptr;
    if (posix_memalign(&q, size_t{16} << (rng.next() % 8), words * 8) == 0) p = static_cast<uint64_t*>(q);
  } else if (kind == 2) {
    p = new uint64_t[words];
  } else {
    p = static_cast<uint64_t*>(malloc(words * 8));
  }
  if (!p) {
    g_bad.fetch_add(1);
    return nullptr;
  }
  const uint64_t cookie = (reinterpret_cast<uintptr_t>(p) * 0x9e3779b97f4a7c15ull) | (kind == 2 ? 1 : 0);
  p[0] = words;
  p[1] = cookie;
  for (size_t i = 2; i + 1 < words; ++i) p[i] = cookie ^ i;
  p[words - 1] = cookie;
  return p;
}

bool object_ok(const uint64_t* p) {
  const size_t words = p[0];
  if (words < 3 || words > (size_t{1} << 24)) return false;
  const uint64_t cookie = p[1];
  if (p[words - 1] != cookie) return false;
  // Check the start, the end and a stride through the middle (large objects are big).
  const size_t step = words > 4096 ? words / 512 : 1;
  for (size_t i = 2; i + 1 < words; i += step)
    if (p[i] != (cookie ^ i)) return false;
  return malloc_usable_size(const_cast<uint64_t*>(p)) >= words * 8;
}

void free_object(uint64_t* p) {
  if (!p) return;
  if (!object_ok(p)) g_bad.fetch_add(1);
  if (p[1] & 1)
    delete[] p;
  else
    free(p);
}

size_t pick_items(Random& rng) {
  // Mostly small; a power-of-two skew; now and then large (up to 256 KiB) or huge (4 MiB).
  const uint64_t r = rng.next() % 1000;
  if (r == 0) return (size_t{4} << 20) / 8 + rng.next() % 1000;
  if (r < 10) return 8192 + rng.next() % (32768 - 8192);
  const unsigned shift = static_cast<unsigned>(rng.next() % 8);
  return 1 + rng.next() % (size_t{4} << shift);
}

void stress(int tid, int round) {
  Random rng{static_cast<uint64_t>(tid + 1) * 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(round) * 7919 + 1};
  const size_t data_size = static_cast<size_t>(g_scale) * 50;
  std::vector<uint64_t*> data(data_size, nullptr);
  const int steps = g_scale * 250;
  for (int step = 0; step < steps; ++step) {
    const size_t slot = rng.next() % data_size;
    if (rng.chance(50)) {
      // Replace a slot: free what was there (verifying it), allocate anew.
      free_object(data[slot]);
      data[slot] = make_object(rng, pick_items(rng));
    } else if (rng.chance(20) && data[slot]) {
      // realloc: the prefix must survive, then the object is rebuilt at its new size.
      uint64_t* p = data[slot];
      if (!(p[1] & 1)) {
        const uint64_t old_words = p[0];
        const size_t words = pick_items(rng) + 3;
        uint64_t* q = static_cast<uint64_t*>(realloc(p, words * 8));
        if (!q) {
          g_bad.fetch_add(1);
        } else {
          const size_t keep = old_words < words ? old_words : words;
          const uint64_t old_cookie = q[1];
          for (size_t i = 2; i + 1 < keep; ++i)
            if (q[i] != (old_cookie ^ i)) {
              g_bad.fetch_add(1);
              break;
            }
          const uint64_t cookie = reinterpret_cast<uintptr_t>(q) * 0x9e3779b97f4a7c15ull & ~uint64_t{1};
          q[0] = words;
          q[1] = cookie;
          for (size_t i = 2; i + 1 < words; ++i) q[i] = cookie ^ i;
          q[words - 1] = cookie;
          data[slot] = q;
        }
      }
    } else {
      // Hand the object to whichever thread takes this transfer slot next.
      const size_t t = rng.next() % kTransferSlots;
      data[slot] = g_transfer[t].exchange(data[slot], std::memory_order_acq_rel);
    }
  }
  // Some objects survive the thread: they go to the transfer array, the rest are freed.
  for (uint64_t*& p : data) {
    if (p && rng.chance(10)) p = g_transfer[rng.next() % kTransferSlots].exchange(p, std::memory_order_acq_rel);
    free_object(p);
    p = nullptr;
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool require_cmh = false;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--require-cmh") == 0) require_cmh = true;
    else if (strncmp(argv[i], "--threads=", 10) == 0) g_threads = atoi(argv[i] + 10);
    else if (strncmp(argv[i], "--scale=", 8) == 0) g_scale = atoi(argv[i] + 8);
    else if (strncmp(argv[i], "--rounds=", 9) == 0) g_rounds = atoi(argv[i] + 9);
    else {
      fprintf(stderr, "usage: %s [--require-cmh] [--threads=N] [--scale=N] [--rounds=N]\n", argv[0]);
      return 2;
    }
  }
  if (require_cmh) {
    auto version = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "cmh_alloc_version"));
    if (!version) {
      fprintf(stderr, "alloc:stress: not running on the cmh allocator (LD_PRELOAD missing?)\n");
      return 1;
    }
    // Blocks come from cmh: malloc_usable_size knows the allocator's size classes.
    void* p = malloc(100);
    const size_t usable = malloc_usable_size(p);
    free(p);
    if (usable != 112) {
      fprintf(stderr, "alloc:stress: malloc(100) has usable size %zu, not cmh's 112\n", usable);
      return 1;
    }
  }
  for (int round = 0; round < g_rounds; ++round) {
    std::vector<std::thread> threads;
    for (int t = 0; t < g_threads; ++t) threads.emplace_back(stress, t, round);
    for (auto& t : threads) t.join();
  }
  for (auto& slot : g_transfer) free_object(slot.exchange(nullptr));
  if (g_bad.load() != 0) {
    printf("alloc:stress: %ld corrupted or failed objects\n", g_bad.load());
    return 1;
  }
  printf("alloc:stress: %d rounds of %d threads, all objects intact\n", g_rounds, g_threads);
  return 0;
}
