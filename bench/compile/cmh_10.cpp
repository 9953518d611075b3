// SPDX-License-Identifier: MIT
// bench/compile (issue 10): a cmh benchmark file, 10 benchmarks.
// The same bodies as gbench_10.cpp (Google Benchmark);
// bench/run compiles both and compares (keep the bodies identical).
#include <cmh/cmh.hpp>

#include <cmath>
#include <cstring>

CMH_BENCHMARK(Compile, sqrt, cmh::Blackhole& bh) { double x = 2.0; bh.consume(x); bh.consume(std::sqrt(x)); }
CMH_BENCHMARK(Compile, add, cmh::Blackhole& bh) { int a = 1, b = 2; bh.consume(a); bh.consume(b); bh.consume(a + b); }
CMH_BENCHMARK(Compile, multiply, cmh::Blackhole& bh) { long a = 3, b = 7; bh.consume(a); bh.consume(a * b); }
CMH_BENCHMARK(Compile, divide, cmh::Blackhole& bh) { unsigned a = 1000, b = 7; bh.consume(a); bh.consume(b); bh.consume(a / b); }
CMH_BENCHMARK(Compile, shift, cmh::Blackhole& bh) { unsigned long a = 12345; bh.consume(a); bh.consume(a << 3); }
CMH_BENCHMARK(Compile, compare, cmh::Blackhole& bh) { double a = 1.5, b = 2.5; bh.consume(a); bh.consume(a < b); }
CMH_BENCHMARK(Compile, array_sum, cmh::Blackhole& bh) { int v[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}; bh.consume(v); int s = 0; for (int i : v) s += i; bh.consume(s); }
CMH_BENCHMARK(Compile, string_length, cmh::Blackhole& bh) { const char* s = "compile time"; bh.consume(s); bh.consume(std::strlen(s)); }
CMH_BENCHMARK(Compile, modulo, cmh::Blackhole& bh) { long a = 1000003, b = 97; bh.consume(a); bh.consume(a % b); }
CMH_BENCHMARK(Compile, hypot, cmh::Blackhole& bh) { double a = 3.0, b = 4.0; bh.consume(a); bh.consume(std::hypot(a, b)); }
