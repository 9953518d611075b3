// SPDX-License-Identifier: MIT
// Sample 09, Loops: do not loop inside the body to "amortise" the harness.
//
// It is tempting to repeat an operation N times per call and divide by N
// (cmh::ops_per_invocation{N} does the division). But a loop is exactly what the
// optimiser is best at: here it notices that every repetition adds the same
// x + y and replaces the loop by one multiply, so the "cost per op" falls as N
// grows (`loop_10` ... `loop_1000`) although the real operation did not get any
// cheaper. The harness already calls the body in a loop it keeps opaque to the
// compiler: `single` is the honest measurement. If you must walk over data (N
// different elements), consume each result so that no two steps can be merged
// (`loop_1000_consumed`), and compare against `single` before believing it.
//
//   cmh-samples Loops
#include <cmh/cmh.hpp>

using namespace std::chrono_literals;

CMH_OPTIONS(Loops, cmh::mode::average_time, cmh::output_unit{1ns}, cmh::warmup{3, 500ms},
            cmh::measurement{5, 500ms}, cmh::fork{1});

namespace {
struct Operands : cmh::ThreadState {
  int x = 1, y = 2;
};

template <int N>
int repeated(const Operands& o) {
  int sum = 0;
  for (int i = 0; i < N; ++i) sum += o.x + o.y;
  return sum;
}
}  // namespace

CMH_BENCHMARK(Loops, single, Operands& o) { return o.x + o.y; }

CMH_BENCHMARK(Loops, loop_10, Operands& o) { return repeated<10>(o); }
CMH_BENCHMARK_OPTIONS(Loops, loop_10, cmh::ops_per_invocation{10});

CMH_BENCHMARK(Loops, loop_100, Operands& o) { return repeated<100>(o); }
CMH_BENCHMARK_OPTIONS(Loops, loop_100, cmh::ops_per_invocation{100});

CMH_BENCHMARK(Loops, loop_1000, Operands& o) { return repeated<1000>(o); }
CMH_BENCHMARK_OPTIONS(Loops, loop_1000, cmh::ops_per_invocation{1000});

CMH_BENCHMARK(Loops, loop_1000_consumed, Operands& o) {
  for (int i = 0; i < 1000; ++i) {
    int step = o.x + o.y;
    cmh::Blackhole::consume(step);  // each step must be computed, and computed again
  }
}
CMH_BENCHMARK_OPTIONS(Loops, loop_1000_consumed, cmh::ops_per_invocation{1000});
