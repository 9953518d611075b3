# bench/startup: fork start-up (table 4 of bench/RESULTS.md), measured by the `startup`
# profiler linked into its own benchmark executable.
cmh_add_benchmark(cmh-bench-startup SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/startup/startup_bench.cpp)
