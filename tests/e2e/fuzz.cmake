# The fork channel's frame decoder under libFuzzer (clang++ -fsanitize=fuzzer,
# built from the decoder sources alone by tests/fuzz/run_fuzz.py), run for a
# bounded 20 s so that it is part of every `make test`.
cmh_add_e2e_test(fuzz_frame_decoder ../fuzz/run_fuzz.py
  ARGS ${CMAKE_CURRENT_BINARY_DIR}/fuzz 20
  TIMEOUT 240)
