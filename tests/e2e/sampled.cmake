# End-to-end tests of the sampling profilers (-prof perfasm, -prof flame) on cmh-sampled,
# whose hot code is known (e2e/sampled/sampled_benchmarks.cpp), and cmh-sampled-before, the
# same benchmarks without Sampled.extra's extra call (the "before" run of cmh-compare's
# differential). They skip where this machine does not let a process sample itself.
set(_cmh_sampled_source ${CMAKE_CURRENT_SOURCE_DIR}/e2e/sampled/sampled_benchmarks.cpp)
cmh_add_benchmark(cmh-sampled SOURCES ${_cmh_sampled_source})
cmh_add_e2e_test(sampled_perfasm sampled_perfasm.py
                 ARGS --sampled $<TARGET_FILE:cmh-sampled> --deny-perf $<TARGET_FILE:cmh-deny-perf-events>
                 TIMEOUT 300)
cmh_add_e2e_test(sampled_flame sampled_flame.py ARGS --sampled $<TARGET_FILE:cmh-sampled> TIMEOUT 300)
