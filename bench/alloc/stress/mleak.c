// SPDX-License-Identifier: MIT
// mleak: a steady live set kept up by thousands of short-lived threads.
//
// Origin: mimalloc-bench's `mleak` ("check that terminated threads don't leak memory")
// and the thread-exit concern of the allocator research notes (allocators.md, 7.4):
// memory a thread held when it exited must be found again by later threads, or the
// process grows with every thread it ever ran. Written here from that description: a pool
// of --live blocks; each generation starts --threads threads, each replacing --replace
// blocks of its share of the pool (blocks earlier, now exited, threads allocated) and
// allocating and freeing --temp blocks of its own; then they exit and the next generation
// starts. The live set stays the same size throughout, so a steady allocator's RSS stops
// growing: reported are the RSS after a quarter of the generations and at the end, and
// their ratio (about 1 when nothing leaks).
#include <stdlib.h>

#include "stress.h"

typedef struct {
  void* p;
  size_t size;
} block;

static long g_threads = 2, g_live = 20000, g_replace = 1000, g_temp = 200, g_generations = 300, g_min = 16,
            g_max = 2048;
static block* g_pool;

typedef struct {
  long index;  // this thread's share: the slots equal to index modulo --threads
  uint64_t seed;
} share;

static void* worker(void* arg) {
  const share* s = (const share*)arg;
  stress_rng rng = {s->seed};
  const long slots = (g_live - s->index + g_threads - 1) / g_threads;
  for (long r = 0; r < g_replace && slots > 0; ++r) {
    block* b = &g_pool[s->index + (long)(stress_next(&rng) % (uint64_t)slots) * g_threads];
    stress_check_free(b->p, b->size);
    b->size = stress_between(&rng, (size_t)g_min, (size_t)g_max);
    b->p = stress_malloc(b->size);
    stress_fill(b->p, b->size);
  }
  block temp[64];
  for (long done = 0; done < g_temp; done += 64) {
    const long n = g_temp - done < 64 ? g_temp - done : 64;
    for (long i = 0; i < n; ++i) {
      temp[i].size = stress_between(&rng, (size_t)g_min, (size_t)g_max);
      temp[i].p = stress_malloc(temp[i].size);
      stress_fill(temp[i].p, temp[i].size);
    }
    for (long i = 0; i < n; ++i) stress_check_free(temp[i].p, temp[i].size);
  }
  stress_thread_done();
  return NULL;
}

int main(int argc, char** argv) {
  stress_option options[] = {
      {"threads", STRESS_LONG, &g_threads, 1, 256, "threads per generation, running at once"},
      {"live", STRESS_LONG, &g_live, 1, 1 << 26, "blocks in the pool (the steady live set)"},
      {"replace", STRESS_LONG, &g_replace, 0, 1e9, "pool blocks each thread frees and replaces"},
      {"temp", STRESS_LONG, &g_temp, 0, 1e9, "blocks each thread allocates and frees itself"},
      {"generations", STRESS_LONG, &g_generations, 1, 1e8, "generations of threads (times --scale)"},
      {"min", STRESS_LONG, &g_min, 1, 1 << 30, "smallest block size in bytes"},
      {"max", STRESS_LONG, &g_max, 1, 1 << 30, "largest block size in bytes"},
  };
  stress_parse(argc, argv, "mleak", "A steady live set kept up by generations of short-lived threads.", options,
               sizeof options / sizeof options[0]);
  if (g_min > g_max) stress_fail("--min (%ld) is above --max (%ld)", g_min, g_max);
  g_generations = stress_scaled(g_generations);
  g_pool = (block*)stress_malloc(sizeof(block) * (size_t)g_live);
  stress_rng rng = {99};
  for (long i = 0; i < g_live; ++i) {
    g_pool[i].size = stress_between(&rng, (size_t)g_min, (size_t)g_max);
    g_pool[i].p = stress_malloc(g_pool[i].size);
    stress_fill(g_pool[i].p, g_pool[i].size);
  }
  share* shares = (share*)stress_malloc(sizeof(share) * (size_t)g_threads);
  unsigned long* threads = (unsigned long*)stress_malloc(sizeof(unsigned long) * (size_t)g_threads);
  long rss_warm = -1;
  const double start = stress_now_s();
  for (long g = 0; g < g_generations; ++g) {
    for (long t = 0; t < g_threads; ++t) {
      shares[t].index = t;
      shares[t].seed = stress_next(&rng);
      threads[t] = stress_spawn(worker, &shares[t]);
    }
    for (long t = 0; t < g_threads; ++t) stress_join(threads[t]);
    if (g + 1 == (g_generations + 3) / 4) rss_warm = stress_rss_kib();
  }
  const double wall = stress_now_s() - start;
  const long rss_end = stress_rss_kib();
  double live_bytes = 0;
  for (long i = 0; i < g_live; ++i) {
    live_bytes += (double)g_pool[i].size;
    stress_check_free(g_pool[i].p, g_pool[i].size);
  }
  free(threads);
  free(shares);
  free(g_pool);
  stress_metric("rss_warm", (double)rss_warm, "KiB");
  stress_metric("rss_end", (double)rss_end, "KiB");
  stress_metric("rss_growth", rss_warm > 0 ? (double)rss_end / (double)rss_warm : 0, "ratio");
  stress_metric("live", live_bytes / 1024, "KiB");
  return stress_finish(wall, (double)(g_generations * g_threads));
}
