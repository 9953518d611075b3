// SPDX-License-Identifier: MIT
// random-small: random small sizes at random places, every byte written and read.
//
// Origin: OLogN's allocator tester, run by mimalloc-bench as `alloc-test`: a large table
// of slots, most of the activity on a small part of it; each step picks a slot and frees
// its block (after reading all of it) or puts a new block of random size there (and writes
// all of it). Sizes up to 1 KiB, small ones far more frequent: each range (2^k, 2^(k+1)]
// is half as likely as the one below it, from 5-8 bytes (half of all blocks) up to
// 513-1024. Written here from that description: 80 % of the steps go to a fifth of the
// slots, the rest anywhere; fixed work; --threads runs independent copies.
#include <stdint.h>
#include <stdlib.h>

#include "stress.h"

static long g_threads = 1, g_slots = 1 << 18, g_steps = 20000000;

typedef struct {
  void* p;
  uint32_t size;
} slot;

static size_t random_size(stress_rng* rng) {
  const uint64_t r = stress_next(rng);
  // k = 2 with probability 1/2, 3 with 1/4, ... 8 with 1/128; 9 takes the last 1/128.
  unsigned k = 2 + (unsigned)__builtin_ctzll((r & 127) | 128);
  if (k > 9) k = 9;
  const size_t low = (size_t)1 << k;
  return low + 1 + (size_t)((r >> 8) % low);
}

static void* worker(void* arg) {
  const long slots = g_slots / g_threads;
  slot* table = (slot*)calloc((size_t)slots, sizeof(slot));
  if (!table) stress_fail("cannot allocate the slot table");
  stress_rng rng = {(uint64_t)(uintptr_t)arg * 0x9E3779B97F4A7C15ull + 41};
  const long hot = slots / 5 > 0 ? slots / 5 : 1;
  const long steps = stress_scaled(g_steps) / g_threads;
  for (long i = 0; i < steps; ++i) {
    const uint64_t r = stress_next(&rng);
    const long at = (r % 5 != 0 ? (long)((r >> 8) % (uint64_t)hot) : (long)((r >> 8) % (uint64_t)slots));
    slot* s = &table[at];
    if (s->p) {
      stress_check_free(s->p, s->size);
      s->p = NULL;
    } else {
      s->size = (uint32_t)random_size(&rng);
      s->p = stress_malloc(s->size);
      stress_fill(s->p, s->size);
    }
  }
  for (long at = 0; at < slots; ++at)
    if (table[at].p) stress_check_free(table[at].p, table[at].size);
  free(table);
  stress_thread_done();
  return NULL;
}

int main(int argc, char** argv) {
  stress_option options[] = {
      {"threads", STRESS_LONG, &g_threads, 1, 512, "independent threads, each with its share of slots and steps"},
      {"slots", STRESS_LONG, &g_slots, 1, 1 << 26, "slots in all"},
      {"steps", STRESS_LONG, &g_steps, 1, 1e12, "steps in all (times --scale)"},
  };
  stress_full_by_default();
  stress_parse(argc, argv, "random-small",
               "Random sizes up to 1 KiB (small ones most often) at random slots, every byte written and checked.",
               options, sizeof options / sizeof options[0]);
  if (g_slots < g_threads) stress_fail("--slots (%ld) must be at least --threads (%ld)", g_slots, g_threads);
  unsigned long* threads = (unsigned long*)stress_malloc(sizeof(unsigned long) * (size_t)g_threads);
  const double start = stress_now_s();
  for (long t = 0; t < g_threads; ++t) threads[t] = stress_spawn(worker, (void*)(uintptr_t)(t + 1));
  for (long t = 0; t < g_threads; ++t) stress_join(threads[t]);
  const double wall = stress_now_s() - start;
  free(threads);
  stress_metric("threads", (double)g_threads, "threads");
  return stress_finish(wall, (double)(stress_scaled(g_steps) / g_threads * g_threads));
}
