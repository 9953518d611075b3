// SPDX-License-Identifier: MIT
// producer-consumer: one thread allocates, another frees what it allocated.
//
// Origin: the two-thread pipeline of issue 15 (a producer hands each block to a consumer,
// which frees it: every free is a remote free into the producer's heap), the shape of a
// server's request queue; mimalloc-bench's xmalloc-test (see xmalloc.c) is its many-thread
// form. Written here from that description.
//
// The producer fills a ring of --inflight blocks before the consumer starts (so every
// allocator reaches the same peak of live memory), then both run freely: the producer
// waits only when the ring is full. Reported: transfers per second and per CPU second; the RSS
// before, right after everything was freed and the consumer thread joined, and after
// --idle-ms of idling followed by --after-mallocs small malloc/free pairs on the main
// thread (an allocator that returns memory on a timer or on its next slow path has had
// both chances by then).
#define _GNU_SOURCE
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "stress.h"

typedef struct {
  void* p;
  size_t size;
} slot;

static long g_transfers = 2000000, g_inflight = 65536, g_min = 16, g_max = 1024, g_idle_ms = 2000,
            g_after_mallocs = 1000;
static slot* g_ring;
static _Alignas(64) atomic_long g_produced;  // written by the producer only
static _Alignas(64) atomic_long g_consumed;  // written by the consumer only
static _Alignas(64) atomic_int g_go;

static void wait_a_little(int* spins) {
  if (++*spins > 64) {
    sched_yield();  // the machine may have fewer CPUs than threads
    *spins = 0;
  }
}

static void* consumer(void* arg) {
  (void)arg;
  while (!atomic_load_explicit(&g_go, memory_order_acquire)) sched_yield();
  long next = 0, available = 0;
  int spins = 0;
  while (next < g_transfers) {
    if (next == available) {
      available = atomic_load_explicit(&g_produced, memory_order_acquire);
      if (next == available) {
        wait_a_little(&spins);
        continue;
      }
    }
    slot* s = &g_ring[next % g_inflight];
    stress_check_free(s->p, s->size);
    ++next;
    // Publish in small steps: one shared store per block would measure the cache line.
    if ((next & 15) == 0 || next == available) atomic_store_explicit(&g_consumed, next, memory_order_release);
  }
  atomic_store_explicit(&g_consumed, next, memory_order_release);
  stress_thread_done();
  return NULL;
}

int main(int argc, char** argv) {
  stress_option options[] = {
      {"transfers", STRESS_LONG, &g_transfers, 1, 1e12, "blocks handed from producer to consumer (times --scale)"},
      {"inflight", STRESS_LONG, &g_inflight, 1, 1 << 26, "ring capacity: blocks allocated and not yet freed, at most"},
      {"min", STRESS_LONG, &g_min, 1, 1 << 30, "smallest block size in bytes"},
      {"max", STRESS_LONG, &g_max, 1, 1 << 30, "largest block size in bytes"},
      {"idle-ms", STRESS_LONG, &g_idle_ms, 0, 600000, "idle time after everything was freed, before the last RSS"},
      {"after-mallocs", STRESS_LONG, &g_after_mallocs, 0, 1e9, "main-thread malloc/free pairs after the idle time"},
  };
  stress_parse(argc, argv, "producer-consumer", "One thread allocates, another frees; transfers/s and RSS returned.",
               options, sizeof options / sizeof options[0]);
  if (g_min > g_max) stress_fail("--min (%ld) is above --max (%ld)", g_min, g_max);
  g_transfers = stress_scaled(g_transfers);
  if (g_inflight > g_transfers) g_inflight = g_transfers;
  g_ring = (slot*)stress_malloc((size_t)g_inflight * sizeof(slot));
  const long rss_before = stress_rss_kib();

  unsigned long thread = stress_spawn(consumer, NULL);
  stress_rng rng = {42};
  int spins = 0;
  long consumed = 0;
  const double start = stress_now_s(), cpu_start = stress_cpu_s();
  for (long i = 0; i < g_transfers; ++i) {
    if (i == g_inflight) atomic_store_explicit(&g_go, 1, memory_order_release);
    while (i - consumed >= g_inflight) {
      atomic_store_explicit(&g_produced, i, memory_order_release);  // all of it, before waiting
      consumed = atomic_load_explicit(&g_consumed, memory_order_acquire);
      if (i - consumed >= g_inflight) wait_a_little(&spins);
    }
    const size_t size = stress_between(&rng, (size_t)g_min, (size_t)g_max);
    void* p = stress_malloc(size);
    stress_fill(p, size);
    slot* s = &g_ring[i % g_inflight];
    s->p = p;
    s->size = size;
    if ((i & 15) == 15 || i + 1 == g_transfers) atomic_store_explicit(&g_produced, i + 1, memory_order_release);
  }
  atomic_store_explicit(&g_go, 1, memory_order_release);
  stress_join(thread);
  const double wall = stress_now_s() - start, cpu = stress_cpu_s() - cpu_start;

  const long rss_freed = stress_rss_kib();
  stress_sleep_ms(g_idle_ms);
  for (long i = 0; i < g_after_mallocs; ++i) {
    const size_t size = stress_between(&rng, (size_t)g_min, (size_t)g_max);
    void* p = stress_malloc(size);
    stress_fill(p, size);
    stress_check_free(p, size);
  }
  const long rss_idle = stress_rss_kib();
  free(g_ring);

  stress_metric("transfers_per_s", (double)g_transfers / wall, "1/s");
  // Per CPU second of both threads (waits included): on a loaded machine, where the two
  // threads rarely run at once, the steadier figure.
  stress_metric("transfers_per_cpu_s", (double)g_transfers / cpu, "1/s");
  stress_metric("rss_before", (double)rss_before, "KiB");
  stress_metric("rss_after_free", (double)rss_freed, "KiB");
  stress_metric("rss_after_idle", (double)rss_idle, "KiB");
  return stress_finish(wall, (double)g_transfers);
}
