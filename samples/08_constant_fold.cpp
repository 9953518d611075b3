// SPDX-License-Identifier: MIT
// Sample 08, ConstantFold: inputs the compiler can see are answers it can precompute.
//
// std::sqrt of a constant is computed at compile time, so `folded` measures a load
// of the answer. Consuming the result does not help (`folded_consumed`): the
// Blackhole keeps the value, not the work that produced it. The input itself must be
// unknown to the compiler: read it from a state (`from_state`: the harness creates
// states at run time, so their contents are opaque), or launder a constant through
// a non-const cmh::Blackhole::consume first (`laundered`), which tells the compiler
// the variable may have changed. `baseline` returns the input alone, for reference.
//
//   cmh-samples ConstantFold
#include <cmh/cmh.hpp>

#include <cmath>

using namespace std::chrono_literals;

CMH_OPTIONS(ConstantFold, cmh::mode::average_time, cmh::output_unit{1ns},
            cmh::warmup{3, 500ms}, cmh::measurement{5, 500ms}, cmh::fork{1});

namespace {
constexpr double kInput = 3.14159;

struct Input : cmh::ThreadState {
  double x = kInput;
};
}  // namespace

CMH_BENCHMARK(ConstantFold, baseline, Input& in) { return in.x; }

CMH_BENCHMARK(ConstantFold, folded) { return std::sqrt(kInput); }

CMH_BENCHMARK(ConstantFold, folded_consumed, cmh::Blackhole& bh) { bh.consume(std::sqrt(kInput)); }

CMH_BENCHMARK(ConstantFold, from_state, Input& in) { return std::sqrt(in.x); }

CMH_BENCHMARK(ConstantFold, laundered) {
  double x = kInput;
  cmh::Blackhole::consume(x);  // non-const: x may have changed, so nothing is known about it
  return std::sqrt(x);
}
