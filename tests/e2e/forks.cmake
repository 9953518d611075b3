# End-to-end tests of forked execution (issue 4): fork lines, pooling and
# progress; every fault in a fork reported and contained; fork arguments
# reaching the fork; signals, kill -9 and the run lock. They run the purpose-built
# benchmarks of e2e/faults/fork_faults.cpp, each with short iterations; start_hang.cpp
# hangs a fork in its static initialisation when told to (fork_start).
cmh_add_benchmark(cmh-fork-faults SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/e2e/faults/fork_faults.cpp
                  ${CMAKE_CURRENT_SOURCE_DIR}/e2e/faults/start_hang.cpp)

set(_cmh_fork_exe $<TARGET_FILE:cmh-fork-faults>)
cmh_add_e2e_test(fork_runs fork_runs.py ARGS ${_cmh_fork_exe} TIMEOUT 180)
cmh_add_e2e_test(fork_crashes fork_crashes.py ARGS ${_cmh_fork_exe} TIMEOUT 180)
cmh_add_e2e_test(fork_watchdog fork_watchdog.py ARGS ${_cmh_fork_exe} TIMEOUT 180)
cmh_add_e2e_test(fork_output fork_output.py ARGS ${_cmh_fork_exe} TIMEOUT 180)
cmh_add_e2e_test(fork_oom fork_oom.py ARGS ${_cmh_fork_exe} TIMEOUT 120)
cmh_add_e2e_test(fork_args fork_args.py ARGS ${_cmh_fork_exe} TIMEOUT 180)
cmh_add_e2e_test(fork_signals fork_signals.py ARGS ${_cmh_fork_exe} TIMEOUT 180)
cmh_add_e2e_test(fork_start fork_start.py ARGS ${_cmh_fork_exe} TIMEOUT 120)
