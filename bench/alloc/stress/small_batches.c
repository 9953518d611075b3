// SPDX-License-Identifier: MIT
// small-batches: one thread allocating and freeing batches of small blocks of one size.
//
// Origin: glibc's benchtests/bench-malloc-simple.c, run by mimalloc-bench as
// `glibc-simple`: for a few small sizes and batch lengths, allocate a batch of blocks,
// write them, free the whole batch, many times over; first in the main thread, then in a
// second thread, then in the main thread again once the process has had a second thread
// (glibc then takes its multi-threaded paths). Written here from that description, with
// fixed work and every block's content checked before it is freed. What it measures is
// the allocator's fast paths and its page refills, with everything in the cache.
#include <stdlib.h>

#include "stress.h"

static long g_allocs = 1000000;  // blocks per (size, batch length, phase), times --scale
static const size_t kSizes[] = {16, 32, 64};
static const long kBatches[] = {25, 100, 400, 1600};

typedef struct {
  void** blocks;
} phase_args;

static void run_batches(void** blocks, size_t size, long batch) {
  for (long round = 0; round < g_allocs / batch; ++round) {
    for (long i = 0; i < batch; ++i) {
      blocks[i] = stress_malloc(size);
      stress_fill(blocks[i], size);
    }
    for (long i = 0; i < batch; ++i) stress_check_free(blocks[i], size);
  }
}

static void* phase(void* arg) {
  phase_args* a = (phase_args*)arg;
  for (size_t s = 0; s < sizeof kSizes / sizeof kSizes[0]; ++s)
    for (size_t b = 0; b < sizeof kBatches / sizeof kBatches[0]; ++b) run_batches(a->blocks, kSizes[s], kBatches[b]);
  stress_thread_done();
  return NULL;
}

int main(int argc, char** argv) {
  stress_option options[] = {
      {"allocs", STRESS_LONG, &g_allocs, 1600, 1e10, "blocks per size, batch length and phase (times --scale)"},
  };
  stress_parse(argc, argv, "small-batches",
               "Batches of 25-1600 small blocks (16, 32, 64 B) allocated, written and freed by one thread.", options,
               sizeof options / sizeof options[0]);
  g_allocs = stress_scaled(g_allocs);
  phase_args args = {(void**)stress_malloc(sizeof(void*) * 1600)};
  const double start = stress_now_s();
  phase(&args);                             // the main thread, alone
  stress_join(stress_spawn(phase, &args));  // a second thread
  phase(&args);                             // the main thread of a process that had two
  const double wall = stress_now_s() - start;
  free(args.blocks);
  double ops = 0;
  for (size_t b = 0; b < sizeof kBatches / sizeof kBatches[0]; ++b) ops += (double)(g_allocs / kBatches[b] * kBatches[b]);
  return stress_finish(wall, ops * 3 * 3);
}
