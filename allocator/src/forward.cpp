// SPDX-License-Identifier: MIT
// The forwarding layer (see forward.hpp and allocator/README.md, "The forwarding layer").
#include "forward.hpp"

#include <errno.h>

#include <cstring>

#include "internal.hpp"
#include "text.hpp"

namespace cmh::allocator::forward {

bool g_on = false;

namespace {

using MallocFn = void* (*)(size_t);
using FreeFn = void (*)(void*);
using CallocFn = void* (*)(size_t, size_t);
using ReallocFn = void* (*)(void*, size_t);
using MemalignFn = int (*)(void**, size_t, size_t);
using UsableFn = size_t (*)(void*);

struct Next {
  MallocFn malloc = nullptr;
  FreeFn free = nullptr;
  CallocFn calloc = nullptr;
  ReallocFn realloc = nullptr;
  MemalignFn posix_memalign = nullptr;
  UsableFn usable = nullptr;
};
Next g_next;
std::atomic<bool> g_resolved{false};
SpinLock g_resolve_lock;
CMH_TLS bool tls_resolving = false;

char g_name[256];     // glibc, jemalloc, ... or the absolute path
char g_text[640];     // -XX:Allocator=jemalloc (/lib/.../libjemalloc.so.2)
char g_problem[768];  // empty when malloc resolved to the chosen library
char g_numa[320];

// ---- the bootstrap arena: what dlsym allocates while the next malloc is being found ----
constexpr size_t kArenaSize = 64 * 1024;
alignas(16) char g_arena[kArenaSize];
std::atomic<size_t> g_arena_used{0};

bool in_arena(const void* p) {
  const auto a = reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(g_arena);
  return a < kArenaSize;
}

void* arena_alloc(size_t size, size_t align) {
  if (align < 16) align = 16;
  for (;;) {
    size_t used = g_arena_used.load(std::memory_order_relaxed);
    size_t start = (used + 16 + align - 1) & ~(align - 1);  // 16 bytes before it hold the size
    if (start + size > kArenaSize || start + size < start) return nullptr;
    if (g_arena_used.compare_exchange_weak(used, start + size, std::memory_order_relaxed)) {
      memcpy(g_arena + start - 16, &size, sizeof(size));
      memset(g_arena + start, 0, size);
      return g_arena + start;
    }
  }
}

size_t arena_size(const void* p) {
  size_t size = 0;
  memcpy(&size, static_cast<const char*>(p) - 16, sizeof(size));
  return size;
}

// ---- counters: one record per thread ----
enum : uint32_t { kRecordFree = 0, kRecordLive = 1, kRecordParked = 2 };
struct Record {
  std::atomic<uint64_t> bytes{0}, count{0};
  std::atomic<uint64_t> adopt_bytes{0}, adopt_count{0};
  std::atomic<uint32_t> state{kRecordFree};
  Record* next_parked = nullptr;
};
constexpr size_t kMaxRecords = 4096;
Record g_records[kMaxRecords];
std::atomic<size_t> g_record_count{0};
Record* g_parked = nullptr;
SpinLock g_pool_lock;
// Threads without a record (past their exit hook, inside record set-up, beyond kMaxRecords).
std::atomic<uint64_t> g_shared_bytes{0}, g_shared_count{0};
unsigned g_key = 0;
bool g_key_ok = false;

enum : int { kThreadNew = 0, kThreadHas = 1, kThreadSetup = 2, kThreadDone = 3 };
CMH_TLS Record* tls_record = nullptr;
CMH_TLS int tls_state = kThreadNew;

void thread_exit(void* value) {
  auto* r = static_cast<Record*>(value);
  tls_record = nullptr;
  tls_state = kThreadDone;  // later allocations of this thread go to the shared counters
  if (!r) return;
  LockGuard guard(g_pool_lock);
  r->state.store(kRecordParked, std::memory_order_release);
  r->next_parked = g_parked;
  g_parked = r;
}

CMH_NOINLINE Record* record_init() {
  if (tls_state != kThreadNew) return nullptr;
  tls_state = kThreadSetup;
  Record* r = nullptr;
  {
    LockGuard guard(g_pool_lock);
    if (g_parked) {
      r = g_parked;
      g_parked = r->next_parked;
      r->next_parked = nullptr;
    } else {
      const size_t i = g_record_count.load(std::memory_order_relaxed);
      if (i < kMaxRecords) {
        r = &g_records[i];
        g_record_count.store(i + 1, std::memory_order_release);
      }
    }
    if (r) {
      r->adopt_bytes.store(r->bytes.load(std::memory_order_relaxed), std::memory_order_relaxed);
      r->adopt_count.store(r->count.load(std::memory_order_relaxed), std::memory_order_relaxed);
      r->state.store(kRecordLive, std::memory_order_release);
    }
  }
  if (!r) {
    tls_state = kThreadDone;
    return nullptr;
  }
  // May allocate (keys beyond glibc's first 32): that allocation goes to the shared counters.
  if (g_key_ok) prim::set_thread_key(g_key, r);
  tls_record = r;
  tls_state = kThreadHas;
  return r;
}

void count(uint64_t bytes) {
  Record* r = tls_record;
  if (CMH_UNLIKELY(!r)) r = record_init();
  if (r) {
    r->bytes.store(r->bytes.load(std::memory_order_relaxed) + bytes, std::memory_order_relaxed);
    r->count.store(r->count.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    return;
  }
  g_shared_bytes.fetch_add(bytes, std::memory_order_relaxed);
  g_shared_count.fetch_add(1, std::memory_order_relaxed);
}

void fork_prepare() { g_pool_lock.lock(); }
void fork_parent() { g_pool_lock.unlock(); }
void fork_child() {
  // Only the forking thread lives on: the other live records are parked.
  const size_t n = g_record_count.load(std::memory_order_relaxed);
  for (size_t i = 0; i < n; ++i) {
    Record* r = &g_records[i];
    if (r == tls_record || r->state.load(std::memory_order_relaxed) != kRecordLive) continue;
    r->state.store(kRecordParked, std::memory_order_relaxed);
    r->next_parked = g_parked;
    g_parked = r;
  }
  g_pool_lock.reset();
}

// ---- resolution ----
struct Named {
  const char* name;
  const char* library;  // the file preloaded by the host
  const char* prefix;   // what malloc's library file name must start with
};
constexpr Named kNamed[] = {
    {"glibc", nullptr, "libc.so"},
    {"jemalloc", "libjemalloc.so.2", "libjemalloc"},
    {"tcmalloc", "libtcmalloc.so.4", "libtcmalloc"},
    {"mimalloc", "libmimalloc.so.2", "libmimalloc"},
};

const char* base_name(const char* path) {
  const char* slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

void check_library(const char* where) {
  TextBuffer text(g_text, sizeof(g_text));
  text.add("-XX:Allocator=").add(g_name);
  if (where) text.add(" (").add(where).add(')');
  bool ok = false;
  if (where) {
    if (g_name[0] == '/') {
      ok = prim::same_file(where, g_name);
    } else {
      for (const Named& n : kNamed)
        if (strcmp(n.name, g_name) == 0) ok = strncmp(base_name(where), n.prefix, strlen(n.prefix)) == 0;
    }
  }
  if (ok) return;
  TextBuffer p(g_problem, sizeof(g_problem));
  p.add("cmh-alloc: -XX:Allocator=").add(g_name).add(": malloc comes from ").add(where ? where : "an unknown object")
      .add(", not from ").add(g_name).add(" (the preload failed: is the library installed and first in LD_PRELOAD?)");
}

CMH_NOINLINE void resolve() {
  if (tls_resolving) return;
  LockGuard guard(g_resolve_lock);
  if (g_resolved.load(std::memory_order_acquire)) return;
  tls_resolving = true;
  Next n;
  n.malloc = reinterpret_cast<MallocFn>(prim::find_next_symbol("malloc"));
  n.free = reinterpret_cast<FreeFn>(prim::find_next_symbol("free"));
  n.calloc = reinterpret_cast<CallocFn>(prim::find_next_symbol("calloc"));
  n.realloc = reinterpret_cast<ReallocFn>(prim::find_next_symbol("realloc"));
  n.posix_memalign = reinterpret_cast<MemalignFn>(prim::find_next_symbol("posix_memalign"));
  n.usable = reinterpret_cast<UsableFn>(prim::find_next_symbol("malloc_usable_size"));
  if (!n.malloc || !n.free || !n.calloc || !n.realloc || !n.posix_memalign) {
    report_line("cmh-alloc: -XX:Allocator: no next definition of malloc, free, calloc, realloc or posix_memalign\n");
    prim::abort_process();
  }
  check_library(prim::library_of(reinterpret_cast<void*>(n.malloc)));
  g_next = n;
  tls_resolving = false;
  g_resolved.store(true, std::memory_order_release);
}

inline bool ready() {
  if (CMH_LIKELY(g_resolved.load(std::memory_order_acquire))) return true;
  resolve();
  return g_resolved.load(std::memory_order_acquire);
}

}  // namespace

bool configure(const char* text) {
  if (!text) return false;
  const char* found = nullptr;
  size_t length = 0;
  for (const char* p = text; (p = strstr(p, "-XX:Allocator=")) != nullptr; p += 14) {
    if (p != text && p[-1] != ' ' && p[-1] != '\t') continue;
    found = p + 14;  // the last one wins
    length = strcspn(found, " \t\n");
  }
  if (!found || length == 0 || (length == 3 && memcmp(found, "cmh", 3) == 0)) return false;
  if (length >= sizeof(g_name)) length = sizeof(g_name) - 1;
  memcpy(g_name, found, length);
  g_name[length] = '\0';
  bool known = g_name[0] == '/';
  for (const Named& n : kNamed) known = known || strcmp(n.name, g_name) == 0;
  if (!known) {
    char line[512];
    TextBuffer msg(line, sizeof(line));
    msg.add("cmh-alloc: ignoring -XX:Allocator=").add(g_name)
        .add(" in CMH_ALLOC (expected cmh, glibc, jemalloc, tcmalloc, mimalloc or an absolute path)\n");
    report_line(line);
    g_name[0] = '\0';
    return false;
  }
  TextBuffer numa(g_numa, sizeof(g_numa));
  numa.add("runs on ").add(g_name).add(" (-XX:Allocator), which places memory itself");
  TextBuffer t(g_text, sizeof(g_text));
  t.add("-XX:Allocator=").add(g_name);
  g_on = true;
  return true;
}

void install() {
  if (!g_on) return;
  g_key_ok = prim::create_thread_key(&g_key, thread_exit) == 0;
  prim::register_atfork(fork_prepare, fork_parent, fork_child);
}

void* alloc(size_t size, size_t counted, bool zero) {
  if (CMH_UNLIKELY(!ready())) return arena_alloc(size, 16);
  void* p = zero ? g_next.calloc(1, size) : g_next.malloc(size);
  if (CMH_LIKELY(p != nullptr)) count(counted);
  return p;
}

void* alloc_aligned(size_t align, size_t size) {
  if (CMH_UNLIKELY(!ready())) return arena_alloc(size, align);
  if (align < sizeof(void*)) align = sizeof(void*);
  void* p = nullptr;
  const int saved = errno;
  const int r = g_next.posix_memalign(&p, align, size);
  if (r != 0) {
    errno = r;
    return nullptr;
  }
  errno = saved;
  count(size);
  return p;
}

void free(void* p) {
  if (!p || in_arena(p)) return;
  if (CMH_UNLIKELY(!ready())) return;
  g_next.free(p);
}

size_t usable_size(const void* p) {
  if (!p) return 0;
  if (in_arena(p)) return arena_size(p);
  if (!ready() || !g_next.usable) return 0;
  return g_next.usable(const_cast<void*>(p));
}

void* realloc(void* p, size_t size) {
  if (!p) return alloc(size, size, false);
  if (size == 0) {
    // glibc's behaviour, as the bundled heap: realloc(p, 0) frees p and returns NULL.
    free(p);
    return nullptr;
  }
  if (in_arena(p) || !ready()) {
    const size_t old = in_arena(p) ? arena_size(p) : 0;
    void* q = alloc(size, size, false);
    if (q) memcpy(q, p, old < size ? old : size);
    return q;
  }
  const size_t old = g_next.usable ? g_next.usable(p) : 0;
  void* q = g_next.realloc(p, size);
  if (!q) return nullptr;
  if (q != p)
    count(size);  // moved: a new allocation of the new size
  else if (size > old)
    count(size - old);  // grown in place: the growth beyond the old usable size
  return q;
}

Counts totals() {
  Counts c{g_shared_bytes.load(std::memory_order_relaxed), g_shared_count.load(std::memory_order_relaxed)};
  const size_t n = g_record_count.load(std::memory_order_acquire);
  for (size_t i = 0; i < n; ++i) {
    c.bytes += g_records[i].bytes.load(std::memory_order_relaxed);
    c.count += g_records[i].count.load(std::memory_order_relaxed);
  }
  return c;
}

uint64_t thread_bytes() {
  const Record* r = tls_record;
  if (!r) return 0;
  return r->bytes.load(std::memory_order_relaxed) - r->adopt_bytes.load(std::memory_order_relaxed);
}

uint64_t thread_count() {
  const Record* r = tls_record;
  if (!r) return 0;
  return r->count.load(std::memory_order_relaxed) - r->adopt_count.load(std::memory_order_relaxed);
}

uint64_t live_threads_bytes() {
  uint64_t sum = 0;
  const size_t n = g_record_count.load(std::memory_order_acquire);
  for (size_t i = 0; i < n; ++i) {
    const Record& r = g_records[i];
    if (r.state.load(std::memory_order_acquire) != kRecordLive) continue;
    sum += r.bytes.load(std::memory_order_relaxed) - r.adopt_bytes.load(std::memory_order_relaxed);
  }
  return sum;
}

const char* name() { return g_on ? g_name : "cmh"; }

const char* options_text() {
  ready();
  return g_text;
}

const char* problem() {
  if (!g_on) return nullptr;
  ready();
  return g_problem[0] ? g_problem : nullptr;
}

const char* numa_reason() { return g_numa; }

}  // namespace cmh::allocator::forward
