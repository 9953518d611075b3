// SPDX-License-Identifier: MIT
// Sample 26, Reserve: a vector that grows reallocates and copies, over and over.
//
// push_back into an empty std::vector doubles the capacity when it runs out
// (libstdc++): filling it with 1000 ints allocates 11 times (1, 2, 4, ... 1024
// elements), 8188 bytes in total, and moves the contents at each step. reserve(n)
// first makes it one allocation of exactly n ints. -prof alloc shows both:
// alloc.count.norm 11 against 1 and alloc.rate.norm 8188 against 4000 B/op at
// size = 1000. The time difference is smaller than the allocation count suggests
// (the doubling amortises), so count allocations rather than guess from the score.
//
//   cmh-samples Reserve -prof alloc
#include <cmh/cmh.hpp>

#include <vector>

using namespace std::chrono_literals;

CMH_OPTIONS(Reserve, cmh::mode::average_time, cmh::output_unit{1ns}, cmh::warmup{3, 500ms},
            cmh::measurement{5, 500ms}, cmh::fork{1});

namespace {
struct Count : cmh::ThreadState {
  int size = 0;
  static constexpr auto params = cmh::params(cmh::param("size", &Count::size, "10", "1000", "100000"));
};
}  // namespace

CMH_BENCHMARK(Reserve, growing, const Count& n, cmh::Blackhole& bh) {
  std::vector<int> v;
  for (int i = 0; i < n.size; ++i) v.push_back(i);
  bh.consume(v.data());
}

CMH_BENCHMARK(Reserve, reserved, const Count& n, cmh::Blackhole& bh) {
  std::vector<int> v;
  v.reserve(static_cast<std::size_t>(n.size));
  for (int i = 0; i < n.size; ++i) v.push_back(i);
  bh.consume(v.data());
}
