// SPDX-License-Identifier: MIT
// Heaps and threads: creating a heap for a thread or adopting a parked one, parking it
// at thread exit (pthread key destructor), the per-node pools of parked heaps, the
// locked bootstrap heap for allocations a thread makes without a heap of its own (after
// its exit hook ran), the append-only registry every counter reader walks, and the fork
// handlers that leave a child of a multithreaded parent a working allocator.
#include <new>

#include "internal.hpp"

namespace cmh::allocator {

constinit Heap g_empty_heap{};
CMH_TLS Heap* tls_heap = &g_empty_heap;
CMH_TLS int tls_test_cpu = -1;

namespace {

enum ThreadState : uint8_t { kThreadFresh = 0, kThreadStarting, kThreadDone };
CMH_TLS uint8_t tls_thread_state = kThreadFresh;

struct Pool {
  SpinLock lock;
  Heap* head = nullptr;
};

std::atomic<Heap*> g_registry{nullptr};
Pool g_pools[kMaxNodes];
constinit Heap g_bootstrap{};
SpinLock g_bootstrap_lock;
SpinLock g_meta_lock;
char* g_meta_next = nullptr;
size_t g_meta_left = 0;
unsigned g_key = 0;
bool g_key_ok = false;
std::atomic<uint64_t> g_threads_exited{0};
std::atomic<uint32_t> g_thread_heaps{0};  // heaps created for threads

// Static memory for the (never observed) case of an allocation while the allocator is
// starting up on this thread; blocks carry their size in a 16-byte header.
alignas(64) char g_emergency[256 * 1024];
std::atomic<size_t> g_emergency_used{0};

void* meta_alloc(size_t size) {
  size = (size + 63) & ~size_t{63};
  LockGuard guard(g_meta_lock);
  if (g_meta_left < size) {
    const size_t chunk = size > (1u << 20) ? size : (1u << 20);
    g_meta_next = static_cast<char*>(prim::map_zeroed(chunk));
    if (!g_meta_next) {
      g_meta_left = 0;
      return nullptr;
    }
    g_meta_left = chunk;
  }
  void* p = g_meta_next;
  g_meta_next += size;
  g_meta_left -= size;
  return p;
}

void registry_push(Heap* heap) {
  Heap* head = g_registry.load(std::memory_order_relaxed);
  do {
    heap->registry_next = head;
  } while (!g_registry.compare_exchange_weak(head, heap, std::memory_order_release, std::memory_order_relaxed));
}

Heap* heap_create(int node) {
  void* memory = meta_alloc(sizeof(Heap));
  if (!memory) return nullptr;
  Heap* heap = new (memory) Heap();
  heap->node = static_cast<uint32_t>(node);
  heap->active_at.store(prim::monotonic_ns(), std::memory_order_relaxed);
  heap->state.store(kHeapLive, std::memory_order_release);
  registry_push(heap);
  g_thread_heaps.fetch_add(1, std::memory_order_relaxed);
  return heap;
}

Heap* pool_pop(int node) {
  Pool& pool = g_pools[node];
  LockGuard guard(pool.lock);
  Heap* heap = pool.head;
  if (heap) {
    pool.head = heap->pool_next;
    heap->pool_next = nullptr;
  }
  return heap;
}

void adopt(Heap* heap, int node) {
  fold_tally(heap);  // parked heaps were folded at exit; this keeps the rule local to here
  const Totals totals = heap_totals(heap);
  heap->adopt_bytes.store(totals.bytes, std::memory_order_relaxed);
  heap->adopt_count.store(totals.count, std::memory_order_relaxed);
  heap->node = static_cast<uint32_t>(node);
  heap->active_at.store(prim::monotonic_ns(), std::memory_order_relaxed);
  heap->state.store(kHeapLive, std::memory_order_release);
}

bool heap_has_pages(const Heap* heap) { return heap->regions_avail != 0 || heap->regions_full != 0; }

void thread_exit(void* value) {
  auto* heap = static_cast<Heap*>(value);
  tls_thread_state = kThreadDone;
  if (heap == nullptr || heap != tls_heap) return;
  {
    Episode episode(heap);
    LockGuard guard(heap->lock);
    // Parked as the periodic work leaves a heap (current pages, the large cache and one
    // empty region stay for the adopter, which often needs them at once); what the next
    // thread does not reuse is purged after the decay time (collect_pooled).
    heap_collect(heap, CollectMode::kLight, episode);
    heap_fold(heap);
    // Parked under the lock: a reclaimer that holds it sees the heap either live or parked.
    tls_heap = &g_empty_heap;  // allocations from later destructors use the bootstrap heap
    heap->parked_at = prim::monotonic_ns();
    heap->state.store(kHeapPooled, std::memory_order_release);
  }
  pool_push(heap);
  g_threads_exited.fetch_add(1, std::memory_order_relaxed);
}

// ---- fork ----

// Lock order: the bootstrap lock, every heap's lock (registry order), the pools, the
// regions, the metadata. A heap's lock is held with at most pool and region locks inside.
void fork_prepare() {
  g_bootstrap_lock.lock();
  for (Heap* heap = registry_first(); heap; heap = heap->registry_next) heap->lock.lock();
  for (auto& pool : g_pools) pool.lock.lock();
  region_locks_acquire();
  g_meta_lock.lock();
}

void fork_parent() {
  g_meta_lock.unlock();
  region_locks_release();
  for (int n = static_cast<int>(kMaxNodes) - 1; n >= 0; --n) g_pools[n].lock.unlock();
  for (Heap* heap = registry_first(); heap; heap = heap->registry_next) heap->lock.unlock();
  g_bootstrap_lock.unlock();
}

void fork_child() {
  g_meta_lock.reset();
  region_locks_reset();
  for (auto& pool : g_pools) pool.lock.reset();
  g_bootstrap_lock.reset();
  for (Heap* heap = registry_first(); heap; heap = heap->registry_next) heap->lock.reset();
  // Only the forking thread exists in the child. The other threads' heaps were between
  // slow paths (fork_prepare held their locks), so they are parked: adopted by the child's
  // next thread, purged after the decay time. A lock-free fast path cut by the fork can
  // only lose the block it was moving. A heap being collected as parked (kHeapBusy) may be
  // mid-update: never used again, but its counters still count and its pages take frees.
  const uint64_t now = prim::monotonic_ns();
  bool parked = false;
  for (Heap* heap = registry_first(); heap; heap = heap->registry_next) {
    const uint32_t state = heap->state.load(std::memory_order_relaxed);
    if (heap == tls_heap || (state != kHeapLive && state != kHeapBusy)) continue;
    const uint32_t seq = heap->seq.load(std::memory_order_relaxed);
    if (seq & 1) heap->seq.store(seq + 1, std::memory_order_relaxed);
    if (state == kHeapBusy) {
      heap->state.store(kHeapOrphan, std::memory_order_relaxed);
      continue;
    }
    heap->parked_at = now;
    heap->fork_cut = true;
    heap->state.store(kHeapPooled, std::memory_order_relaxed);
    pool_push(heap);
    parked = true;
  }
  purge_thread_forked(parked);
}

}  // namespace

Heap* registry_first() { return g_registry.load(std::memory_order_acquire); }

Heap* owned_heap() {
  Heap* heap = tls_heap;
  return heap != &g_empty_heap ? heap : nullptr;
}

int current_node(Heap* heap) {
  if (!g_space.numa_on) return 0;
  int cpu = tls_test_cpu >= 0 ? tls_test_cpu : prim::current_cpu();
  if (cpu < 0 || cpu >= static_cast<int>(kMaxCpus)) cpu = 0;
  const int node = g_space.layout->cpu_to_node[cpu];
  if (heap && heap != &g_bootstrap && heap->node != static_cast<uint32_t>(node)) {
    fold_tally(heap);  // what was counted so far was local to the old node
    heap->node = static_cast<uint32_t>(node);
  }
  return node;
}

Heap* thread_heap_init() {
  if (tls_thread_state != kThreadFresh) return nullptr;
  tls_thread_state = kThreadStarting;
  if (!ensure_initialized()) {
    tls_thread_state = kThreadFresh;
    return nullptr;
  }
  const int node = current_node(nullptr);
  Heap* heap = pool_pop(node);
  const bool adopted = heap != nullptr;
  if (heap) {
    adopt(heap, node);
  } else {
    heap = heap_create(node);
  }
  if (!heap) {
    tls_thread_state = kThreadFresh;
    return nullptr;
  }
  tls_heap = heap;
  // May allocate (keys beyond glibc's first 32): tls_heap is already set.
  if (g_key_ok) prim::set_thread_key(g_key, heap);
  tls_thread_state = kThreadFresh;
  if (heap_has_pages(heap)) {
    Episode episode(heap);
    episode.note(kGcAdopt);
    LockGuard guard(heap->lock);
    heap_collect(heap, CollectMode::kLight, episode);
  }
  // A second thread: from now on a heap's owner may stop allocating while others free
  // into it, so the purge thread returns what it cannot (never in a single-threaded process).
  if (adopted || g_thread_heaps.load(std::memory_order_relaxed) > 1) purge_thread_start();
  return heap;
}

void pool_push(Heap* heap) {
  Pool& pool = g_pools[heap->node < kMaxNodes ? heap->node : 0];
  LockGuard guard(pool.lock);
  heap->pool_next = pool.head;
  pool.head = heap;
}

Heap* pool_pop_any(int node) { return pool_pop(node); }

bool collect_pooled(uint64_t now, bool force, Episode& episode) {
  bool collected = false;
  const uint64_t decay = static_cast<uint64_t>(g_space.decay_ns);
  for (int n = 0; n < g_space.node_count; ++n) {
    Pool& pool = g_pools[n];
    Heap* taken = nullptr;
    {
      LockGuard guard(pool.lock);
      for (Heap** link = &pool.head; *link;) {
        Heap* heap = *link;
        const bool due = force || now - heap->parked_at >= decay;
        if (due && heap_has_pages(heap)) {
          *link = heap->pool_next;
          heap->state.store(kHeapBusy, std::memory_order_relaxed);
          heap->pool_next = taken;
          taken = heap;
        } else {
          link = &heap->pool_next;
        }
      }
    }
    while (taken) {
      Heap* heap = taken;
      taken = heap->pool_next;
      heap_collect(heap, CollectMode::kForce, episode);
      heap->state.store(kHeapPooled, std::memory_order_release);
      pool_push(heap);
      collected = true;
    }
  }
  return collected;
}

void* bootstrap_alloc(size_t size, size_t counted, bool zero, size_t align) {
  if (!process_ready()) {
    void* p = emergency_alloc(align > 16 ? size + align : size);
    if (p && align > 16) p = reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(p) + align - 1) & ~(uintptr_t{align} - 1));
    return p;
  }
  LockGuard guard(g_bootstrap_lock);
  if (align > 16) return heap_alloc_aligned_in(&g_bootstrap, align, size);
  return heap_alloc_in(&g_bootstrap, size, counted, zero);
}

Heap* bootstrap_heap() { return &g_bootstrap; }
SpinLock& bootstrap_lock() { return g_bootstrap_lock; }

uint64_t threads_exited() { return g_threads_exited.load(std::memory_order_relaxed); }

void threads_install_key() {
  g_bootstrap.state.store(kHeapBootstrap, std::memory_order_relaxed);
  registry_push(&g_bootstrap);
  g_key_ok = prim::create_thread_key(&g_key, thread_exit) == 0;
}

void threads_install_atfork() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  prim::register_atfork(fork_prepare, fork_parent, fork_child);
}

bool is_emergency(const void* p) {
  auto at = reinterpret_cast<uintptr_t>(p), start = reinterpret_cast<uintptr_t>(g_emergency);
  return at - start < sizeof(g_emergency);
}

void* emergency_alloc(size_t size) {
  const size_t need = (size + 16 + 15) & ~size_t{15};
  const size_t at = g_emergency_used.fetch_add(need, std::memory_order_relaxed);
  if (need < size || at + need > sizeof(g_emergency)) return out_of_memory(size);
  char* block = g_emergency + at;
  *reinterpret_cast<size_t*>(block) = size;
  return block + 16;
}

size_t emergency_size(const void* p) {
  const char* block = static_cast<const char*>(p) - 16;
  if (!is_emergency(block)) return 0;
  return *reinterpret_cast<const size_t*>(block);
}

}  // namespace cmh::allocator
