// SPDX-License-Identifier: MIT
// Sample 22, TAB: memory allocated by short-lived threads still counts.
//
// This is the benchmark from the JMH pull request behind this project
// (CODETOOLS-7903484). Both benchmarks allocate one megabyte per op; `separate` does it
// in a thread that is started and joined inside the op. A profiler that sums the
// counters of threads alive at the end of the iteration never sees those threads: JMH
// before JDK 21 reported ~336 B/op for `separate`. cmh's `-prof alloc` reads the bundled
// allocator's process-wide total, exited threads included, so both rows show
// ~1,000,000 B/op. `-prof alloc:threads=live` reproduces the old blind spot.
//
//   cmh-samples TAB -prof alloc
//   cmh-samples TAB -prof alloc:threads=live
#include <cmh/cmh.hpp>

#include <cstddef>
#include <memory>
#include <thread>

using namespace std::chrono_literals;

CMH_OPTIONS(TAB, cmh::warmup{5, 1s}, cmh::measurement{5, 1s},
            cmh::fork{1, {"-Xmx1g", "-Xms1g", "-XX:+AlwaysPreTouch"}},
            cmh::mode::throughput, cmh::output_unit{1s});

CMH_BENCHMARK(TAB, inline, cmh::Blackhole& bh) {
  auto p = std::make_unique<std::byte[]>(1'000'000);
  bh.consume(p.get());
}

CMH_BENCHMARK(TAB, separate, cmh::Blackhole& bh) {
  std::thread t([&] {
    auto p = std::make_unique<std::byte[]>(1'000'000);
    bh.consume(p.get());
  });
  t.join();
}
