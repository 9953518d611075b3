// SPDX-License-Identifier: MIT
// larson: server-style churn, many threads, objects freed by threads other than the one
// that allocated them.
//
// Origin: P. Larson and M. Krishnan, "Memory Allocation for Long-Running Server
// Applications", ISMM 1998, whose benchmark mimalloc-bench runs as `larson` and (with
// sized deallocation) `larson-sized`. Written here from the paper's description: each of
// T threads owns a table of blocks and repeatedly frees a randomly chosen one and puts a
// new block of random size in its place; after a number of replacements the thread
// starts a successor that inherits the table and exits, so the blocks one thread
// allocated are freed by the next (the paper's "bleeding" of memory between threads).
//
// Here the work is fixed (every lane runs --generations successive threads of
// --replacements each), not the time, so every allocator does the same work and the
// reported time and ops/s compare directly. A thread replaces its whole table about 50
// times before it hands over, as the paper's threads run many rounds: a handover every
// few thousand blocks would measure thread start and exit instead (mleak.c does that). --sized=1 allocates with operator new and
// frees with sized operator delete (larson-sized).
#include <stdlib.h>
#include <unistd.h>

#include <new>

#include "stress.h"

namespace {

long g_threads = 0, g_slots = 5000, g_replacements = 250000, g_generations = 16, g_min = 8, g_max = 1000,
     g_sized = 0;

struct Block {
  void* p;
  size_t size;
};

struct Lane {
  Block* table;
  unsigned long* handles;  // one per generation, written by the generation that starts it
  long generation;
  stress_rng rng;
};

void* allocate(size_t size) {
  void* p = g_sized ? ::operator new(size) : stress_malloc(size);
  stress_fill(p, size);
  return p;
}

void release(Block& b) {
  if (g_sized) {
    stress_verify(b.p, b.size);
    ::operator delete(b.p, b.size);
  } else {
    stress_check_free(b.p, b.size);
  }
}

void* generation(void* arg) {
  Lane& lane = *static_cast<Lane*>(arg);
  for (long r = 0; r < g_replacements; ++r) {
    Block& b = lane.table[stress_next(&lane.rng) % static_cast<uint64_t>(g_slots)];
    release(b);
    b.size = stress_between(&lane.rng, static_cast<size_t>(g_min), static_cast<size_t>(g_max));
    b.p = allocate(b.size);
  }
  stress_thread_done();
  const long next = ++lane.generation;
  if (next < g_generations) lane.handles[next] = stress_spawn(generation, &lane);
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  stress_option options[] = {
      {"threads", STRESS_LONG, &g_threads, 1, 1024, "lanes running at once (0 or unset: online CPUs, at least 2)"},
      {"slots", STRESS_LONG, &g_slots, 1, 1 << 24, "blocks in each lane's table"},
      {"replacements", STRESS_LONG, &g_replacements, 1, 1e9, "blocks replaced by each thread before it hands over"},
      {"generations", STRESS_LONG, &g_generations, 1, 1e7, "successive threads per lane (times --scale)"},
      {"min", STRESS_LONG, &g_min, 1, 1 << 30, "smallest block size in bytes"},
      {"max", STRESS_LONG, &g_max, 1, 1 << 30, "largest block size in bytes"},
      {"sized", STRESS_LONG, &g_sized, 0, 1, "1: operator new and sized operator delete (larson-sized)"},
  };
  options[0].min = 0;
  stress_parse(argc, argv, "larson", "Server churn: lanes of threads replacing random blocks, handing them over.",
               options, sizeof options / sizeof options[0]);
  if (g_min > g_max) stress_fail("--min (%ld) is above --max (%ld)", g_min, g_max);
  if (g_threads == 0) {
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    g_threads = cpus < 2 ? 2 : cpus;
  }
  g_generations = stress_scaled(g_generations);

  Lane* lanes = static_cast<Lane*>(stress_malloc(sizeof(Lane) * static_cast<size_t>(g_threads)));
  for (long t = 0; t < g_threads; ++t) {
    Lane& lane = lanes[t];
    lane.table = static_cast<Block*>(stress_malloc(sizeof(Block) * static_cast<size_t>(g_slots)));
    lane.handles = static_cast<unsigned long*>(stress_malloc(sizeof(unsigned long) * static_cast<size_t>(g_generations)));
    lane.generation = 0;
    lane.rng.state = 4141 + static_cast<uint64_t>(t) * 7919;
    // The main thread allocates the first tables: the first generation's frees are remote too.
    for (long s = 0; s < g_slots; ++s) {
      Block& b = lane.table[s];
      b.size = stress_between(&lane.rng, static_cast<size_t>(g_min), static_cast<size_t>(g_max));
      b.p = allocate(b.size);
    }
  }

  const double start = stress_now_s();
  for (long t = 0; t < g_threads; ++t) lanes[t].handles[0] = stress_spawn(generation, &lanes[t]);
  // handles[g + 1] is written by generation g before it ends, so it is there once g is joined.
  for (long t = 0; t < g_threads; ++t)
    for (long g = 0; g < g_generations; ++g) stress_join(lanes[t].handles[g]);
  const double wall = stress_now_s() - start;

  for (long t = 0; t < g_threads; ++t) {
    for (long s = 0; s < g_slots; ++s) release(lanes[t].table[s]);
    free(lanes[t].table);
    free(lanes[t].handles);
  }
  free(lanes);
  const double ops = static_cast<double>(g_threads) * static_cast<double>(g_generations) * static_cast<double>(g_replacements);
  stress_metric("threads", static_cast<double>(g_threads), "threads");
  return stress_finish(wall, ops);
}
