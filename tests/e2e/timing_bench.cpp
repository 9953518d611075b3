// SPDX-License-Identifier: MIT
// cmh-timing-bench: the benchmark executable of the "numbers on a busy machine"
// tests. Timing.chain is a chain of dependent multiplies, pure CPU work with no
// memory traffic, whose length is a parameter: 1200 steps is 20 % more work than
// 1000, a CPU regression compare.py must find in cpu_time. Timing.nap sleeps, so
// that it is off the CPU by design. Timing.spawn starts and joins a thread per op
// (as samples/22_tab.cpp's TAB.separate does): its measuring thread blocks on the
// join, and its own children preempt it. Timing.empty has an empty body.
#include <cmh/cmh.hpp>

#include <chrono>
#include <cstdint>
#include <thread>

struct Chain : cmh::BenchmarkState {
  int steps = 0;
  std::uint64_t seed = 12345;
  static constexpr auto params = cmh::params(cmh::param("steps", &Chain::steps, "1000", "1200"));
};

CMH_BENCHMARK(Timing, chain, Chain& c) {
  std::uint64_t x = c.seed;
  for (int i = 0; i < c.steps; ++i) x = x * 6364136223846793005ull + 1;
  return x;
}

CMH_BENCHMARK(Timing, nap) { std::this_thread::sleep_for(std::chrono::microseconds(200)); }

CMH_BENCHMARK(Timing, spawn) {
  std::uint64_t x = 12345;
  std::thread t([&x] {
    for (int i = 0; i < 1000; ++i) x = x * 6364136223846793005ull + 1;
  });
  t.join();
  return x;
}

// An empty body: -subwin's chunked loop must not let the compiler fold it away.
CMH_BENCHMARK(Timing, empty) {}
