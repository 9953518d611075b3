# JMH's warmup modes (-wm INDI|BULK|BULK_INDI) and -wmb: cmh-bulk-warmup's benchmarks
# log every iteration they start, and e2e:bulk_warmup reads back, per process, which
# warmups and measurements ran in which order.
cmh_add_benchmark(cmh-bulk-warmup SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/e2e/warmup/bulk_warmup_bench.cpp)
cmh_add_e2e_test(bulk_warmup bulk_warmup.py ARGS $<TARGET_FILE:cmh-bulk-warmup> TIMEOUT 300)
