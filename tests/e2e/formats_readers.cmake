# Result files against readers cmh did not write (github-action-benchmark's jmh and
# googlecpp parsing, reimplemented in e2e/gab_extract.py), and JMH's spellings of
# -prof gc, sample-mode percentiles and single-shot times, on real runs of
# cmh-compare-bench (compare.cmake).
cmh_add_e2e_test(formats_readers formats_readers.py ARGS ${_cmh_compare_args} TIMEOUT 300)
