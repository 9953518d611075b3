// SPDX-License-Identifier: MIT
// Sample 12, Asymmetric: threads doing different things to the same data, measured together.
//
// Many concurrent structures have unequal sides: writers and readers, producers and
// consumers. Measuring each side alone misses how they slow each other down. A
// thread-group benchmark (JMH's @Group) names its members with CMH_GROUP_BENCHMARK;
// every member runs on its own threads (cmh::group_threads{n}) at the same time,
// sharing the cmh::GroupState instances of their group. Here `inc` writes a counter
// and `get` reads it, and each side slows the other: every increment invalidates the
// reader's copy of the line, and every read pulls the line back into a shared state
// that the next increment must upgrade. Run each side alone (-tg 1,0 and -tg 0,1)
// to see the difference. The report gives the group's score and one secondary row per
// member (Asymmetric.counter:get, :inc). -tg sets the threads per member, in
// declaration order; -t adds whole groups.
//
//   cmh-samples Asymmetric
//   cmh-samples Asymmetric -tg 1,0    the reader alone: every load an L1 hit
#include <cmh/cmh.hpp>

#include <atomic>
#include <cstdint>

using namespace std::chrono_literals;

CMH_OPTIONS(Asymmetric, cmh::mode::average_time, cmh::output_unit{1ns}, cmh::warmup{3, 500ms},
            cmh::measurement{5, 500ms}, cmh::fork{1});

namespace {
struct Counter : cmh::GroupState {
  std::atomic<std::uint64_t> value{0};
};
}  // namespace

CMH_GROUP_BENCHMARK(Asymmetric, counter, get, cmh::group_threads{1}, Counter& c) {
  return c.value.load(std::memory_order_relaxed);
}

CMH_GROUP_BENCHMARK(Asymmetric, counter, inc, cmh::group_threads{1}, Counter& c) {
  return c.value.fetch_add(1, std::memory_order_relaxed);
}
