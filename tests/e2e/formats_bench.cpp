// SPDX-License-Identifier: MIT
// cmh-formats-bench: the benchmark executable of the result-file tests: a cheap
// loop, one with a parameter whose values need quoting in every format, and one
// that always fails, so real runs exercise params, failures and many formats.
#include <cmh/cmh.hpp>

#include <stdexcept>
#include <string>

struct Kind : cmh::BenchmarkState {
  std::string kind;
  static constexpr auto params = cmh::params(cmh::param("kind", &Kind::kind, "plain", "a b,\"c\";d_#{}"));
};

// About a microsecond per op, so compare.py's Time columns (printed as whole ns) show it.
CMH_BENCHMARK(Formats, spin, cmh::Blackhole& bh) {
  for (unsigned i = 0; i < 1000; ++i) bh.consume(i);
}

CMH_BENCHMARK(Formats, param, Kind& k, cmh::Blackhole& bh) {
  for (char c : k.kind) bh.consume(c);
}

CMH_BENCHMARK(Formats, fails) {
  throw std::runtime_error("deliberate \"failure\" \\ with quotes");
  return 0;
}
