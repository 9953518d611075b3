// SPDX-License-Identifier: MIT
// The shared part of the stress workloads (see stress.h).
#define _GNU_SOURCE
#include "stress.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double g_scale = 1.0;
static int g_full_verify = 0;
static atomic_int g_corrupt_for_test;  // threads race to take it: exchange
static const char* g_workload = "stress";
static atomic_ullong g_verified;
static _Thread_local unsigned long long t_verified;

// ---- options ----

static void usage(FILE* out, const char* summary, const stress_option* options, size_t count) {
  fprintf(out, "usage: %s [options]\n%s\n", g_workload, summary);
  for (size_t i = 0; i < count; ++i) {
    if (options[i].kind == STRESS_LONG)
      fprintf(out, "  --%s=N  %s (default %ld)\n", options[i].name, options[i].help, *(long*)options[i].value);
    else
      fprintf(out, "  --%s=X  %s (default %g)\n", options[i].name, options[i].help, *(double*)options[i].value);
  }
  fprintf(out,
          "  --scale=X  multiplies the amount of work (default 1)\n"
          "  --verify=lines|full  content check: one word per 64-byte line (default) or every byte\n"
          "  --require=NAME  fail unless NAME (glibc, cmh, jemalloc, mimalloc, tcmalloc) is the malloc in effect\n"
          "  --corrupt-for-test  damage the first block before its check (the check must fail, exit 3)\n");
}

static void bad(const char* what, const char* arg) {
  fprintf(stderr, "%s: %s: %s (try --help)\n", g_workload, what, arg);
  exit(2);
}

static const char* allocator_in_effect(void) {
  if (dlsym(RTLD_DEFAULT, "cmh_alloc_version")) return "cmh";
  if (dlsym(RTLD_DEFAULT, "mi_version")) return "mimalloc";
  if (dlsym(RTLD_DEFAULT, "mallctl")) return "jemalloc";
  if (dlsym(RTLD_DEFAULT, "tc_malloc")) return "tcmalloc";
  return "glibc";
}

static int parse_number(const char* text, double* out) {
  char* end = NULL;
  errno = 0;
  const double v = strtod(text, &end);
  if (errno != 0 || end == text || *end != '\0' || v != v) return 0;
  *out = v;
  return 1;
}

void stress_parse(int argc, char** argv, const char* workload, const char* summary,
                  stress_option* options, size_t count) {
  g_workload = workload;
  for (int a = 1; a < argc; ++a) {
    const char* arg = argv[a];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      usage(stdout, summary, options, count);
      exit(0);
    }
    if (strncmp(arg, "--", 2) != 0) bad("not an option", arg);
    const char* name = arg + 2;
    const char* eq = strchr(name, '=');
    const size_t name_len = eq ? (size_t)(eq - name) : strlen(name);
    const char* value = eq ? eq + 1 : NULL;
    if (name_len == 16 && strncmp(name, "corrupt-for-test", 16) == 0 && !value) {
      atomic_store(&g_corrupt_for_test, 1);
      continue;
    }
    if (!value) bad("option needs =VALUE", arg);
    if (name_len == 6 && strncmp(name, "verify", 6) == 0) {
      if (strcmp(value, "full") == 0) g_full_verify = 1;
      else if (strcmp(value, "lines") == 0) g_full_verify = 0;
      else bad("--verify takes lines or full", arg);
      continue;
    }
    if (name_len == 7 && strncmp(name, "require", 7) == 0) {
      const char* in_effect = allocator_in_effect();
      if (strcmp(value, in_effect) != 0) {
        fprintf(stderr, "%s: --require=%s, but the malloc in effect is %s (LD_PRELOAD not applied?)\n", workload,
                value, in_effect);
        exit(2);
      }
      continue;
    }
    double number = 0;
    if (name_len == 5 && strncmp(name, "scale", 5) == 0) {
      if (!parse_number(value, &number) || number <= 0 || number > 1000) bad("--scale takes a number in (0, 1000]", arg);
      g_scale = number;
      continue;
    }
    size_t i = 0;
    while (i < count && !(strlen(options[i].name) == name_len && strncmp(options[i].name, name, name_len) == 0)) ++i;
    if (i == count) bad("unknown option", arg);
    if (!parse_number(value, &number) || number < options[i].min || number > options[i].max) {
      fprintf(stderr, "%s: --%s takes a number in [%g, %g]: %s\n", workload, options[i].name, options[i].min,
              options[i].max, value);
      exit(2);
    }
    if (options[i].kind == STRESS_LONG) {
      if (number != (double)(long)number) bad("expected a whole number", arg);
      *(long*)options[i].value = (long)number;
    } else {
      *(double*)options[i].value = number;
    }
  }
}

void stress_fail(const char* format, ...) {
  va_list args;
  va_start(args, format);
  fprintf(stderr, "%s: ", g_workload);
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
  exit(2);
}

long stress_scaled(long n) {
  const double v = (double)n * g_scale;
  return v < 1 ? 1 : (long)v;
}

// ---- content patterns ----

static inline uint64_t tag_of(const void* p, size_t size) {
  uint64_t z = (uint64_t)(uintptr_t)p ^ ((uint64_t)size << 40) ^ 0x5DEECE66Dull;
  z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCDull;
  z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53ull;
  return z ^ (z >> 33);
}

static inline void put_word(unsigned char* at, uint64_t v) { memcpy(at, &v, 8); }
static inline uint64_t get_word(const unsigned char* at) {
  uint64_t v;
  memcpy(&v, at, 8);
  return v;
}

// Full (and any block under 16 bytes): every aligned word, then the tail bytes one by
// one. Lines: the word at each 64-byte step that ends before the last word (so always
// the first), then the last word (wherever it falls).
static inline unsigned char tail_byte(uint64_t tag, size_t i) { return (unsigned char)((tag >> (8 * (i & 7))) ^ i); }

void stress_full_by_default(void) { g_full_verify = 1; }

void stress_fill(void* p, size_t size) {
  unsigned char* b = (unsigned char*)p;
  const uint64_t tag = tag_of(p, size);
  if (g_full_verify || size < 16) {
    size_t off = 0;
    for (; off + 8 <= size; off += 8) put_word(b + off, tag + off);
    for (; off < size; ++off) b[off] = tail_byte(tag, off);
    return;
  }
  for (size_t off = 0; off + 16 <= size; off += 64) put_word(b + off, tag + off);
  put_word(b + size - 8, ~tag);
}

static void report_corrupt(const void* p, size_t size, size_t offset, uint64_t found, uint64_t expected) {
  fprintf(stderr,
          "%s: content check failed: block %p of %zu bytes, at offset %zu found 0x%llx, expected 0x%llx\n",
          g_workload, p, size, offset, (unsigned long long)found, (unsigned long long)expected);
  exit(3);
}

void stress_check(const void* p, size_t size) {
  const unsigned char* b = (const unsigned char*)p;
  const uint64_t tag = tag_of(p, size);
  if (g_full_verify || size < 16) {
    size_t off = 0;
    for (; off + 8 <= size; off += 8)
      if (get_word(b + off) != tag + off) report_corrupt(p, size, off, get_word(b + off), tag + off);
    for (; off < size; ++off)
      if (b[off] != tail_byte(tag, off)) report_corrupt(p, size, off, b[off], tail_byte(tag, off));
    return;
  }
  for (size_t off = 0; off + 16 <= size; off += 64)
    if (get_word(b + off) != tag + off) report_corrupt(p, size, off, get_word(b + off), tag + off);
  if (get_word(b + size - 8) != ~tag) report_corrupt(p, size, size - 8, get_word(b + size - 8), ~tag);
}

void stress_verify(void* p, size_t size) {
  if (atomic_load_explicit(&g_corrupt_for_test, memory_order_relaxed) && atomic_exchange(&g_corrupt_for_test, 0))
    ((unsigned char*)p)[0] ^= 0x40;
  stress_check(p, size);
  ++t_verified;
}

void stress_check_free(void* p, size_t size) {
  stress_verify(p, size);
  free(p);
}

void stress_thread_done(void) {
  atomic_fetch_add_explicit(&g_verified, t_verified, memory_order_relaxed);
  t_verified = 0;
}

void* stress_malloc(size_t size) {
  void* p = malloc(size);
  if (!p) {
    fprintf(stderr, "%s: malloc(%zu) returned NULL\n", g_workload, size);
    exit(4);
  }
  return p;
}

// ---- clocks and memory ----

static double seconds_of(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double stress_now_s(void) { return seconds_of(CLOCK_MONOTONIC); }
double stress_cpu_s(void) { return seconds_of(CLOCK_PROCESS_CPUTIME_ID); }

// Reads a small /proc file with open/read, not stdio: no allocation may disturb what is
// being measured. Returns 0 when it cannot be read.
static int read_proc(const char* path, char* text, size_t capacity) {
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  const ssize_t n = read(fd, text, capacity - 1);
  close(fd);
  if (n <= 0) return 0;
  text[n] = '\0';
  return 1;
}

long stress_rss_kib(void) {
  char text[128];
  long size_pages = 0, resident_pages = 0;
  if (!read_proc("/proc/self/statm", text, sizeof text) || sscanf(text, "%ld %ld", &size_pages, &resident_pages) != 2)
    return -1;
  return resident_pages * (sysconf(_SC_PAGESIZE) / 1024);
}

// VmHWM, not getrusage's ru_maxrss: Linux carries the high-water mark of the image that
// exec replaced into ru_maxrss, so a process started from a large parent would report
// the parent's RSS. VmHWM is this image's own.
long stress_peak_rss_kib(void) {
  char text[4096];
  if (!read_proc("/proc/self/status", text, sizeof text)) return -1;
  const char* line = strstr(text, "VmHWM:");
  return line ? strtol(line + 6, NULL, 10) : -1;
}

void stress_sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

// ---- results ----

void stress_metric(const char* name, double value, const char* unit) {
  printf("metric %s %.6g %s\n", name, value, unit);
}

int stress_finish(double wall_s, double ops) {
  stress_thread_done();  // the main thread's own checks
  printf("allocator %s\n", allocator_in_effect());
  printf("verified %llu\n", (unsigned long long)atomic_load(&g_verified));
  stress_metric("time", wall_s, "s");
  if (ops > 0) stress_metric("ops_per_s", wall_s > 0 ? ops / wall_s : 0, "1/s");
  stress_metric("cpu", stress_cpu_s(), "s");
  stress_metric("peak_rss", (double)stress_peak_rss_kib(), "KiB");
  fflush(stdout);
  return 0;
}

unsigned long stress_spawn(stress_thread_fn fn, void* arg) {
  pthread_t t;
  const int rc = pthread_create(&t, NULL, fn, arg);
  if (rc != 0) {
    fprintf(stderr, "%s: pthread_create failed: %s\n", g_workload, strerror(rc));
    exit(4);
  }
  return (unsigned long)t;
}

void stress_join(unsigned long thread) { pthread_join((pthread_t)thread, NULL); }
