# End-to-end tests of the profilers (-prof, -lprof, alloc/gc, rusage, perf, perfnorm,
# numa), run against build/samples/cmh-samples (TAB) and purpose-built executables:
# cmh-profiled (linked with the bundled allocator, plus a user-registered profiler)
# and cmh-profiled-noalloc (the same sources without the allocator).
set(_cmh_profiled_sources ${CMAKE_CURRENT_SOURCE_DIR}/e2e/profiled/alloc_benchmarks.cpp
                          ${CMAKE_CURRENT_SOURCE_DIR}/e2e/profiled/user_profiler.cpp)
cmh_add_benchmark(cmh-profiled SOURCES ${_cmh_profiled_sources})
cmh_add_benchmark(cmh-profiled-noalloc NO_ALLOCATOR SOURCES ${_cmh_profiled_sources})

set(_cmh_profiled_args --profiled $<TARGET_FILE:cmh-profiled>
                       --noalloc $<TARGET_FILE:cmh-profiled-noalloc>)
cmh_add_e2e_test(profilers_tab profilers_tab.py TIMEOUT 400)
cmh_add_e2e_test(profilers_alloc profilers_alloc.py ARGS ${_cmh_profiled_args} TIMEOUT 400)
cmh_add_e2e_test(profilers_cli profilers_cli.py ARGS ${_cmh_profiled_args} TIMEOUT 200)
cmh_add_e2e_test(profilers_system profilers_system.py ARGS ${_cmh_profiled_args} TIMEOUT 400)
