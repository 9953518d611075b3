// SPDX-License-Identifier: MIT
// Allocator microbenchmarks for bench/alloc/run.sh: one row per process run, on whatever
// malloc the process has (glibc, or cmh/jemalloc/mimalloc/tcmalloc through LD_PRELOAD).
// Prints "<CPU ns per op> <peak RSS in KiB>" for the row; the best of several repetitions
// is reported (the machine is shared and noisy). "which" names the allocator in effect.
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace {

// CPU time of the whole process, not wall time: on a shared, overloaded machine a process
// may get a fraction of a CPU, which wall time would charge to the allocator. On an idle
// machine the two agree for the single-threaded rows.
double now_ns() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// The compiler may not drop a malloc/free pair whose pointer escapes here.
inline void* keep(void* p) {
  asm volatile("" : : "g"(p) : "memory");
  return p;
}

double g_scale = 1.0;
long scaled(long n) { return static_cast<long>(static_cast<double>(n) * g_scale) + 1; }

// 256 sizes spread over 16..1024 bytes (a fixed pseudo-random sequence).
struct Sizes {
  size_t values[256];
  Sizes() {
    uint64_t x = 88172645463325252ull;
    for (size_t& v : values) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      v = 16 + x % (1024 - 16 + 1);
    }
  }
};
const Sizes kSizes;

template <typename Run>
double best_of(int repetitions, long ops, Run run) {
  double best = 1e30;
  for (int r = 0; r < repetitions; ++r) {
    const double start = now_ns();
    run();
    const double per_op = (now_ns() - start) / static_cast<double>(ops);
    if (per_op < best) best = per_op;
  }
  return best;
}

double pair_fixed() {
  const long n = scaled(20000000);
  return best_of(5, n, [n] {
    for (long i = 0; i < n; ++i) free(keep(malloc(32)));
  });
}

double pair_mixed() {
  const long n = scaled(20000000);
  return best_of(5, n, [n] {
    for (long i = 0; i < n; ++i) free(keep(malloc(kSizes.values[i & 255])));
  });
}

double batch() {
  constexpr int kBatch = 1000;
  const long rounds = scaled(20000);
  static void* slots[kBatch];
  return best_of(5, rounds * kBatch, [rounds] {
    for (long r = 0; r < rounds; ++r) {
      for (int i = 0; i < kBatch; ++i) slots[i] = keep(malloc(kSizes.values[(i + r) & 255]));
      for (int i = 0; i < kBatch; ++i) free(slots[i]);
    }
  });
}

// One producer allocates, one consumer frees: batches of 256 blocks go through a ring of
// 64 batches (waiting threads yield; the waits are rare with a ring that deep).
double producer_consumer() {
  constexpr long kBatch = 256;
  const long batches = scaled(20000);
  return best_of(5, batches * kBatch, [batches] {
    constexpr long kRing = 64;
    static void* ring[kRing][kBatch];
    std::atomic<long> produced{0}, consumed{0};
    std::thread consumer([&] {
      for (long b = 0; b < batches; ++b) {
        while (produced.load(std::memory_order_acquire) <= b) std::this_thread::yield();
        for (long i = 0; i < kBatch; ++i) free(ring[b % kRing][i]);
        consumed.store(b + 1, std::memory_order_release);
      }
    });
    for (long b = 0; b < batches; ++b) {
      while (b - consumed.load(std::memory_order_acquire) >= kRing) std::this_thread::yield();
      for (long i = 0; i < kBatch; ++i) ring[b % kRing][i] = keep(malloc(kSizes.values[(b + i) & 255]));
      produced.store(b + 1, std::memory_order_release);
    }
    consumer.join();
  });
}

// Threads that start, allocate 1000 blocks, free 900, hand 100 to the next thread, exit.
double thread_churn() {
  const long threads = scaled(2000);
  return best_of(3, threads, [threads] {
    std::vector<void*> handed;
    for (long t = 0; t < threads; ++t) {
      std::thread([&handed, t] {
        for (void* p : handed) free(p);
        handed.clear();
        void* blocks[1000];
        for (int i = 0; i < 1000; ++i) blocks[i] = keep(malloc(kSizes.values[(i + t) & 255]));
        for (int i = 0; i < 900; ++i) free(blocks[i]);
        handed.assign(blocks + 900, blocks + 1000);
      }).join();
    }
    for (void* p : handed) free(p);
  });
}

// malloc(1 MiB), write one byte in each of its 4 KiB pages (so an allocator that hands back
// fresh pages pays the page faults), free. The byte is on a different cache line of each
// page: at a fixed offset, all 256 writes map to one cache set and the row would measure
// set conflicts that depend on where the block happens to lie, not the allocator.
double large_1m() {
  const long n = scaled(200000);
  return best_of(5, n, [n] {
    for (long i = 0; i < n; ++i) {
      auto* p = static_cast<volatile char*>(malloc(1 << 20));
      for (size_t page = 0; page < 256; ++page) p[page * 4096 + (page & 63) * 64] = 1;
      free(const_cast<char*>(p));
    }
  });
}

const char* which_allocator() {
  if (dlsym(RTLD_DEFAULT, "cmh_alloc_version")) return "cmh";
  if (dlsym(RTLD_DEFAULT, "mi_version")) return "mimalloc";
  if (dlsym(RTLD_DEFAULT, "mallctl")) return "jemalloc";
  if (dlsym(RTLD_DEFAULT, "tc_malloc")) return "tcmalloc";
  return "glibc";
}

struct Row {
  const char* name;
  double (*run)();
};

const Row kRows[] = {
    {"pair-32", pair_fixed},     {"pair-mixed", pair_mixed},       {"batch-1000", batch},
    {"producer-consumer", producer_consumer}, {"thread-churn", thread_churn}, {"large-1m", large_1m},
};

}  // namespace

int main(int argc, char** argv) {
  if (const char* s = getenv("CMH_BENCH_SCALE")) g_scale = atof(s) > 0 ? atof(s) : 1.0;
  const std::string row = argc > 1 ? argv[1] : "";
  if (row == "which") {
    std::printf("%s\n", which_allocator());
    return 0;
  }
  if (row == "rows") {
    for (const Row& r : kRows) std::printf("%s\n", r.name);
    return 0;
  }
  for (const Row& r : kRows) {
    if (row != r.name) continue;
    const double ns = r.run();
    std::printf("%.2f %ld\n", ns, peak_rss_kib());
    return 0;
  }
  std::fprintf(stderr, "usage: %s which|rows|<row>   (rows: pair-32 pair-mixed batch-1000 producer-consumer "
                       "thread-churn large-1m)\n", argv[0]);
  return 1;
}
