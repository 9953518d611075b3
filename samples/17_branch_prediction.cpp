// SPDX-License-Identifier: MIT
// Sample 17, BranchPrediction: the same data in another order is another benchmark.
//
// Summing the bytes >= 128 of an array: sorted, the branch is false for the first half
// and true for the second, and the CPU predicts it almost perfectly; shuffled, it is a
// coin toss and each misprediction costs ~15 cycles. Three traps hide in that:
//  - replayed input: a benchmark feeds the same array call after call, and modern
//    predictors memorise long patterns. With size = 16384 the "random" array is
//    learned after a few passes and `branchy_shuffled` runs as fast as sorted; only a
//    sequence too long to memorise (size = 1048576) shows the real cost. Each call
//    walks the next 16384 elements, so scores are per element at every size;
//  - whether there is a branch at all is the compiler's choice: in `branchless_*` GCC
//    turns the if into a conditional move and order stops mattering; `branchy_*` puts a
//    Blackhole in the if, which cannot run speculatively, so the branch stays;
//  - so check the assembly (objdump -d, perf annotate) before explaining a result.
//
//   cmh-samples BranchPrediction
#include <cmh/cmh.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <span>
#include <stdexcept>
#include <vector>

using namespace std::chrono_literals;

namespace {
constexpr std::size_t kWindow = 16384;

struct Bytes : cmh::ThreadState {
  std::size_t size = 0;
  static constexpr auto params = cmh::params(cmh::param("size", &Bytes::size, "16384", "1048576"));
  std::vector<std::uint8_t> shuffled, sorted;
  std::size_t offset = 0;

  void setup_trial() {
    if (size == 0 || size % kWindow != 0) throw std::invalid_argument("size must be a multiple of 16384");
    std::mt19937 rng(2024);
    for (std::size_t i = 0; i < size; ++i) shuffled.push_back(static_cast<std::uint8_t>(rng()));
    sorted = shuffled;
    std::sort(sorted.begin(), sorted.end());
  }
  /// The next kWindow elements of `v`, wrapping around at its end.
  std::span<const std::uint8_t> next(const std::vector<std::uint8_t>& v) {
    const std::span<const std::uint8_t> window(v.data() + offset, kWindow);
    offset = (offset + kWindow) % size;
    return window;
  }
};

std::uint64_t sum_branchless(std::span<const std::uint8_t> v) {
  std::uint64_t sum = 0;
  for (auto b : v)
    if (b >= 128) sum += b;
  return sum;
}

std::uint64_t sum_branchy(std::span<const std::uint8_t> v) {
  std::uint64_t sum = 0;
  for (auto b : v) {
    if (b >= 128) {
      sum += b;
      cmh::Blackhole::consume(sum);  // an asm statement: the compiler must keep the branch
    }
  }
  return sum;
}
}  // namespace

CMH_OPTIONS(BranchPrediction, cmh::mode::average_time, cmh::output_unit{1ns},
            cmh::ops_per_invocation{kWindow}, cmh::warmup{3, 500ms}, cmh::measurement{5, 500ms},
            cmh::fork{1});

CMH_BENCHMARK(BranchPrediction, branchy_sorted, Bytes& d) { return sum_branchy(d.next(d.sorted)); }
CMH_BENCHMARK(BranchPrediction, branchy_shuffled, Bytes& d) { return sum_branchy(d.next(d.shuffled)); }
CMH_BENCHMARK(BranchPrediction, branchless_sorted, Bytes& d) { return sum_branchless(d.next(d.sorted)); }
CMH_BENCHMARK(BranchPrediction, branchless_shuffled, Bytes& d) { return sum_branchless(d.next(d.shuffled)); }
