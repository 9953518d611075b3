# The engine's end-to-end allocation proof (tests/e2e/engine/alloc_check.cpp):
# an executable that interposes malloc and counts every allocation made on any
# thread between the profilers' before_iteration and after_iteration. It links
# the plain harness only (never the bundled allocator: it is its own malloc).
add_executable(cmh-engine-alloc-check ${CMAKE_CURRENT_SOURCE_DIR}/e2e/engine/alloc_check.cpp)
cmh_apply_warnings(cmh-engine-alloc-check)
target_link_libraries(cmh-engine-alloc-check PRIVATE cmh_harness_internals)
add_test(NAME e2e:engine_allocation_free COMMAND cmh-engine-alloc-check)
set_tests_properties(e2e:engine_allocation_free PROPERTIES TIMEOUT 120)
