// SPDX-License-Identifier: MIT
// xmalloc: threads that only allocate and threads that only free.
//
// Origin: xmalloc-test, from C. Lever and D. Boreham, "malloc() Performance in a
// Multithreaded Linux Environment" (USENIX 2000, FREENIX track), run by mimalloc-bench as
// `xmalloc-test -w N -t 5 -s 64`: allocating threads hand batches of fixed-size blocks to
// freeing threads through a shared list, so every free is a remote free and an allocator
// that returns blocks to the freeing thread's cache starves the allocating threads.
// Written here from that description: --threads producers and as many consumers, a
// mutex-protected queue of batches (at most --queue of them waiting), fixed work
// (--blocks in total) rather than a fixed time.
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "stress.h"

typedef struct batch {
  struct batch* next;
  long count;
  void* blocks[];
} batch;

static long g_threads = 0, g_blocks = 12000000, g_batch = 64, g_size = 64, g_queue = 64;
static long g_total_batches, g_per_producer;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_not_empty = PTHREAD_COND_INITIALIZER, g_not_full = PTHREAD_COND_INITIALIZER;
static batch* g_head;
static batch* g_tail;
static long g_waiting, g_taken;

static void* producer(void* arg) {
  (void)arg;
  const size_t size = (size_t)g_size;
  for (long b = 0; b < g_per_producer; ++b) {
    batch* out = (batch*)stress_malloc(sizeof(batch) + sizeof(void*) * (size_t)g_batch);
    out->next = NULL;
    out->count = g_batch;
    for (long i = 0; i < g_batch; ++i) {
      void* p = stress_malloc(size);
      stress_fill(p, size);
      out->blocks[i] = p;
    }
    pthread_mutex_lock(&g_lock);
    while (g_waiting >= g_queue) pthread_cond_wait(&g_not_full, &g_lock);
    if (g_tail) g_tail->next = out;
    else g_head = out;
    g_tail = out;
    ++g_waiting;
    pthread_cond_signal(&g_not_empty);
    pthread_mutex_unlock(&g_lock);
  }
  return NULL;
}

static void* consumer(void* arg) {
  (void)arg;
  for (;;) {
    pthread_mutex_lock(&g_lock);
    while (!g_head && g_taken < g_total_batches) pthread_cond_wait(&g_not_empty, &g_lock);
    if (!g_head) {
      pthread_mutex_unlock(&g_lock);
      break;
    }
    batch* in = g_head;
    g_head = in->next;
    if (!g_head) g_tail = NULL;
    --g_waiting;
    if (++g_taken == g_total_batches) pthread_cond_broadcast(&g_not_empty);  // wake the idle ones: done
    pthread_cond_signal(&g_not_full);
    pthread_mutex_unlock(&g_lock);
    for (long i = 0; i < in->count; ++i) stress_check_free(in->blocks[i], (size_t)g_size);
    free(in);
  }
  stress_thread_done();
  return NULL;
}

int main(int argc, char** argv) {
  stress_option options[] = {
      {"threads", STRESS_LONG, &g_threads, 0, 512, "producers, and as many consumers (0: online CPUs, at least 1)"},
      {"blocks", STRESS_LONG, &g_blocks, 1, 1e12, "blocks handed over in total (times --scale)"},
      {"batch", STRESS_LONG, &g_batch, 1, 1 << 20, "blocks per batch"},
      {"size", STRESS_LONG, &g_size, 8, 1 << 24, "block size in bytes"},
      {"queue", STRESS_LONG, &g_queue, 1, 1 << 20, "batches waiting at most (producers block beyond)"},
  };
  stress_parse(argc, argv, "xmalloc", "Producer threads allocate, consumer threads free, batches in between.", options,
               sizeof options / sizeof options[0]);
  if (g_threads == 0) g_threads = sysconf(_SC_NPROCESSORS_ONLN) < 1 ? 1 : sysconf(_SC_NPROCESSORS_ONLN);
  g_blocks = stress_scaled(g_blocks);
  g_per_producer = (g_blocks + g_batch * g_threads - 1) / (g_batch * g_threads);
  g_total_batches = g_per_producer * g_threads;

  unsigned long* threads = (unsigned long*)stress_malloc(sizeof(unsigned long) * 2 * (size_t)g_threads);
  const double start = stress_now_s();
  for (long t = 0; t < g_threads; ++t) {
    threads[2 * t] = stress_spawn(producer, NULL);
    threads[2 * t + 1] = stress_spawn(consumer, NULL);
  }
  for (long t = 0; t < 2 * g_threads; ++t) stress_join(threads[t]);
  const double wall = stress_now_s() - start;
  free(threads);
  stress_metric("threads", (double)(2 * g_threads), "threads");
  return stress_finish(wall, (double)(g_total_batches * g_batch));
}
