// SPDX-License-Identifier: MIT
// Sample 19, BatchSize: operations whose cost changes as they run need a fixed amount of work.
//
// Inserting at the front of a vector moves every element already in it, so each
// insert is slower than the one before. Timed iterations are a poor fit: `timed`
// does as many inserts as fit in the iteration time, so its score depends on -r
// (a longer iteration reaches bigger vectors) and the iterations of one run are
// not comparable. Instead, fix the work: `batched` runs in single-shot mode with a
// batch size (JMH's batchSize), so every iteration performs exactly 2,000 inserts
// starting from an empty vector, and setup_iteration resets it. One op is one batch,
// so the score is the time of 2,000 inserts; change -bs and the score changes, but
// every iteration measures the same thing. Single shot also fits cold-start costs,
// with several iterations (and forks) to average them. Do not loop by hand: sample 09.
//
//   cmh-samples BatchSize
//   cmh-samples BatchSize.timed -r 100ms      then with -r 2s: another answer
#include <cmh/cmh.hpp>

#include <vector>

using namespace std::chrono_literals;

CMH_OPTIONS(BatchSize, cmh::output_unit{1us}, cmh::fork{1});

namespace {
struct Front : cmh::ThreadState {
  std::vector<int> values;
  void setup_iteration() { std::vector<int>().swap(values); }
};
}  // namespace

CMH_BENCHMARK(BatchSize, timed, Front& f) {
  f.values.insert(f.values.begin(), 1);
  return f.values.size();
}
CMH_BENCHMARK_OPTIONS(BatchSize, timed, cmh::mode::average_time, cmh::warmup{3, 100ms},
                      cmh::measurement{5, 100ms});

CMH_BENCHMARK(BatchSize, batched, Front& f) {
  f.values.insert(f.values.begin(), 1);
  return f.values.size();
}
CMH_BENCHMARK_OPTIONS(BatchSize, batched, cmh::mode::single_shot,
                      cmh::warmup{.iterations = 5, .batch_size = 2000},
                      cmh::measurement{.iterations = 5, .batch_size = 2000});
