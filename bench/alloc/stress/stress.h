// SPDX-License-Identifier: MIT
// What every allocator stress workload in bench/alloc/stress/ shares: options, a fast
// PRNG, content patterns written at allocation and verified before free, clocks, RSS,
// and the result lines the driver (bench/alloc/stress/run) reads.
//
// The workloads are plain C (larson is C++ for its sized-delete variant) and link no
// allocator: glibc's malloc, or whichever allocator LD_PRELOAD brings in, is measured.
// C keeps the C++ runtime's own start-up allocations out of the footprint rows.
#ifndef CMH_BENCH_ALLOC_STRESS_H
#define CMH_BENCH_ALLOC_STRESS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// ---- options ----

typedef enum { STRESS_LONG, STRESS_DOUBLE } stress_kind;

typedef struct {
  const char* name;  // "--threads" is given as "threads"
  stress_kind kind;
  void* value;       // long* or double*, holding the default on entry
  double min, max;   // accepted range, inclusive
  const char* help;
} stress_option;

// Parses argv: the workload's options plus the common ones (--scale, --verify,
// --require, --corrupt-for-test, --help). Bad input: one line on stderr, exit 2.
void stress_parse(int argc, char** argv, const char* workload, const char* summary,
                  stress_option* options, size_t count);

// Bad input found after parsing: "<workload>: <message>" on stderr, exit 2.
void stress_fail(const char* format, ...) __attribute__((format(printf, 1, 2), noreturn));

// --scale (default 1): multiplies a workload's amount of work (at least 1).
long stress_scaled(long n);

// ---- pseudo-random numbers (splitmix64: one state word, good enough to pick sizes) ----

typedef struct {
  uint64_t state;
} stress_rng;

static inline uint64_t stress_next(stress_rng* r) {
  uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Uniform in [lo, hi].
static inline size_t stress_between(stress_rng* r, size_t lo, size_t hi) {
  return lo + (size_t)(stress_next(r) % (uint64_t)(hi - lo + 1));
}

// ---- content patterns ----
// stress_fill writes a pattern derived from the block's address and size; stress_check
// verifies it and, on a mismatch, prints one line naming the block and exits 3. With
// --verify=lines (the benchmark default) one word per 64-byte line and the last word are
// written, which touches every line of the block at a fraction of a full fill's cost;
// --verify=full (the tests) writes and checks every byte.

void stress_fill(void* p, size_t size);
// Makes --verify=full the default (call before stress_parse): for workloads whose point is
// that every byte of every block is written and read.
void stress_full_by_default(void);
void stress_check(const void* p, size_t size);
// stress_check of a block about to be freed, counted per thread (see stress_thread_done);
// where --corrupt-for-test damages its first block.
void stress_verify(void* p, size_t size);
// stress_verify, then free.
void stress_check_free(void* p, size_t size);
// A thread that called stress_check_free calls this before it ends, to add its count
// of verified blocks to the process total.
void stress_thread_done(void);
// malloc that exits 4 with one line when the allocator returns NULL.
void* stress_malloc(size_t size);

// ---- clocks and memory ----

double stress_now_s(void);       // CLOCK_MONOTONIC
double stress_cpu_s(void);       // CPU time of the whole process
long stress_rss_kib(void);       // resident set now (/proc/self/statm)
long stress_peak_rss_kib(void);  // VmHWM (/proc/self/status)
void stress_sleep_ms(long ms);

// ---- results: "metric <name> <value> <unit>" lines on stdout ----

void stress_metric(const char* name, double value, const char* unit);
// Checks --require, prints the verified-block count and the common metrics; call last.
// Returns the process exit status (0).
int stress_finish(double wall_s, double ops);

// Spawns a joinable thread running fn(arg); exits 4 with one line if it cannot.
typedef void* (*stress_thread_fn)(void*);
unsigned long stress_spawn(stress_thread_fn fn, void* arg);
void stress_join(unsigned long thread);

#ifdef __cplusplus
}
#endif

#endif
