// SPDX-License-Identifier: MIT
// Sample 02, Modes: one body, four ways to look at its cost.
//
// `push_back` appends to a vector that is emptied (capacity and all) every 4096
// elements, so most calls write one int while 13 in 4096 reallocate and copy up to
// 8 KiB. The modes answer different questions about the same code:
//   thrpt   calls per second: the rate a caller sees;
//   avgt    time per call, the inverse of thrpt: the rare expensive calls are
//           spread over the cheap ones and vanish into the mean;
//   sample  every so often one call is timed on its own and recorded: the high
//           percentiles show the reallocation spikes the mean hides (amortised
//           O(1) is not O(1) per call), and the very top ones catch the OS too (a
//           preemption is milliseconds). Each sample includes a clock read, so the
//           low percentiles show the clock's cost (~20 ns here), not the op's;
//   ss      one call per iteration, with nothing warmed: the cold cost, here
//           the first allocation. Single shot runs no warmup by default.
// cmh::mode::all asks for the four; -bm on the command line replaces the choice.
//
//   cmh-samples Modes
//   cmh-samples Modes -bm sample -tu us
#include <cmh/cmh.hpp>

#include <cstddef>
#include <vector>

using namespace std::chrono_literals;

CMH_OPTIONS(Modes, cmh::mode::all, cmh::warmup{3, 500ms}, cmh::measurement{5, 500ms},
            cmh::fork{1});

namespace {
struct Growing : cmh::ThreadState {
  static constexpr std::size_t kLimit = 4096;
  std::vector<int> values;
};
}  // namespace

CMH_BENCHMARK(Modes, push_back, Growing& g) {
  if (g.values.size() == Growing::kLimit) std::vector<int>().swap(g.values);  // drop the capacity too
  g.values.push_back(static_cast<int>(g.values.size()));
  return g.values.back();
}
