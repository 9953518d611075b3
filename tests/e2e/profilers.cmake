# End-to-end tests of the profilers (-prof, -lprof, alloc/gc, rusage, perf, perfnorm,
# numa), run against build/samples/cmh-samples (TAB) and purpose-built executables:
# cmh-profiled (linked with the bundled allocator, plus a user-registered profiler)
# and cmh-profiled-noalloc (the same sources without the allocator).
cmh_benchmark_objects(cmh_profiled_objects ${CMAKE_CURRENT_SOURCE_DIR}/e2e/profiled/alloc_benchmarks.cpp
                      ${CMAKE_CURRENT_SOURCE_DIR}/e2e/profiled/user_profiler.cpp)
cmh_add_benchmark(cmh-profiled SOURCES $<TARGET_OBJECTS:cmh_profiled_objects>)
cmh_add_benchmark(cmh-profiled-noalloc NO_ALLOCATOR SOURCES $<TARGET_OBJECTS:cmh_profiled_objects>)

# Runs a program with perf_event_open forbidden (seccomp), for perf's "unsupported" path.
add_executable(cmh-deny-perf-events ${CMAKE_CURRENT_SOURCE_DIR}/e2e/profiled/deny_perf_events.cpp)
cmh_apply_warnings(cmh-deny-perf-events)

set(_cmh_profiled_args --profiled $<TARGET_FILE:cmh-profiled>
                       --noalloc $<TARGET_FILE:cmh-profiled-noalloc>
                       --deny-perf $<TARGET_FILE:cmh-deny-perf-events>)
cmh_add_e2e_test(profilers_tab profilers_tab.py TIMEOUT 400)
cmh_add_e2e_test(profilers_alloc profilers_alloc.py ARGS ${_cmh_profiled_args} TIMEOUT 400)
cmh_add_e2e_test(profilers_allocator_choice profilers_allocator_choice.py ARGS ${_cmh_profiled_args} TIMEOUT 400)
cmh_add_e2e_test(profilers_cli profilers_cli.py ARGS ${_cmh_profiled_args} TIMEOUT 200)
cmh_add_e2e_test(profilers_system profilers_system.py ARGS ${_cmh_profiled_args} TIMEOUT 400)

# The alloc profiler on the real allocator without the harness (doctest, its own main).
if(TARGET cmh::alloc)
  add_executable(cmh-profilers-direct ${CMAKE_CURRENT_SOURCE_DIR}/e2e/profiled/alloc_direct_test.cpp)
  cmh_apply_warnings(cmh-profilers-direct)
  target_link_libraries(cmh-profilers-direct PRIVATE cmh_profilers_internals cmh::alloc doctest::doctest)
  add_test(NAME e2e:profilers_direct COMMAND cmh-profilers-direct)
endif()
