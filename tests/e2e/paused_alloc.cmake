# -prof alloc and allocations made while the timing is paused: a JMH-style benchmark's
# invocation fixtures (cmh-paused-alloc) and a Google Benchmark suite's
# PauseTiming()..ResumeTiming() (tests/gbench_compat/paused.cpp, built by gbench_compat.cmake).
cmh_add_benchmark(cmh-paused-alloc SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/e2e/paused/invocation_alloc_bench.cpp)
cmh_add_e2e_test(paused_alloc paused_alloc.py ARGS $<TARGET_FILE:cmh-paused-alloc> $<TARGET_FILE:gbc-paused-cmh>
                 TIMEOUT 300)
