# The allocator stress suite (bench/alloc/stress/, driver bench/alloc/stress/run).
include(${CMAKE_CURRENT_SOURCE_DIR}/alloc/stress/stress.cmake)
