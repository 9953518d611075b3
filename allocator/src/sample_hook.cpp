// SPDX-License-Identifier: MIT
// Allocation sampling for -prof flame:alloc (alloc.h: cmh_alloc_set_sample_hook): a hook
// the slow path calls on an allocating thread once that thread has allocated at least
// `every` bytes since its last call. The slow path runs at least every 256 allocations of
// a thread (kTallyCheck) and whenever a free list runs out, so the hook sees one
// allocation in a few hundred, with the exact bytes since the last one as its weight.
// Nothing here is on the fast path; with no hook set the slow path pays one relaxed load.
#include <cmh/alloc.h>

#include "internal.hpp"

#include <atomic>

namespace cmh::allocator {
namespace {

std::atomic<cmh_alloc_sample_hook_t> g_hook{nullptr};
std::atomic<uint64_t> g_every{0};
std::atomic<void*> g_arg{nullptr};
/// Bumped by every set: a thread re-arms (sets its mark) instead of reporting bytes
/// allocated before the hook was set.
std::atomic<uint64_t> g_generation{0};

// Per thread, initial-exec TLS as the rest of the allocator (no allocation on first use).
CMH_TLS uint64_t t_generation;  ///< the set this thread's mark belongs to
CMH_TLS uint64_t t_bytes;       ///< thread_bytes() at the last call (or when armed)
CMH_TLS bool t_inside;          ///< the hook is running on this thread

}  // namespace

bool sample_hook_set() { return g_hook.load(std::memory_order_relaxed) != nullptr; }

void sample_allocation(size_t size) {
  const cmh_alloc_sample_hook_t hook = g_hook.load(std::memory_order_acquire);
  if (hook == nullptr || t_inside) return;
  const uint64_t generation = g_generation.load(std::memory_order_acquire);
  const uint64_t now = thread_bytes();
  if (t_generation != generation) {
    t_generation = generation;
    t_bytes = now;
    return;
  }
  const uint64_t since = now - t_bytes;
  if (since < g_every.load(std::memory_order_relaxed)) return;
  t_bytes = now;
  t_inside = true;
  hook(size, since, g_arg.load(std::memory_order_relaxed));
  t_inside = false;
}

}  // namespace cmh::allocator

extern "C" CMH_EXPORT void cmh_alloc_set_sample_hook(cmh_alloc_sample_hook_t hook, uint64_t every_bytes, void* arg) {
  using namespace cmh::allocator;
  g_hook.store(nullptr, std::memory_order_release);
  g_every.store(every_bytes, std::memory_order_relaxed);
  g_arg.store(arg, std::memory_order_relaxed);
  g_generation.fetch_add(1, std::memory_order_acq_rel);
  g_hook.store(hook, std::memory_order_release);
}
