// SPDX-License-Identifier: MIT
// Sample 27, AllocatorChoice: the same benchmark on three allocators, chosen per fork.
//
// Benchmarks run on cmh's bundled allocator by default. The fork argument
// -XX:Allocator=glibc|jemalloc|tcmalloc|mimalloc|<path.so> runs a fork on another one: the
// library is preloaded, and the bundled allocator forwards every call to it while still
// counting exactly. So -prof alloc gives identical B/op and allocs/op on every row (the
// code does the same allocations), while the scores differ (the allocators do not).
// gc.count and gc.time appear on cmh's row only: the others' collections are not visible.
//
//   cmh-samples AllocatorChoice -prof alloc
#include <cmh/cmh.hpp>

#include <map>

using namespace std::chrono_literals;

CMH_OPTIONS(AllocatorChoice, cmh::mode::average_time, cmh::output_unit{1us}, cmh::warmup{3, 500ms},
            cmh::measurement{5, 500ms}, cmh::fork{1});

namespace {
// 1000 map nodes of 40 bytes and their frees: allocation-bound (40,000 B/op, 1000 allocs/op).
void fill_map(cmh::Blackhole& bh) {
  std::map<int, int> m;
  for (int i = 0; i < 1000; ++i) m.emplace((i * 7919) % 1000, i);
  bh.consume(m.size());
}
}  // namespace

CMH_BENCHMARK(AllocatorChoice, cmh, cmh::Blackhole& bh) { fill_map(bh); }
CMH_BENCHMARK(AllocatorChoice, glibc, cmh::Blackhole& bh) { fill_map(bh); }
CMH_BENCHMARK(AllocatorChoice, jemalloc, cmh::Blackhole& bh) { fill_map(bh); }

CMH_BENCHMARK_OPTIONS(AllocatorChoice, glibc, cmh::fork{1, {"-XX:Allocator=glibc"}});
CMH_BENCHMARK_OPTIONS(AllocatorChoice, jemalloc, cmh::fork{1, {"-XX:Allocator=jemalloc"}});
