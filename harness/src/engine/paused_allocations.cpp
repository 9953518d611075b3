// SPDX-License-Identifier: MIT
// The process-wide totals behind <cmh/detail/paused_allocations.hpp>.
#include <cmh/detail/paused_allocations.hpp>

namespace cmh::detail {

std::atomic<const ThreadAllocationCounters*> g_paused_counters{nullptr};

namespace {
std::atomic<std::uint64_t> g_paused_bytes{0};
std::atomic<std::uint64_t> g_paused_count{0};
}  // namespace

void paused_add(const PausedMark& mark) noexcept {
  const ThreadAllocationCounters* c = g_paused_counters.load(std::memory_order_relaxed);
  if (c == nullptr) return;  // the profiler went away in between: nothing to keep apart
  const std::uint64_t bytes = c->bytes();
  const std::uint64_t count = c->count();
  // The thread's own counters only grow while it lives.
  if (bytes > mark.bytes) g_paused_bytes.fetch_add(bytes - mark.bytes, std::memory_order_relaxed);
  if (count > mark.count) g_paused_count.fetch_add(count - mark.count, std::memory_order_relaxed);
}

PausedTotals paused_totals() noexcept {
  return {g_paused_bytes.load(std::memory_order_relaxed), g_paused_count.load(std::memory_order_relaxed)};
}

void set_paused_counters(const ThreadAllocationCounters* counters) noexcept {
  g_paused_counters.store(counters, std::memory_order_relaxed);
}

}  // namespace cmh::detail
