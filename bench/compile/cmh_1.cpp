// SPDX-License-Identifier: MIT
// bench/compile (issue 10): a cmh benchmark file, 1 benchmark.
// The same bodies as gbench_1.cpp (Google Benchmark);
// bench/run compiles both and compares (keep the bodies identical).
#include <cmh/cmh.hpp>

#include <cmath>
#include <cstring>

CMH_BENCHMARK(Compile, sqrt, cmh::Blackhole& bh) { double x = 2.0; bh.consume(x); bh.consume(std::sqrt(x)); }
