# cmh-system (tools/system/) and the harness's -pin and -strict:
#  - system-unit: the knob library and show/tune/reset on fake Intel, AMD and VM trees
#    (--root; nothing is written outside them);
#  - e2e:system_tool: the installed tool on this machine's own tree (show only, as this
#    user and, when run as root, as nobody) and tune refused on a read-only fake tree;
#  - e2e:system_pin: -t 2 -pin cpus checked from inside the fork, -strict.
add_executable(cmh-system-unit-tests ${CMAKE_CURRENT_SOURCE_DIR}/system/main.cpp
               ${CMAKE_CURRENT_SOURCE_DIR}/system/fake_tree.cpp
               ${CMAKE_CURRENT_SOURCE_DIR}/system/machine_test.cpp
               ${CMAKE_CURRENT_SOURCE_DIR}/system/tool_test.cpp)
cmh_apply_warnings(cmh-system-unit-tests)
target_include_directories(cmh-system-unit-tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/system)
target_link_libraries(cmh-system-unit-tests PRIVATE cmh_system_core doctest::doctest)
doctest_discover_tests(cmh-system-unit-tests TEST_PREFIX "system-unit: " ADD_LABELS 0)

cmh_add_e2e_test(system_tool system_tool.py ARGS --tool $<TARGET_FILE:cmh-system> TIMEOUT 60)

cmh_add_benchmark(cmh-pin-bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/e2e/system_pin_bench.cpp)
cmh_add_e2e_test(system_pin system_pin.py ARGS --bench $<TARGET_FILE:cmh-pin-bench> TIMEOUT 200)
# Skipped (77) where this process may run on fewer than 2 CPUs.
set_tests_properties(e2e:system_pin PROPERTIES SKIP_RETURN_CODE 77)
