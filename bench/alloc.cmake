# bench/alloc: cmh's allocator against glibc, jemalloc, mimalloc and tcmalloc
# (bench/alloc/run.sh <build-dir>). The executable links no allocator: every allocator,
# cmh's libcmhalloc.so included, comes in through LD_PRELOAD, so all pay the same PLT call.
add_executable(cmh-alloc-bench ${CMAKE_CURRENT_SOURCE_DIR}/alloc/alloc_bench.cpp)
cmh_apply_warnings(cmh-alloc-bench)
# Keep GCC from removing malloc/free pairs it can see through.
target_compile_options(cmh-alloc-bench PRIVATE -fno-builtin-malloc -fno-builtin-free)
target_link_libraries(cmh-alloc-bench PRIVATE Threads::Threads ${CMAKE_DL_LIBS})
add_dependencies(cmh-alloc-bench cmh_alloc_shared)
