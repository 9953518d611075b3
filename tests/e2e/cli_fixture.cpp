// SPDX-License-Identifier: MIT
// The benchmark executable of the command-line tests (cmh-cli-fixture): parameters
// with known defaults for -lp and -p, a parameter without default values (an
// error unless -p gives them), and a cheap benchmark for the runs that check that
// flags reach the report.
#include <cmh/cmh.hpp>

#include <string>

struct Sizes : cmh::BenchmarkState {
  int size = 0;
  std::string kind;
  static constexpr auto params = cmh::params(cmh::param("size", &Sizes::size, "1", "10", "100"),
                                             cmh::param("kind", &Sizes::kind, "array"));
};

struct Depth : cmh::BenchmarkState {
  int depth = 0;
  static constexpr auto params = cmh::params(cmh::param("depth", &Depth::depth));
};

CMH_BENCHMARK(CliFixture, sum, Sizes& s) {
  int total = 0;
  for (int i = 0; i < s.size; ++i) total += i;
  return total + static_cast<int>(s.kind.size());
}

CMH_BENCHMARK(CliFixture, empty, cmh::Blackhole& bh) { bh.consume(1); }

CMH_BENCHMARK(CliNoValues, depth, Depth& d) { return d.depth; }
