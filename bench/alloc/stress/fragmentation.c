// SPDX-License-Identifier: MIT
// fragmentation: free most blocks of one size range, then allocate another.
//
// Origin: the phase behaviour that P. Wilson, M. Johnstone, M. Neely and D. Boles
// describe in "Dynamic Storage Allocation: A Survey and Critical Review" (IWMM 1995)
// and Johnstone and Wilson measure in "The Memory Fragmentation Problem: Solved?"
// (ISMM 1998): programs build a structure of one kind of object, free most of it and go
// on with objects of another size, so the survivors pin memory that the next phase cannot
// use unless the allocator reuses holes across sizes or returns emptied pages. Written
// here from that description: four phases with size bands 16-128, 256-1024, 2048-8192 and
// 16-128 B again; each allocates --mib MiB of blocks, then frees all but one in
// --keep-every (8) of them. Reported: live bytes, RSS at the end, and their ratio (1 would
// be no fragmentation and no overhead; the workload's own pointer arrays, the same under
// every allocator, add about 0.1), besides the peak RSS the driver reads.
#include <stdlib.h>

#include "stress.h"

static long g_mib = 32, g_keep_every = 8;

typedef struct {
  size_t min, max;
} band;

static const band kBands[] = {{16, 128}, {256, 1024}, {2048, 8192}, {16, 128}};
enum { kPhases = sizeof kBands / sizeof kBands[0] };

typedef struct {
  void** blocks;
  long count;
  uint64_t seed;  // sizes are replayed from it rather than stored
} phase;

static size_t size_at(stress_rng* rng, const band* b) { return stress_between(rng, b->min, b->max); }

int main(int argc, char** argv) {
  stress_option options[] = {
      {"mib", STRESS_LONG, &g_mib, 1, 1 << 20, "MiB of blocks each phase allocates (times --scale)"},
      {"keep-every", STRESS_LONG, &g_keep_every, 1, 1 << 20, "keep one block in this many, free the rest"},
  };
  stress_parse(argc, argv, "fragmentation", "Free most of one size band, allocate the next.", options,
               sizeof options / sizeof options[0]);
  const double bytes = (double)stress_scaled(g_mib * 1024) * 1024;
  phase phases[kPhases];
  double live_bytes = 0;
  const double start = stress_now_s();
  for (int f = 0; f < kPhases; ++f) {
    phase* ph = &phases[f];
    ph->seed = 1000003u * (uint64_t)(f + 1);
    // Count first, so the pointer array is exact (it is the benchmark's own overhead).
    stress_rng rng = {ph->seed};
    double total = 0;
    ph->count = 0;
    while (total < bytes) {
      total += (double)size_at(&rng, &kBands[f]);
      ++ph->count;
    }
    ph->blocks = (void**)stress_malloc(sizeof(void*) * (size_t)ph->count);
    rng.state = ph->seed;
    for (long i = 0; i < ph->count; ++i) {
      const size_t size = size_at(&rng, &kBands[f]);
      ph->blocks[i] = stress_malloc(size);
      stress_fill(ph->blocks[i], size);
    }
    rng.state = ph->seed;
    for (long i = 0; i < ph->count; ++i) {
      const size_t size = size_at(&rng, &kBands[f]);
      if (i % g_keep_every == 0) {
        live_bytes += (double)size;
      } else {
        stress_check_free(ph->blocks[i], size);
        ph->blocks[i] = NULL;
      }
    }
  }
  const double wall = stress_now_s() - start;
  const long rss_end = stress_rss_kib();
  long ops = 0;
  for (int f = 0; f < kPhases; ++f) {
    stress_rng rng = {phases[f].seed};
    for (long i = 0; i < phases[f].count; ++i) {
      const size_t size = size_at(&rng, &kBands[f]);
      if (phases[f].blocks[i]) stress_check_free(phases[f].blocks[i], size);
    }
    ops += phases[f].count;
    free(phases[f].blocks);
  }
  stress_metric("live", live_bytes / 1024, "KiB");
  stress_metric("rss_end", (double)rss_end, "KiB");
  stress_metric("rss_per_live", (double)rss_end * 1024 / live_bytes, "ratio");
  return stress_finish(wall, (double)ops);
}
