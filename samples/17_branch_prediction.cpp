// SPDX-License-Identifier: MIT
// Sample 17, BranchPrediction: the same data in another order is another benchmark.
//
// Summing the bytes >= 128 of an array: when the array is sorted, the branch is
// false for the first half and true for the second, and the CPU predicts it almost
// perfectly; shuffled, it mispredicts half the time at ~15 cycles each. So a
// benchmark over sorted, regular or reused input can be far faster than the same
// code on production data. Second twist: whether there is a branch at all is the
// compiler's choice. In the `branchless_*` pair GCC turns the if into a conditional
// move (or vectorises it) and order stops mattering; the `branchy_*` pair puts a
// Blackhole inside the if, which cannot be executed speculatively, so the branch
// stays. Check the assembly (perf annotate, objdump -d) before explaining a result.
// Scores are per element (cmh::ops_per_invocation{kSize}).
//
//   cmh-samples BranchPrediction
#include <cmh/cmh.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

using namespace std::chrono_literals;

CMH_OPTIONS(BranchPrediction, cmh::mode::average_time, cmh::output_unit{1ns},
            cmh::ops_per_invocation{16384}, cmh::warmup{3, 500ms}, cmh::measurement{5, 500ms},
            cmh::fork{1});

namespace {
constexpr std::size_t kSize = 16384;

struct Bytes : cmh::BenchmarkState {
  std::vector<std::uint8_t> shuffled, sorted;
  void setup_trial() {
    std::mt19937 rng(2024);
    for (std::size_t i = 0; i < kSize; ++i) shuffled.push_back(static_cast<std::uint8_t>(rng()));
    sorted = shuffled;
    std::sort(sorted.begin(), sorted.end());
  }
};

std::uint64_t sum_branchless(const std::vector<std::uint8_t>& v) {
  std::uint64_t sum = 0;
  for (auto b : v)
    if (b >= 128) sum += b;
  return sum;
}

std::uint64_t sum_branchy(const std::vector<std::uint8_t>& v) {
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

CMH_BENCHMARK(BranchPrediction, branchy_sorted, const Bytes& d) { return sum_branchy(d.sorted); }
CMH_BENCHMARK(BranchPrediction, branchy_shuffled, const Bytes& d) { return sum_branchy(d.shuffled); }
CMH_BENCHMARK(BranchPrediction, branchless_sorted, const Bytes& d) { return sum_branchless(d.sorted); }
CMH_BENCHMARK(BranchPrediction, branchless_shuffled, const Bytes& d) { return sum_branchless(d.shuffled); }
