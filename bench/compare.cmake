# bench/compare: cmh and Google Benchmark measuring the same workloads (compare/workloads.hpp),
# compiled the same way in this build, each twice: on cmh's bundled allocator and on glibc.
#   cmh-bench-compare           cmh, bundled allocator (also the -prof alloc cost table)
#   cmh-bench-compare-glibc     cmh, NO_ALLOCATOR
#   cmh-bench-gbench            Google Benchmark, linked with cmh's allocator
#   cmh-bench-gbench-glibc      Google Benchmark, glibc (CMH_BENCH_EXTRA_THREAD=1: in a multi-threaded process)
set(_cmh_compare ${CMAKE_CURRENT_SOURCE_DIR}/compare)
cmh_add_benchmark(cmh-bench-compare SOURCES ${_cmh_compare}/cmh_workloads.cpp)
cmh_add_benchmark(cmh-bench-compare-glibc NO_ALLOCATOR SOURCES ${_cmh_compare}/cmh_workloads.cpp)
foreach(variant IN ITEMS cmh-bench-gbench cmh-bench-gbench-glibc)
  add_executable(${variant} ${_cmh_compare}/gbench_workloads.cpp)
  cmh_apply_warnings(${variant})
  target_link_libraries(${variant} PRIVATE benchmark::benchmark Threads::Threads)
endforeach()
target_link_libraries(cmh-bench-gbench PRIVATE cmh::alloc)
