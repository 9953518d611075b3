// SPDX-License-Identifier: MIT
// bench/compile (issue 10): the same file for Google Benchmark, 10 benchmarks.
// The same bodies as cmh_10.cpp;
// bench/run compiles both and compares (keep the bodies identical).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>

static void sqrt(benchmark::State& state) {
  for (auto _ : state) { double x = 2.0; benchmark::DoNotOptimize(x); benchmark::DoNotOptimize(std::sqrt(x)); }
}
BENCHMARK(sqrt);
static void add(benchmark::State& state) {
  for (auto _ : state) { int a = 1, b = 2; benchmark::DoNotOptimize(a); benchmark::DoNotOptimize(b); benchmark::DoNotOptimize(a + b); }
}
BENCHMARK(add);
static void multiply(benchmark::State& state) {
  for (auto _ : state) { long a = 3, b = 7; benchmark::DoNotOptimize(a); benchmark::DoNotOptimize(a * b); }
}
BENCHMARK(multiply);
static void divide(benchmark::State& state) {
  for (auto _ : state) { unsigned a = 1000, b = 7; benchmark::DoNotOptimize(a); benchmark::DoNotOptimize(b); benchmark::DoNotOptimize(a / b); }
}
BENCHMARK(divide);
static void shift(benchmark::State& state) {
  for (auto _ : state) { unsigned long a = 12345; benchmark::DoNotOptimize(a); benchmark::DoNotOptimize(a << 3); }
}
BENCHMARK(shift);
static void compare(benchmark::State& state) {
  for (auto _ : state) { double a = 1.5, b = 2.5; benchmark::DoNotOptimize(a); benchmark::DoNotOptimize(a < b); }
}
BENCHMARK(compare);
static void array_sum(benchmark::State& state) {
  for (auto _ : state) { int v[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}; benchmark::DoNotOptimize(v); int s = 0; for (int i : v) s += i; benchmark::DoNotOptimize(s); }
}
BENCHMARK(array_sum);
static void string_length(benchmark::State& state) {
  for (auto _ : state) { const char* s = "compile time"; benchmark::DoNotOptimize(s); benchmark::DoNotOptimize(std::strlen(s)); }
}
BENCHMARK(string_length);
static void modulo(benchmark::State& state) {
  for (auto _ : state) { long a = 1000003, b = 97; benchmark::DoNotOptimize(a); benchmark::DoNotOptimize(a % b); }
}
BENCHMARK(modulo);
static void hypot(benchmark::State& state) {
  for (auto _ : state) { double a = 3.0, b = 4.0; benchmark::DoNotOptimize(a); benchmark::DoNotOptimize(std::hypot(a, b)); }
}
BENCHMARK(hypot);
