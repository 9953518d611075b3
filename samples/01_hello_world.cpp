// SPDX-License-Identifier: MIT
// Sample 01, HelloWorld: a benchmark is a function body; the harness is everything else.
//
// CMH_BENCHMARK(Group, name) registers Group.name before main() runs. The executable
// then forks a fresh process for each benchmark, calls the body in a tight loop for
// warmup iterations (thrown away) and measurement iterations (kept), and turns the
// counts into a score with a 99.9 % confidence interval, printed as JMH prints it.
// This body is empty, so its score is the harness's own cost per call: about one
// clock cycle. Nothing measured with this executable can be resolved below that.
//
//   cmh-samples HelloWorld                      3 forks x (3 warmup + 5 measured) x 1 s
//   cmh-samples HelloWorld -f 1 -i 3 -bm avgt   one fork, time per op instead of ops/s
#include <cmh/cmh.hpp>

CMH_BENCHMARK(HelloWorld, empty) {
  // Intentionally empty: what is measured is the loop that calls this body.
}
