// SPDX-License-Identifier: MIT
// Counter readers and the statistics struct. Every heap record ever created stays in the
// registry (heaps are parked and adopted, never freed), so the process total is the sum
// over the registry: no transfer at thread exit, hence no window in which an exiting
// thread's bytes are missing (JDK-8304074's caveat) and no loss of monotonicity. Each
// record is read under its seqlock, which only the owner's slow-path fold bumps.
#include <cstring>

#include "internal.hpp"
#include "text.hpp"

namespace cmh::allocator {
namespace {

// Episodes of threads that own no heap (a free on a thread without one, for example).
struct GlobalGc {
  std::atomic<uint64_t> count{0}, ns{0}, drains{0}, retires{0}, purges{0}, adopts{0}, explicit_collects{0};
  std::atomic<uint64_t> bytes_purged{0};
};
GlobalGc g_gc;

void add(std::atomic<uint64_t>& counter, uint64_t v) {
  counter.store(counter.load(std::memory_order_relaxed) + v, std::memory_order_relaxed);
}

uint64_t load(const std::atomic<uint64_t>& counter) { return counter.load(std::memory_order_relaxed); }

}  // namespace

void episode_record(Heap* self, unsigned kinds, uint64_t ns, uint64_t bytes_purged) {
  // gc.count / gc.time: episodes that move memory back (retire pages or regions, return
  // memory to the OS) or were asked for (cmh_alloc_collect). A drain of other threads'
  // frees, or an adoption, alone is bookkeeping: counted by kind only.
  const bool counts = (kinds & (kGcRetire | kGcPurge | kGcExplicit)) != 0;
  if (self) {
    // Single writer: the owning thread, or the holder of the bootstrap lock.
    HeapCounters& c = self->counters;
    if (counts) {
      add(c.gc_count, 1);
      add(c.gc_ns, ns);
    }
    if (kinds & kGcDrain) add(c.drains, 1);
    if (kinds & kGcRetire) add(c.retires, 1);
    if (kinds & kGcPurge) add(c.purges, 1);
    if (kinds & kGcAdopt) add(c.adopts, 1);
    if (kinds & kGcExplicit) add(c.explicit_collects, 1);
    add(c.bytes_purged, bytes_purged);
    return;
  }
  if (counts) {
    g_gc.count.fetch_add(1, std::memory_order_relaxed);
    g_gc.ns.fetch_add(ns, std::memory_order_relaxed);
  }
  if (kinds & kGcDrain) g_gc.drains.fetch_add(1, std::memory_order_relaxed);
  if (kinds & kGcRetire) g_gc.retires.fetch_add(1, std::memory_order_relaxed);
  if (kinds & kGcPurge) g_gc.purges.fetch_add(1, std::memory_order_relaxed);
  if (kinds & kGcAdopt) g_gc.adopts.fetch_add(1, std::memory_order_relaxed);
  if (kinds & kGcExplicit) g_gc.explicit_collects.fetch_add(1, std::memory_order_relaxed);
  g_gc.bytes_purged.fetch_add(bytes_purged, std::memory_order_relaxed);
}

Totals heap_totals(const Heap* heap) {
  for (int spins = 0;; ++spins) {
    const uint32_t s1 = heap->seq.load(std::memory_order_acquire);
    if (s1 & 1) {
      if (spins > 64) prim::yield();
      continue;
    }
    uint64_t bytes = heap->counters.bytes.load(std::memory_order_relaxed);
    uint64_t count = heap->counters.count.load(std::memory_order_relaxed);
    for (const auto& tallied : heap->tallied) {
      const Page* page = tallied.load(std::memory_order_relaxed);
      if (!page) continue;
      const uint64_t tally = __atomic_load_n(&page->tally, __ATOMIC_RELAXED);
      bytes += tally_bytes(tally);
      count += tally_count(tally);
    }
    std::atomic_thread_fence(std::memory_order_acquire);
    if (heap->seq.load(std::memory_order_relaxed) == s1) return Totals{bytes, count};
  }
}

NodeTotals heap_node_totals(const Heap* heap, int n) {
  const NodeCounters& c = heap->counters.per_node[n];
  for (int spins = 0;; ++spins) {
    const uint32_t s1 = heap->seq.load(std::memory_order_acquire);
    if (s1 & 1) {
      if (spins > 64) prim::yield();
      continue;
    }
    NodeTotals t{load(c.bytes), load(c.count), load(c.local_bytes), load(c.local_count)};
    uint64_t unfolded_bytes = 0, unfolded_count = 0;
    for (const auto& tallied : heap->tallied) {
      const Page* page = tallied.load(std::memory_order_relaxed);
      if (!page || __atomic_load_n(&page->node, __ATOMIC_RELAXED) != n) continue;
      const uint64_t tally = __atomic_load_n(&page->tally, __ATOMIC_RELAXED);
      unfolded_bytes += tally_bytes(tally);
      unfolded_count += tally_count(tally);
    }
    const uint32_t node = __atomic_load_n(&heap->node, __ATOMIC_RELAXED);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (heap->seq.load(std::memory_order_relaxed) != s1) continue;
    // An unfolded tally is local exactly when the heap is on its page's node (fold_page's rule).
    t.bytes += unfolded_bytes;
    t.count += unfolded_count;
    if (node == static_cast<uint32_t>(n)) {
      t.local_bytes += unfolded_bytes;
      t.local_count += unfolded_count;
    }
    return t;
  }
}

NodeTotals node_totals(int n) {
  NodeTotals sum;
  for (const Heap* heap = registry_first(); heap; heap = heap->registry_next) {
    const NodeTotals t = heap_node_totals(heap, n);
    sum.bytes += t.bytes;
    sum.count += t.count;
    sum.local_bytes += t.local_bytes;
    sum.local_count += t.local_count;
  }
  return sum;
}

Totals process_totals() {
  if (forward::g_on) {
    const forward::Counts c = forward::totals();
    return Totals{c.bytes, c.count};
  }
  Totals sum;
  for (const Heap* heap = registry_first(); heap; heap = heap->registry_next) {
    const Totals t = heap_totals(heap);
    sum.bytes += t.bytes;
    sum.count += t.count;
  }
  return sum;
}

uint64_t thread_bytes() {
  if (forward::g_on) return forward::thread_bytes();
  const Heap* heap = owned_heap();
  if (!heap) return 0;
  return heap_totals(heap).bytes - heap->adopt_bytes.load(std::memory_order_relaxed);
}

uint64_t thread_count() {
  if (forward::g_on) return forward::thread_count();
  const Heap* heap = owned_heap();
  if (!heap) return 0;
  return heap_totals(heap).count - heap->adopt_count.load(std::memory_order_relaxed);
}

uint64_t live_threads_bytes() {
  if (forward::g_on) return forward::live_threads_bytes();
  uint64_t sum = 0;
  for (const Heap* heap = registry_first(); heap; heap = heap->registry_next) {
    if (heap->state.load(std::memory_order_acquire) != kHeapLive) continue;
    const uint64_t since = heap->adopt_bytes.load(std::memory_order_relaxed);
    const uint64_t total = heap_totals(heap).bytes;
    sum += total > since ? total - since : 0;
  }
  return sum;
}

uint64_t gc_count() {
  uint64_t sum = load(g_gc.count);
  for (const Heap* heap = registry_first(); heap; heap = heap->registry_next) sum += load(heap->counters.gc_count);
  return sum;
}

uint64_t gc_time_ns() {
  uint64_t sum = load(g_gc.ns);
  for (const Heap* heap = registry_first(); heap; heap = heap->registry_next) sum += load(heap->counters.gc_ns);
  return sum;
}

bool stats_fill(cmh_alloc_stats_t* stats) {
  if (!stats || stats->size != sizeof(cmh_alloc_stats_t) || stats->version != CMH_ALLOC_STATS_VERSION) return false;
  const uint32_t size = stats->size, version = stats->version;
  memset(stats, 0, sizeof(*stats));
  stats->size = size;
  stats->version = version;
  const Totals totals = process_totals();
  stats->total_allocated_bytes = totals.bytes;
  stats->total_allocations = totals.count;
  if (forward::g_on) return true;  // another allocator: only the totals mean something
  stats->gc_count = load(g_gc.count);
  stats->gc_time_ns = load(g_gc.ns);
  stats->remote_drain_count = load(g_gc.drains);
  stats->retire_count = load(g_gc.retires);
  stats->purge_count = load(g_gc.purges);
  stats->adopt_count = load(g_gc.adopts);
  stats->explicit_collect_count = load(g_gc.explicit_collects);
  for (const Heap* heap = registry_first(); heap; heap = heap->registry_next) {
    const HeapCounters& c = heap->counters;
    stats->gc_count += load(c.gc_count);
    stats->gc_time_ns += load(c.gc_ns);
    stats->remote_drain_count += load(c.drains);
    stats->retire_count += load(c.retires);
    stats->purge_count += load(c.purges);
    stats->adopt_count += load(c.adopts);
    stats->explicit_collect_count += load(c.explicit_collects);
    stats->pages_retired += load(c.pages_retired);
    stats->oom_count += load(c.oom);
    const uint32_t state = heap->state.load(std::memory_order_relaxed);
    stats->live_heaps += state == kHeapLive ? 1 : 0;
    stats->pooled_heaps += (state == kHeapPooled || state == kHeapBusy) ? 1 : 0;
  }
  stats->bytes_purged = g_space.bytes_purged.load(std::memory_order_relaxed);
  stats->reserved_bytes = g_hot.size;
  stats->in_use_bytes = g_space.in_use.load(std::memory_order_relaxed);
  stats->heap_limit_bytes = g_space.heap_limit;
  stats->region_size = g_space.region_size;
  stats->threads_exited = threads_exited();
  stats->numa_mode = static_cast<uint64_t>(numa_decision().mode);
  stats->node_count = static_cast<uint64_t>(g_space.node_count);
  for (int n = 0; n < g_space.node_count; ++n) {
    const NodeStats& s = g_space.nodes[n].stats;
    cmh_alloc_node_stats_t& row = stats->nodes[n];
    row.node_id = g_space.layout->node_id[n];
#define CMH_ALLOC_COPY_(name, description) row.name = load(s.name);
    CMH_ALLOC_NODE_STATS_FIELDS(CMH_ALLOC_COPY_)
#undef CMH_ALLOC_COPY_
    const NodeTotals allocated = node_totals(n);
    row.alloc_bytes = allocated.bytes;
    row.alloc_count = allocated.count;
    row.local_bytes = allocated.local_bytes;
    row.local_count = allocated.local_count;
    stats->committed_bytes += row.committed_bytes;
    stats->dirty_bytes += load(s.dirty_bytes);
    stats->resident_bytes += region_resident_bytes(n);
  }
  return true;
}

size_t stats_json(char* buffer, size_t size) {
  // Static: the struct is ~5 KiB, too much for the stack of an arbitrary thread.
  static cmh_alloc_stats_t stats;
  static SpinLock lock;
  LockGuard guard(lock);
  stats_fill(cmh_alloc_stats_init(&stats));
  char empty[1];
  TextBuffer out(buffer && size ? buffer : empty, buffer && size ? size : 1);
  out.add('{');
#define CMH_ALLOC_JSON_(name, description) out.add("\"" #name "\":").add_uint(stats.name).add(',');
  CMH_ALLOC_STATS_FIELDS(CMH_ALLOC_JSON_)
#undef CMH_ALLOC_JSON_
  out.add("\"nodes\":[");
  for (uint64_t n = 0; n < stats.node_count; ++n) {
    const cmh_alloc_node_stats_t& row = stats.nodes[n];
    out.add(n ? ",{" : "{").add("\"node_id\":").add_int(row.node_id);
#define CMH_ALLOC_JSON_(name, description) out.add(",\"" #name "\":").add_uint(row.name);
    CMH_ALLOC_NODE_STATS_FIELDS(CMH_ALLOC_JSON_)
    CMH_ALLOC_NODE_ALLOC_FIELDS(CMH_ALLOC_JSON_)
#undef CMH_ALLOC_JSON_
    out.add('}');
  }
  out.add("]}");
  return out.length();
}

}  // namespace cmh::allocator
