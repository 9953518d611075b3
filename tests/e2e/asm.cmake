# Blackhole::consume against the compiler: tests/asm/check_blackhole.py compiles
# tests/asm/blackhole_probe.cpp with -O2 -S and checks that consumed work is in
# the assembly, that the sink itself costs no instruction, and that the same
# work unconsumed is gone. Run with the project's compiler, and with clang when
# it is installed (consume() has a clang-specific constraint).
cmh_add_e2e_test(asm_blackhole_cxx ../asm/check_blackhole.py
  ARGS ${CMAKE_CXX_COMPILER} ${PROJECT_SOURCE_DIR}/harness/include ${CMAKE_CURRENT_SOURCE_DIR}/asm/blackhole_probe.cpp
  TIMEOUT 120)
find_program(CMH_CLANGXX NAMES clang++ clang++-14)
if(CMH_CLANGXX)
  cmh_add_e2e_test(asm_blackhole_clang ../asm/check_blackhole.py
    ARGS ${CMH_CLANGXX} ${PROJECT_SOURCE_DIR}/harness/include ${CMAKE_CURRENT_SOURCE_DIR}/asm/blackhole_probe.cpp
    TIMEOUT 120)
endif()
