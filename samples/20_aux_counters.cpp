// SPDX-License-Identifier: MIT
// Sample 20, AuxCounters: count what the operation did, not only how long it took.
//
// A memoising cache answers each call either from memory (a hit) or by computing
// (a miss), and the score mixes both. Auxiliary counters split it: numeric members
// of a cmh::ThreadState listed in `counters` are zeroed when the measured part of an
// iteration starts and read when it ends, then reported as secondary rows.
//   ops_counter    normalised like the score (here hits/us and misses/us, summed
//                  over threads): a throughput for each kind of outcome;
//   event_counter  a plain total per iteration (unit "#"): evictions happened
//                  this many times, however long the iteration ran.
// With 4096 keys and 1024 slots, about a quarter of the calls hit.
//
//   cmh-samples AuxCounters
#include <cmh/cmh.hpp>

#include <array>
#include <cstdint>

using namespace std::chrono_literals;

CMH_OPTIONS(AuxCounters, cmh::mode::throughput, cmh::output_unit{1us}, cmh::warmup{3, 500ms},
            cmh::measurement{5, 500ms}, cmh::fork{1});

namespace {
struct Memo : cmh::ThreadState {
  struct Slot {
    std::uint32_t key = ~0u;
    std::uint64_t value = 0;
  };
  std::array<Slot, 1024> slots{};
  std::uint64_t rng = 88172645463325252ull;
  std::uint64_t hits = 0, misses = 0, evictions = 0;
  static constexpr auto counters = cmh::aux_counters(cmh::ops_counter("hits", &Memo::hits),
                                                     cmh::ops_counter("misses", &Memo::misses),
                                                     cmh::event_counter("evictions", &Memo::evictions));
};

/// The expensive function being memoised: a chain of dependent multiplies.
std::uint64_t compute(std::uint32_t key) {
  std::uint64_t x = key | 1;
  for (int i = 0; i < 32; ++i) x *= 0x9E3779B97F4A7C15ull;
  return x;
}
}  // namespace

CMH_BENCHMARK(AuxCounters, lookup, Memo& m) {
  m.rng ^= m.rng << 13, m.rng ^= m.rng >> 7, m.rng ^= m.rng << 17;  // xorshift64
  const auto key = static_cast<std::uint32_t>(m.rng % 4096);
  Memo::Slot& slot = m.slots[key % m.slots.size()];
  if (slot.key == key) {
    ++m.hits;
    return slot.value;
  }
  ++m.misses;
  if (slot.key != ~0u) ++m.evictions;
  slot = {key, compute(key)};
  return slot.value;
}
