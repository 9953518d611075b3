# bench/machine: what the machine's knobs do to a memory-bound benchmark
# (bench/machine/run; docs/preparing-the-machine.md).
cmh_add_benchmark(cmh-bench-machine SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/machine/machine_bench.cpp)
