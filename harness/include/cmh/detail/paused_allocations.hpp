// SPDX-License-Identifier: MIT
// Allocations made while the timing is paused but the profiled window is open: a
// Google Benchmark suite's PauseTiming()..ResumeTiming(), and a JMH-style
// benchmark's invocation fixtures (setup_invocation / teardown_invocation), which
// run around every call, outside its timing. The score leaves that time out;
// -prof alloc leaves those allocations out too unless asked to count them
// (paused=include), so both describe the same code.
//
// The worker brackets such a stretch with paused_begin()/paused_end(): each reads
// the calling thread's own allocator counters, so other threads' timed allocations
// are never taken for it, and the growth is added to process-wide totals the
// profiler reads around the iteration. The readers are installed by -prof alloc
// only: without it a bracket is one relaxed load, and nothing here allocates.
#pragma once

#include <atomic>
#include <cstdint>

namespace cmh::detail {

/// The calling thread's allocation counters (the bundled allocator's).
struct ThreadAllocationCounters {
  std::uint64_t (*bytes)() = nullptr;
  std::uint64_t (*count)() = nullptr;
};

/// Installed while an allocation profiler wants paused allocations kept apart; else null.
extern std::atomic<const ThreadAllocationCounters*> g_paused_counters;

struct PausedMark {
  std::uint64_t bytes = 0;
  std::uint64_t count = 0;
  bool active = false;
};

/// The thread's counters at the start of a paused stretch (inactive when nobody tracks).
[[gnu::always_inline]] inline PausedMark paused_begin() noexcept {
  const ThreadAllocationCounters* c = g_paused_counters.load(std::memory_order_relaxed);
  if (c == nullptr) return {};
  return {c->bytes(), c->count(), true};
}

/// Adds what the thread allocated since `mark` to the paused totals (out of line: rare).
void paused_add(const PausedMark& mark) noexcept;

[[gnu::always_inline]] inline void paused_end(const PausedMark& mark) noexcept {
  if (mark.active) paused_add(mark);
}

struct PausedTotals {
  std::uint64_t bytes = 0;
  std::uint64_t count = 0;
};

/// Everything allocated in paused stretches since the process started (all threads).
PausedTotals paused_totals() noexcept;

/// Installs (or, with nullptr, removes) the counters the brackets read.
void set_paused_counters(const ThreadAllocationCounters* counters) noexcept;

}  // namespace cmh::detail
