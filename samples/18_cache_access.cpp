// SPDX-License-Identifier: MIT
// Sample 18, CacheAccess: the order of memory accesses can matter more than their number.
//
// Both benchmarks add up every element of the same square matrix of ints, stored row
// after row. `rows` walks it in storage order: consecutive addresses, each 64-byte
// line used 16 times, prefetchers streaming ahead. `columns` jumps a whole row
// (size * 4 bytes) between accesses: every access touches a new line, and for large
// matrices a new page too. With size = 256 the matrix (256 KiB) fits in L2 and the
// gap is modest; with size = 2048 (16 MiB) it falls out of the private caches and
// `columns` is several times slower for the same arithmetic. When two algorithms do
// the same work, the one that touches memory in order usually wins. Scores are per
// pass over the whole matrix (size x size additions).
//
//   cmh-samples CacheAccess
#include <cmh/cmh.hpp>

#include <cstdint>
#include <vector>

using namespace std::chrono_literals;

CMH_OPTIONS(CacheAccess, cmh::mode::average_time, cmh::output_unit{1ns}, cmh::warmup{3, 500ms},
            cmh::measurement{5, 500ms}, cmh::fork{1});

namespace {
struct Matrix : cmh::BenchmarkState {
  int size = 0;
  static constexpr auto params = cmh::params(cmh::param("size", &Matrix::size, "256", "2048"));
  std::vector<int> cells;
  void setup_trial() { cells.assign(static_cast<std::size_t>(size) * size, 1); }
};
}  // namespace

CMH_BENCHMARK(CacheAccess, rows, const Matrix& m) {
  const std::size_t n = static_cast<std::size_t>(m.size);
  std::int64_t sum = 0;
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n; ++c) sum += m.cells[r * n + c];
  return sum;
}

CMH_BENCHMARK(CacheAccess, columns, const Matrix& m) {
  const std::size_t n = static_cast<std::size_t>(m.size);
  std::int64_t sum = 0;
  for (std::size_t c = 0; c < n; ++c)
    for (std::size_t r = 0; r < n; ++r) sum += m.cells[r * n + c];
  return sum;
}
