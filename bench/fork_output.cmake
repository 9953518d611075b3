# bench/fork_output: a benchmark that prints a lot, forked against -f 0 (bench/fork_output/run).
cmh_add_benchmark(cmh-bench-fork-output SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fork_output/fork_output_bench.cpp)
