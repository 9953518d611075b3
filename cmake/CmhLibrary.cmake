# cmh_library(<name> ALIAS <ns::name> SOURCES ... [PUBLIC_INCLUDE ...] [PRIVATE_INCLUDE ...]
#             [PUBLIC_LIBS ...] [PRIVATE_LIBS ...] [CMH_LIBS ...])
#
# Defines a static library with cmh's warnings, and, when CMH_SANITIZER_TESTS is on,
# a twin <name>_asan built with ASan+UBSan. CMH_LIBS are other cmh_library targets:
# the plain library links the plain ones, the twin links their twins, so a sanitized
# test never mixes in uninstrumented harness code. With CMH_TSAN_TESTS (off by default,
# not part of make test: see tests/CMakeLists.txt) there is also a <name>_tsan twin.
set(CMH_SANITIZE_FLAGS -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
# The twins exist to find memory and UB errors, which ASan/UBSan detect at any optimisation
# level. At the build type's -O2 -g, g++ spends about 3x a plain object's CPU time on an
# instrumented one (24 s against 8 s for tests/unit/engine_modes.cpp); at -Og -g1 (line
# tables: reports still name file and line) about as much as a plain one (8 s). The twins
# were half of make test's compile time, so they build at -Og -g1 (after the build type's).
set(CMH_SANITIZE_COMPILE_FLAGS ${CMH_SANITIZE_FLAGS} -Og -g1)
set(CMH_TSAN_FLAGS -fsanitize=thread -fno-omit-frame-pointer)

# Warnings are for cmh's own targets (PRIVATE) and only when cmh is the top-level
# project (CMH_WARNINGS): a project embedding cmh sees no warnings from cmh's sources.
function(cmh_apply_warnings target)
  if(CMH_WARNINGS)
    target_compile_options(${target} PRIVATE -Wall -Wextra)
  endif()
  target_compile_features(${target} PUBLIC cxx_std_20)
endfunction()

function(cmh_library name)
  cmake_parse_arguments(ARG "" "ALIAS"
    "SOURCES;PUBLIC_INCLUDE;PRIVATE_INCLUDE;PUBLIC_LIBS;PRIVATE_LIBS;CMH_LIBS" ${ARGN})
  set(variants "")
  list(APPEND variants "${name}")
  if(CMH_SANITIZER_TESTS AND CMH_BUILD_TESTS)
    list(APPEND variants "${name}_asan")
  endif()
  if(CMH_TSAN_TESTS AND CMH_BUILD_TESTS)
    list(APPEND variants "${name}_tsan")
  endif()
  foreach(target IN LISTS variants)
    add_library(${target} STATIC ${ARG_SOURCES})
    cmh_apply_warnings(${target})
    set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    target_include_directories(${target} PUBLIC ${ARG_PUBLIC_INCLUDE} ${PROJECT_BINARY_DIR}/generated
                               PRIVATE ${ARG_PRIVATE_INCLUDE})
    target_link_libraries(${target} PUBLIC ${ARG_PUBLIC_LIBS} PRIVATE ${ARG_PRIVATE_LIBS})
    foreach(dep IN LISTS ARG_CMH_LIBS)
      if(target MATCHES "_(asan|tsan)$")
        target_link_libraries(${target} PUBLIC ${dep}_${CMAKE_MATCH_1})
      else()
        target_link_libraries(${target} PUBLIC ${dep})
      endif()
    endforeach()
    if(target MATCHES "_asan$")
      # A unity build halves the twin's compile time (17 s against 39 s for 14 harness
      # sources); the plain library keeps one object per source, so an executable links only
      # the objects (and static registrations) it uses.
      set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 12)
      target_compile_options(${target} PUBLIC ${CMH_SANITIZE_COMPILE_FLAGS})
      target_link_options(${target} PUBLIC ${CMH_SANITIZE_FLAGS})
    elseif(target MATCHES "_tsan$")
      target_compile_options(${target} PUBLIC ${CMH_TSAN_FLAGS})
      target_link_options(${target} PUBLIC ${CMH_TSAN_FLAGS})
    endif()
  endforeach()
  if(ARG_ALIAS)
    add_library(${ARG_ALIAS} ALIAS ${name})
  endif()
endfunction()
