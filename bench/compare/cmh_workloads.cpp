// SPDX-License-Identifier: MIT
// cmh's side of the comparison with Google Benchmark: every workload of workloads.hpp
// as Compare.<name>, consumed through cmh::Blackhole. Built twice by bench/compare.cmake:
// on the bundled allocator and on glibc (NO_ALLOCATOR).
#include <cmh/cmh.hpp>

#include "workloads.hpp"

namespace {
struct CmhSink {
  template <class T>
  [[gnu::always_inline]] static void keep(T& value) {
    cmh::Blackhole::consume(value);
  }
};

struct Prepared : cmh::ThreadState, cmh_bench::Inputs {};
}  // namespace

CMH_OPTIONS(Compare, cmh::mode::average_time, cmh::output_unit{cmh::TimeUnit::ns});

CMH_BENCHMARK(Compare, empty, Prepared& in) { cmh_bench::empty<CmhSink>(in); }
CMH_BENCHMARK(Compare, consume_int, Prepared& in) { cmh_bench::consume_int<CmhSink>(in); }
CMH_BENCHMARK(Compare, dependency_chain, Prepared& in) { cmh_bench::dependency_chain<CmhSink>(in); }
CMH_BENCHMARK(Compare, malloc_free_64, Prepared& in) { cmh_bench::malloc_free_64<CmhSink>(in); }
CMH_BENCHMARK(Compare, string_100, Prepared& in) { cmh_bench::string_100<CmhSink>(in); }
CMH_BENCHMARK(Compare, vector_1000, Prepared& in) { cmh_bench::vector_1000<CmhSink>(in); }
CMH_BENCHMARK(Compare, sort_copy_1000, Prepared& in) { cmh_bench::sort_copy_1000<CmhSink>(in); }
CMH_BENCHMARK(Compare, alloc_1mb, Prepared& in) { cmh_bench::alloc_1mb<CmhSink>(in); }
