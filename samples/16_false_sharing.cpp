// SPDX-License-Identifier: MIT
// Sample 16, FalseSharing: independent data on one cache line is not independent.
//
// Caches move whole lines (64 bytes). Two threads writing two different variables
// that share a line take turns owning it, and each write waits for the line to
// travel between cores, though no value is ever shared. The harness pads every
// state to 128 bytes, so separate states never share a line; fields inside one
// state are not padded. Each of two threads increments its own slot:
//   own_state   each thread's slot is its own cmh::ThreadState: no sharing;
//   adjacent    both slots are neighbours in one cmh::BenchmarkState: false sharing;
//   padded      the same two slots, each alignas(128) (two lines, because adjacent-line
//               prefetchers pull lines in pairs): as fast as own_state again.
// The effect needs both threads running at the same time on two cores; on a loaded
// machine or a VM whose vCPUs share a core they take turns and the gap shrinks.
//
//   cmh-samples FalseSharing
#include <cmh/cmh.hpp>

#include <atomic>
#include <cstdint>

using namespace std::chrono_literals;

CMH_OPTIONS(FalseSharing, cmh::threads{2}, cmh::mode::average_time, cmh::output_unit{1ns},
            cmh::warmup{3, 500ms}, cmh::measurement{5, 500ms}, cmh::fork{1});

namespace {
using Slot = std::atomic<std::uint64_t>;

/// A plain read-modify-write: each slot has a single writer, so no lock is needed.
[[gnu::always_inline]] inline std::uint64_t bump(Slot& s) {
  const std::uint64_t v = s.load(std::memory_order_relaxed) + 1;
  s.store(v, std::memory_order_relaxed);
  return v;
}

struct Own : cmh::ThreadState {
  Slot slot{0};
};
struct Adjacent : cmh::BenchmarkState {
  Slot slots[2] = {};
};
struct Padded : cmh::BenchmarkState {
  struct alignas(128) Line {
    Slot slot{0};
  };
  Line lines[2];
};
}  // namespace

CMH_BENCHMARK(FalseSharing, own_state, Own& o) { return bump(o.slot); }

CMH_BENCHMARK(FalseSharing, adjacent, Adjacent& s, const cmh::ThreadParams& t) {
  return bump(s.slots[t.thread_index % 2]);
}

CMH_BENCHMARK(FalseSharing, padded, Padded& s, const cmh::ThreadParams& t) {
  return bump(s.lines[t.thread_index % 2].slot);
}
