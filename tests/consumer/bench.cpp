// SPDX-License-Identifier: MIT
// The benchmark of the consumer tests (tests/e2e/consumer.cmake): a user's file, built
// outside cmh's tree. std::vector<int>(1000) allocates exactly 4000 bytes per call.
#include <cmh/cmh.hpp>

#include <vector>

CMH_BENCHMARK(Consumer, vector, cmh::Blackhole& bh) {
  std::vector<int> v(1000);
  bh.consume(v.data());
}
