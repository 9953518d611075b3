# bench/alloc/stress: the allocator stress workloads (one executable each), run by the
# driver bench/alloc/stress/run under every allocator and, at small sizes, by the
# alloc_stress:* tests. Included from bench/ (make bench) and from tests/alloc_stress/
# (make test), whichever comes first defines the targets. The executables link no
# allocator: glibc's malloc or the LD_PRELOAD one is what they measure. They land in
# <build>/bench/alloc-stress/, where the driver finds them.
if(TARGET cmh-stress-larson)
  return()
endif()
set(CMH_STRESS_WORKLOADS producer_consumer larson xmalloc mleak fragmentation small_batches random_small footprint
  rusage)
set(CMH_STRESS_DIR ${PROJECT_BINARY_DIR}/bench/alloc-stress)
add_library(cmh_stress_common STATIC ${CMAKE_CURRENT_LIST_DIR}/stress.c)
target_include_directories(cmh_stress_common PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(cmh_stress_common PUBLIC Threads::Threads ${CMAKE_DL_LIBS})
# GCC must not drop or merge the malloc/free calls being measured.
target_compile_options(cmh_stress_common PUBLIC -fno-builtin-malloc -fno-builtin-free)
if(CMH_WARNINGS)
  target_compile_options(cmh_stress_common PUBLIC -Wall -Wextra)
endif()
foreach(w IN LISTS CMH_STRESS_WORKLOADS)
  string(REPLACE "_" "-" exe ${w})
  if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/${w}.cpp)
    add_executable(cmh-stress-${exe} ${CMAKE_CURRENT_LIST_DIR}/${w}.cpp)
    target_compile_features(cmh-stress-${exe} PRIVATE cxx_std_20)
  else()
    add_executable(cmh-stress-${exe} ${CMAKE_CURRENT_LIST_DIR}/${w}.c)
  endif()
  target_link_libraries(cmh-stress-${exe} PRIVATE cmh_stress_common)
  set_target_properties(cmh-stress-${exe} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMH_STRESS_DIR})
  list(APPEND CMH_STRESS_TARGETS cmh-stress-${exe})
endforeach()
# The driver runs each workload on cmh's libcmhalloc.so too.
add_custom_target(cmh-stress DEPENDS ${CMH_STRESS_TARGETS} cmh_alloc_shared)
