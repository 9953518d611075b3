// SPDX-License-Identifier: MIT
// Randomized multithreaded stress of the allocator, in the spirit of mimalloc's test-stress
// (our own code). Worker threads come and go (a controller keeps N alive, each lives a
// random number of steps); they allocate random sizes from 8 B to several MiB through every
// entry point (malloc, calloc, new[], posix_memalign, aligned_alloc, memalign, realloc),
// hand objects to each other through a shared transfer array, and verify every object's
// contents when they receive, resize or free it; now and then one of them fork()s, and the
// child checks what it can reach, allocates, starts a thread and exits.
//
// The parent runs that workload in a child process per allocator option combination that
// changes a code path (pre-touch, NUMA real/off/two injected nodes, background purge, -Xmx
// close to the working set, DecayTime=0, small regions): the pairwise-covering set by
// default (every pair of option values together at least once), the full product with
// --all. --soak=SECONDS cycles through the full product until the time is up (make soak).
// Every child line names its seed and options, so a failure can be replayed with the same
// random decisions (thread interleavings differ from run to run).
//
// Built twice: linked with the checked allocator (cmh_alloc_debug), and without any
// allocator to run under LD_PRELOAD=libcmhalloc.so (--require-cmh checks the preload).
#include <dlfcn.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace {

// ---- what a child runs ----

struct Workload {
  uint64_t seed = 1;
  int threads = 4;             // workers alive at once
  long lifetimes = 16;         // worker lifetimes to run (0: until `seconds` pass)
  double seconds = 0;
  int steps = 3000;            // mean steps per worker lifetime
  int live = 400;              // object slots per worker
  bool forks = true;
  bool tight = false;          // -Xmx close to the working set: NULL (bad_alloc) is allowed
};
Workload g_work;

std::atomic<long> g_bad{0};
std::atomic<long> g_allocations{0};
std::atomic<long> g_refused{0};
std::atomic<long> g_forks{0};
std::atomic<long> g_threads_started{0};
std::atomic<bool> g_fork_busy{false};

constexpr size_t kTransferSlots = 1024;
std::atomic<unsigned char*> g_transfer[kTransferSlots];

void complain(const char* what, const void* p) {
  char line[160];
  const int n = snprintf(line, sizeof(line), "alloc:stress: %s (%p)\n", what, p);
  if (g_bad.fetch_add(1) < 20) (void)!write(2, line, static_cast<size_t>(n));
}

struct Random {
  uint64_t state;
  explicit Random(uint64_t seed) : state(seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull) {
    if (state == 0) state = 1;
  }
  uint64_t next() {  // xorshift64*
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545f4914f6cdd1dull;
  }
  uint64_t below(uint64_t n) { return next() % n; }
  bool chance(int per_mille) { return below(1000) < static_cast<uint64_t>(per_mille); }
};

// ---- objects: a header word, a cookie, a byte pattern derived from both, a trailer ----
// word 0: size (high 56 bits) | how it was allocated (low 8); word 1: cookie; the rest of
// the bytes: pattern(cookie, index). Objects under 16 bytes hold word 0 only.

enum Kind : uint8_t { kMalloc = 0, kCalloc, kNewArray, kPosixMemalign, kAlignedAlloc, kMemalign, kRealloc };

unsigned char pattern(uint64_t cookie, size_t i) { return static_cast<unsigned char>((cookie >> (i % 56)) ^ (i * 131)); }

uint64_t header(const unsigned char* p) { return *reinterpret_cast<const uint64_t*>(p); }
size_t size_of(const unsigned char* p) { return static_cast<size_t>(header(p) >> 8); }
Kind kind_of(const unsigned char* p) { return static_cast<Kind>(header(p) & 0xff); }

void fill(unsigned char* p, size_t size, Kind kind, uint64_t cookie) {
  *reinterpret_cast<uint64_t*>(p) = (static_cast<uint64_t>(size) << 8) | kind;
  if (size < 16) return;
  *reinterpret_cast<uint64_t*>(p + 8) = cookie;
  for (size_t i = 16; i < size; ++i) p[i] = pattern(cookie, i);
}

/// Checks the object's bytes from `from` (all of a small object; start, end and one byte
/// per 256 in between for a large one, so that MiB objects stay cheap).
bool intact(const unsigned char* p, size_t from = 16) {
  const size_t size = size_of(p);
  if (size < 8 || size > (size_t{64} << 20)) return false;
  if (malloc_usable_size(const_cast<unsigned char*>(p)) < size) return false;
  if (size < 16) return true;
  const uint64_t cookie = *reinterpret_cast<const uint64_t*>(p + 8);
  const size_t step = size > 65536 ? 256 : 1;
  for (size_t i = from; i < size; i += (i < 4096 || i + 4096 > size) ? 1 : step)
    if (p[i] != pattern(cookie, i)) return false;
  return true;
}

size_t pick_size(Random& rng) {
  // Mostly small with a power-of-two skew; 1 % medium/large (up to 1 MiB), 0.1 % huge (up to 6 MiB).
  const uint64_t r = rng.below(1000);
  if (r == 0) return (size_t{1} << 20) + rng.below(size_t{5} << 20);
  if (r < 10) return 8192 + rng.below((size_t{1} << 20) - 8192);
  if (r < 110) return 1024 + rng.below(7168);
  return 8 + rng.below(size_t{8} << rng.below(7));
}

unsigned char* allocate(Random& rng) {
  const size_t size = pick_size(rng);
  const Kind kind = static_cast<Kind>(rng.below(6));
  void* p = nullptr;
  switch (kind) {
    case kMalloc: p = malloc(size); break;
    case kCalloc:
      p = calloc(1, size);
      if (p) {
        const auto* bytes = static_cast<const unsigned char*>(p);
        for (size_t i = 0; i < size; i += (i < 4096 ? 1 : 61))
          if (bytes[i] != 0) {
            complain("calloc returned memory that is not zero", p);
            break;
          }
      }
      break;
    case kNewArray:
      try {
        p = new unsigned char[size];
      } catch (const std::bad_alloc&) {
        p = nullptr;
      }
      break;
    case kPosixMemalign: {
      const size_t align = size_t{16} << rng.below(12);  // 16 B .. 32 KiB
      if (posix_memalign(&p, align, size) != 0) p = nullptr;
      if (p && reinterpret_cast<uintptr_t>(p) % align) complain("posix_memalign returned a misaligned block", p);
      break;
    }
    case kAlignedAlloc: {
      const size_t align = size_t{64} << rng.below(4);
      p = aligned_alloc(align, (size + align - 1) / align * align);
      if (p && reinterpret_cast<uintptr_t>(p) % align) complain("aligned_alloc returned a misaligned block", p);
      break;
    }
    default: {
      const size_t align = size_t{32} << rng.below(8);
      p = memalign(align, size);
      if (p && reinterpret_cast<uintptr_t>(p) % align) complain("memalign returned a misaligned block", p);
      break;
    }
  }
  if (!p) {
    if (!g_work.tight) complain("an allocation failed without a heap limit", nullptr);
    g_refused.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  fill(static_cast<unsigned char*>(p), size, kind, rng.next());
  return static_cast<unsigned char*>(p);
}

void release(unsigned char* p, const char* where) {
  if (!p) return;
  if (!intact(p)) complain(where, p);
  if (kind_of(p) == kNewArray)
    delete[] p;
  else
    free(p);
}

/// realloc to a new random size: the common prefix must survive, then the object is rebuilt.
unsigned char* resize(Random& rng, unsigned char* p) {
  if (kind_of(p) == kNewArray) return p;  // new[] is never realloc'd
  const size_t old_size = size_of(p);
  const uint64_t old_cookie = old_size >= 16 ? *reinterpret_cast<uint64_t*>(p + 8) : 0;
  const size_t size = rng.chance(500) ? old_size / 2 + 8 : pick_size(rng) + 8;
  auto* q = static_cast<unsigned char*>(realloc(p, size));
  if (!q) {
    if (!g_work.tight) complain("realloc failed without a heap limit", p);
    g_refused.fetch_add(1, std::memory_order_relaxed);
    return p;  // the old block stays valid
  }
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  const size_t keep = old_size < size ? old_size : size;
  for (size_t i = 16; i < keep; i += (i < 4096 ? 1 : 97))
    if (q[i] != pattern(old_cookie, i)) {
      complain("realloc lost the contents of the block", q);
      break;
    }
  fill(q, size, kRealloc, rng.next());
  return q;
}

/// Under a tight -Xmx the workload's own bookkeeping (a worker's slot vector, a thread
/// object) meets the limit too while other workers hold the heap: it waits for them to free
/// (before, such a bad_alloc escaped and ended the run: 1 in ~100 `--all` runs).
template <typename Make>
auto with_headroom(Make make) -> decltype(make()) {
  for (int tries = 0;; ++tries) {
    try {
      return make();
    } catch (const std::bad_alloc&) {
      if (!g_work.tight || tries >= 2000) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
}

// ---- fork in the middle ----

/// In the child of a fork from a multithreaded process: this thread's objects and the
/// transfer array are checked and freed, new blocks allocated, a thread started; exit status
/// 0 when everything held.
[[noreturn]] void forked_child(std::vector<unsigned char*>& mine, uint64_t seed) {
  Random rng(seed);
  long bad = 0;
  for (unsigned char*& p : mine) {
    if (p && !intact(p)) ++bad;
    if (p && rng.chance(500)) release(p, "child: an object was damaged"), p = nullptr;
  }
  for (auto& slot : g_transfer) {
    unsigned char* p = slot.exchange(nullptr);
    if (p && !intact(p)) ++bad;
    if (p) release(p, "child: a transferred object was damaged");
  }
  std::vector<unsigned char*> fresh;
  try {
    fresh.reserve(2000);
  } catch (const std::bad_alloc&) {
    // Only this thread runs here: nobody will free for us. What could be checked was.
    _exit(g_work.tight && bad == 0 && g_bad.load() == 0 ? 0 : 1);
  }
  for (int i = 0; i < 2000; ++i) fresh.push_back(allocate(rng));
  try {
    std::thread helper([&fresh, seed] {
      Random r(seed + 1);
      for (unsigned char*& p : fresh) {
        if (r.chance(500)) release(p, "child thread: an object was damaged"), p = nullptr;
      }
      for (int i = 0; i < 1000; ++i) release(allocate(r), "child thread: a new object was damaged");
    });
    helper.join();
  } catch (const std::bad_alloc&) {
    if (!g_work.tight) throw;  // at the limit, the thread object itself may not fit
  }
  for (unsigned char* p : fresh) release(p, "child: a new object was damaged");
  _exit(bad == 0 && g_bad.load() == 0 ? 0 : 1);
}

void fork_now(std::vector<unsigned char*>& mine, uint64_t seed) {
  if (g_fork_busy.exchange(true)) return;  // one fork at a time is enough stress
  const pid_t pid = fork();
  if (pid == 0) forked_child(mine, seed);
  if (pid < 0) {
    complain("fork failed", nullptr);
  } else {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) complain("a forked child failed its checks or crashed", nullptr);
    g_forks.fetch_add(1, std::memory_order_relaxed);
  }
  g_fork_busy.store(false);
}

// ---- workers and their controller ----

void worker(uint64_t seed) {
  g_threads_started.fetch_add(1, std::memory_order_relaxed);
  Random rng(seed);
  auto data = with_headroom([] { return std::vector<unsigned char*>(static_cast<size_t>(g_work.live), nullptr); });
  const long steps = g_work.steps / 2 + static_cast<long>(rng.below(static_cast<uint64_t>(g_work.steps)));
  long allocations = 0;
  for (long step = 0; step < steps; ++step) {
    unsigned char*& slot = data[rng.below(data.size())];
    const uint64_t op = rng.below(1000);
    if (op < 450) {  // replace
      release(slot, "an object was damaged before its free");
      slot = allocate(rng);
      allocations += slot ? 1 : 0;
    } else if (op < 550) {
      if (slot) slot = resize(rng, slot);
    } else if (op < 850) {  // hand over, and check what came back
      unsigned char* got = g_transfer[rng.below(kTransferSlots)].exchange(slot, std::memory_order_acq_rel);
      if (got && !intact(got)) complain("an object was damaged in transfer", got);
      slot = got;
    } else if (op < 900) {
      release(slot, "an object was damaged before its free");
      slot = nullptr;
    } else if (op == 999 && g_work.forks && rng.chance(100)) {
      fork_now(data, rng.next());
    } else if (slot && !intact(slot)) {
      complain("a live object was damaged", slot);
    }
  }
  // Some objects outlive their thread through the transfer array; the rest are freed here.
  for (unsigned char*& p : data) {
    if (p && rng.chance(150)) p = g_transfer[rng.below(kTransferSlots)].exchange(p, std::memory_order_acq_rel);
    release(p, "an object was damaged before its free");
    p = nullptr;
  }
  g_allocations.fetch_add(allocations, std::memory_order_relaxed);
}

double now_s() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void run_workload() {
  struct Slot {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
  };
  std::vector<Slot> slots(static_cast<size_t>(g_work.threads));
  Random seeds(g_work.seed);
  const double deadline = now_s() + g_work.seconds;
  long started = 0;
  auto more = [&] { return g_work.lifetimes > 0 ? started < g_work.lifetimes : now_s() < deadline; };
  auto start = [&](Slot& s) {
    const uint64_t seed = seeds.next();
    with_headroom([&] {
      s.done = std::make_shared<std::atomic<bool>>(false);
      s.thread = std::thread([seed, done = s.done] {
        worker(seed);
        done->store(true, std::memory_order_release);
      });
      return 0;
    });
    ++started;
  };
  for (Slot& s : slots)
    if (more()) start(s);
  for (bool running = true; running;) {
    running = false;
    for (Slot& s : slots) {
      if (!s.thread.joinable()) continue;
      running = true;
      if (!s.done->load(std::memory_order_acquire)) continue;
      s.thread.join();
      if (more()) start(s);
    }
    if (running) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  for (auto& slot : g_transfer) release(slot.exchange(nullptr), "an object was damaged in the transfer array");
}

// ---- option combinations ----

struct Factor {
  const char* name;
  std::vector<const char*> values;  // CMH_ALLOC fragments; "@two-nodes" means the injected topology
};

const std::vector<Factor>& factors() {
  static const std::vector<Factor> f = {
      {"pretouch", {"", "-Xms64m -XX:+AlwaysPreTouch"}},
      {"numa", {"", "-XX:-UseNUMA", "-XX:+UseNUMA @two-nodes"}},
      {"purge", {"", "-XX:-BackgroundPurge"}},
      {"limit", {"", "-Xmx32m"}},
      {"decay", {"", "-XX:DecayTime=0"}},
      {"region", {"", "-XX:RegionSize=1m"}},
  };
  return f;
}

using Combo = std::vector<int>;

std::vector<Combo> full_product() {
  std::vector<Combo> all{{}};
  for (const Factor& f : factors()) {
    std::vector<Combo> next;
    for (const Combo& c : all)
      for (int v = 0; v < static_cast<int>(f.values.size()); ++v) {
        Combo d = c;
        d.push_back(v);
        next.push_back(d);
      }
    all = next;
  }
  return all;
}

/// Greedy pairwise covering set: rows of the full product picked, most uncovered pairs first,
/// until every pair of values of every two factors appears in some row. Deterministic.
std::vector<Combo> pairwise() {
  const std::vector<Combo> all = full_product();
  const size_t n = factors().size();
  auto pair_key = [](size_t i, int a, size_t j, int b) { return ((i * 8 + static_cast<size_t>(a)) * 8 + j) * 8 + static_cast<size_t>(b); };
  std::vector<bool> covered(8 * 8 * 8 * 8, false);
  size_t uncovered = 0;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) uncovered += factors()[i].values.size() * factors()[j].values.size();
  std::vector<Combo> rows;
  while (uncovered > 0) {
    size_t best = 0, best_gain = 0;
    for (size_t r = 0; r < all.size(); ++r) {
      size_t gain = 0;
      for (size_t i = 0; i < n; ++i)
        for (size_t j = i + 1; j < n; ++j) gain += covered[pair_key(i, all[r][i], j, all[r][j])] ? 0 : 1;
      if (gain > best_gain) best = r, best_gain = gain;
    }
    for (size_t i = 0; i < n; ++i)
      for (size_t j = i + 1; j < n; ++j) covered[pair_key(i, all[best][i], j, all[best][j])] = true;
    uncovered -= best_gain;
    rows.push_back(all[best]);
  }
  return rows;
}

struct Environment {
  std::string options, topology, label;
  bool tight = false;
};

Environment environment_of(const Combo& c) {
  Environment e;
  for (size_t i = 0; i < c.size(); ++i) {
    std::string value = factors()[i].values[static_cast<size_t>(c[i])];
    if (value.empty()) continue;
    const size_t at = value.find(" @two-nodes");
    if (at != std::string::npos) {
      value.erase(at);
      // NUMA mode on whatever the machine: two nodes, the affinity covering both.
      e.topology = "node0=0;node1=1;affinity=0-1;policy=default";
    }
    if (value.find("-Xmx") != std::string::npos) e.tight = true;
    e.options += (e.options.empty() ? "" : " ") + value;
    e.label += std::string(e.label.empty() ? "" : ",") + factors()[i].name;
    if (factors()[i].values.size() > 2) e.label += c[i] == 1 ? "=off" : "=two-nodes";
  }
  if (e.label.empty()) e.label = "defaults";
  return e;
}

bool run_child(const Combo& combo, uint64_t seed, const std::vector<std::string>& extra, long* allocations) {
  const Environment e = environment_of(combo);
  std::vector<std::string> argv = {cmh_test::self_path(), "--child", "--seed=" + std::to_string(seed)};
  if (e.tight) argv.push_back("--tight");
  argv.insert(argv.end(), extra.begin(), extra.end());
  const cmh_test::ChildResult r =
      cmh_test::run_child(argv, {"CMH_ALLOC=" + e.options, "CMH_ALLOC_TOPOLOGY=" + e.topology});
  std::string replay = "CMH_ALLOC='" + e.options + "' CMH_ALLOC_TOPOLOGY='" + e.topology + "'";
  for (const auto& a : argv) replay += " " + a;
  long count = 0;
  const size_t at = r.out.find("allocations=");
  std::string figures = "no figures";
  if (at != std::string::npos) {
    count = atol(r.out.c_str() + at + 12);
    figures = r.out.substr(at, r.out.find('\n', at) - at);
  }
  *allocations += count;
  const bool ok = r.code() == 0;
  std::printf("alloc:stress: %-58s seed %-20llu %s: %s\n", e.label.c_str(), static_cast<unsigned long long>(seed),
              ok ? "ok" : "FAILED", figures.c_str());
  if (!ok) {
    std::printf("  status %d, signal %d; replay: %s\n%s%s", r.code(), r.signal(), replay.c_str(), r.out.c_str(),
                r.err.c_str());
  }
  std::fflush(stdout);
  return ok;
}

uint64_t arg_value(const char* arg, const char* name, uint64_t fallback) {
  const size_t n = strlen(name);
  return strncmp(arg, name, n) == 0 ? strtoull(arg + n, nullptr, 10) : fallback;
}

int usage(const char* self) {
  std::fprintf(stderr,
               "usage: %s [--require-cmh] [--all | --soak=SECONDS] [--seed=N] [--threads=N] [--steps=N] [--lifetimes=N]\n"
               "       %s --child [--seed=N] [--threads=N] [--steps=N] [--lifetimes=N | --seconds=S] [--tight] [--no-fork]\n",
               self, self);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  bool child = false, require_cmh = false, all = false;
  uint64_t soak = 0;
  uint64_t seed = static_cast<uint64_t>(time(nullptr));
  std::vector<std::string> pass;  // workload flags handed to the children
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (strcmp(a, "--child") == 0) child = true;
    else if (strcmp(a, "--require-cmh") == 0) require_cmh = true;
    else if (strcmp(a, "--all") == 0) all = true;
    else if (strcmp(a, "--tight") == 0) g_work.tight = true;
    else if (strcmp(a, "--no-fork") == 0) g_work.forks = false, pass.push_back(a);
    else if (strncmp(a, "--soak=", 7) == 0) soak = arg_value(a, "--soak=", 0);
    else if (strncmp(a, "--seed=", 7) == 0) seed = arg_value(a, "--seed=", seed);
    else if (strncmp(a, "--threads=", 10) == 0) g_work.threads = static_cast<int>(arg_value(a, "--threads=", 4)), pass.push_back(a);
    else if (strncmp(a, "--steps=", 8) == 0) g_work.steps = static_cast<int>(arg_value(a, "--steps=", 3000)), pass.push_back(a);
    else if (strncmp(a, "--lifetimes=", 12) == 0) g_work.lifetimes = static_cast<long>(arg_value(a, "--lifetimes=", 16)), pass.push_back(a);
    else if (strncmp(a, "--seconds=", 10) == 0) g_work.seconds = strtod(a + 10, nullptr), g_work.lifetimes = 0;
    else return usage(argv[0]);
  }
  if (g_work.threads < 1 || g_work.steps < 1) return usage(argv[0]);
  if (require_cmh && !dlsym(RTLD_DEFAULT, "cmh_alloc_version")) {
    std::fprintf(stderr, "alloc:stress: not running on the cmh allocator (LD_PRELOAD missing?)\n");
    return 1;
  }
  if (child) {
    g_work.seed = seed;
    run_workload();
    std::printf("allocations=%ld refused=%ld threads=%ld forks=%ld damaged=%ld\n", g_allocations.load(),
                g_refused.load(), g_threads_started.load(), g_forks.load(), g_bad.load());
    return g_bad.load() == 0 ? 0 : 1;
  }
  long allocations = 0;
  int failed = 0, runs = 0;
  std::printf("alloc:stress: master seed %llu\n", static_cast<unsigned long long>(seed));
  Random seeds(seed);
  if (soak > 0) {
    // The full product, over and over with new seeds, each child for 20 s, until the time is up.
    const std::vector<Combo> combos = full_product();
    const double end = now_s() + static_cast<double>(soak);
    for (size_t k = 0; now_s() < end; ++k, ++runs) {
      std::vector<std::string> extra = pass;
      const double left = end - now_s();
      extra.push_back("--seconds=" + std::to_string(left < 20 ? (left < 1 ? 1.0 : left) : 20.0));
      failed += run_child(combos[k % combos.size()], seeds.next(), extra, &allocations) ? 0 : 1;
    }
  } else {
    const std::vector<Combo> combos = all ? full_product() : pairwise();
    for (const Combo& c : combos) {
      ++runs;
      failed += run_child(c, seeds.next(), pass, &allocations) ? 0 : 1;
    }
  }
  std::printf("alloc:stress: %d runs, %d failed, %ld allocations in all (master seed %llu)\n", runs, failed,
              allocations, static_cast<unsigned long long>(seed));
  return failed == 0 ? 0 : 1;
}
