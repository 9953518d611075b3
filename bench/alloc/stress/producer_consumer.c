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
// before, right after everything was freed and the consumer thread joined, after --idle-ms
// of idling with nothing allocated (only a timer or a background thread can have returned
// memory), and after that followed by --after-mallocs small malloc/free pairs on the main
// thread (an allocator that returns memory on a timer or on its next slow path has had
// both chances by then).
#define _GNU_SOURCE
#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "stress.h"

typedef struct {
  void* p;
  size_t size;
} slot;

static long g_transfers = 2000000, g_inflight = 65536, g_min = 16, g_max = 1024, g_idle_ms = 2000,
            g_after_mallocs = 1000;
static slot* g_ring;

// One side's progress (blocks produced, or consumed), published in steps of 16 so that
// the shared cache line is not what is measured, and how the other side sleeps on it. A
// side that cannot go on spins briefly, then sleeps on a futex until the other side's
// progress reaches its target; targets lie a quarter of the ring ahead, so on a machine
// with fewer free CPUs than threads the two take turns in long stretches instead of
// waking each other for every block. Sleeping, not yielding, keeps the CPU time the
// threads' own work (sched_yield in a loop burns CPU whenever the other thread is not
// running).
typedef struct {
  _Alignas(64) atomic_long done;
  _Alignas(64) atomic_long sleeper_target;  // LONG_MAX when nobody sleeps on this
  atomic_int wake;                          // the futex word
} progress;

static progress g_produced, g_consumed;

static void futex(atomic_int* word, int op, int value) {
  syscall(SYS_futex, (int*)word, op | FUTEX_PRIVATE_FLAG, value, NULL, NULL, 0);
}

// Returns once p->done >= target; the caller never waits for more than the other side
// will ever publish.
static long wait_for(progress* p, long target) {
  for (int spin = 0; spin < 256; ++spin) {
    const long done = atomic_load_explicit(&p->done, memory_order_acquire);
    if (done >= target) return done;
  }
  long done;
  for (;;) {
    const int seen = atomic_load(&p->wake);
    atomic_store(&p->sleeper_target, target);  // seq_cst, then re-read: see publish()
    if ((done = atomic_load(&p->done)) >= target) break;
    futex(&p->wake, FUTEX_WAIT, seen);
    if ((done = atomic_load(&p->done)) >= target) break;
  }
  atomic_store(&p->sleeper_target, LONG_MAX);
  return done;
}

// Either the sleeper's re-read sees this store, or this load sees its target (both
// seq_cst): no wake-up is lost.
static void publish(progress* p, long done) {
  atomic_store(&p->done, done);
  if (done >= atomic_load(&p->sleeper_target)) {
    atomic_fetch_add(&p->wake, 1);
    futex(&p->wake, FUTEX_WAKE, 1);
  }
}

static long quarter(void) { return g_inflight / 4 > 0 ? g_inflight / 4 : 1; }
static long ahead(long from) { return from + quarter() < g_transfers ? from + quarter() : g_transfers; }

static void* consumer(void* arg) {
  (void)arg;
  // Starts once the producer has filled the ring: every allocator reaches the same peak.
  long available = wait_for(&g_produced, g_inflight), next = 0;
  while (next < g_transfers) {
    if (next == available) {
      available = atomic_load_explicit(&g_produced.done, memory_order_acquire);
      if (next == available) {
        publish(&g_consumed, next);
        available = wait_for(&g_produced, ahead(next));
      }
    }
    slot* s = &g_ring[next % g_inflight];
    stress_check_free(s->p, s->size);
    ++next;
    if ((next & 15) == 0) publish(&g_consumed, next);
  }
  publish(&g_consumed, next);
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

  atomic_store(&g_produced.sleeper_target, LONG_MAX);
  atomic_store(&g_consumed.sleeper_target, LONG_MAX);
  unsigned long thread = stress_spawn(consumer, NULL);
  stress_rng rng = {42};
  long consumed = 0;
  const double start = stress_now_s(), cpu_start = stress_cpu_s();
  for (long i = 0; i < g_transfers; ++i) {
    if (i - consumed >= g_inflight) {
      consumed = atomic_load_explicit(&g_consumed.done, memory_order_acquire);
      if (i - consumed >= g_inflight) {
        publish(&g_produced, i);  // all of it, before waiting
        consumed = wait_for(&g_consumed, i - g_inflight + quarter());
      }
    }
    const size_t size = stress_between(&rng, (size_t)g_min, (size_t)g_max);
    void* p = stress_malloc(size);
    stress_fill(p, size);
    slot* s = &g_ring[i % g_inflight];
    s->p = p;
    s->size = size;
    if (((i + 1) & 15) == 0) publish(&g_produced, i + 1);
  }
  publish(&g_produced, g_transfers);
  stress_join(thread);
  const double wall = stress_now_s() - start, cpu = stress_cpu_s() - cpu_start;

  const long rss_freed = stress_rss_kib();
  stress_sleep_ms(g_idle_ms);
  const long rss_quiet = stress_rss_kib();  // nothing allocated since the frees
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
  stress_metric("rss_after_quiet_idle", (double)rss_quiet, "KiB");
  stress_metric("rss_after_idle", (double)rss_idle, "KiB");
  return stress_finish(wall, (double)g_transfers);
}
