// SPDX-License-Identifier: MIT
// footprint: what an allocator costs a process that does (almost) nothing.
//
// Origin: issue 15's small-program rows (a do-nothing process, /bin/true, and
// mimalloc-bench's small single-threaded programs such as cfrac, espresso and
// glibc-simple, whose peak RSS is mostly the allocator's fixed start-up cost). Written
// here: with no options the process only prints its result lines; --blocks=N allocates N
// small blocks (16-256 B), frees every other one at once and keeps the rest to the end,
// like a small program's data structures. The driver reads the peak RSS from wait4.
#include <stdlib.h>

#include "stress.h"

int main(int argc, char** argv) {
  long blocks = 0;
  stress_option options[] = {
      {"blocks", STRESS_LONG, &blocks, 0, 1e8, "small blocks to allocate (times --scale; 0: allocate nothing)"},
  };
  stress_parse(argc, argv, "footprint", "A process that does nothing, or allocates a few small blocks.", options, 1);
  const double start = stress_now_s();
  if (blocks > 0) {
    blocks = stress_scaled(blocks);
    void** kept = (void**)stress_malloc(sizeof(void*) * (size_t)blocks);
    size_t* sizes = (size_t*)stress_malloc(sizeof(size_t) * (size_t)blocks);
    stress_rng rng = {7};
    for (long i = 0; i < blocks; ++i) {
      sizes[i] = stress_between(&rng, 16, 256);
      kept[i] = stress_malloc(sizes[i]);
      stress_fill(kept[i], sizes[i]);
      if (i & 1) stress_check_free(kept[i], sizes[i]);
    }
    for (long i = 0; i < blocks; i += 2) stress_check_free(kept[i], sizes[i]);
    free(sizes);
    free(kept);
  }
  return stress_finish(stress_now_s() - start, (double)blocks);
}
