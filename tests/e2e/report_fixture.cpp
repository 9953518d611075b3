// SPDX-License-Identifier: MIT
// The benchmark executable of the report tests (cmh-report-fixture): a
// parameterised benchmark whose iteration lines the test re-aggregates, a
// group benchmark with member secondaries, and one that always throws, for the
// FAILED row of the summary table.
#include <cmh/cmh.hpp>

#include <stdexcept>

struct Work : cmh::BenchmarkState {
  int tokens = 0;
  static constexpr auto params = cmh::params(cmh::param("tokens", &Work::tokens, "50", "200"));
};

CMH_BENCHMARK(Report, spin, Work& w) { cmh::Blackhole::consume_cpu(static_cast<std::uint64_t>(w.tokens)); }

CMH_BENCHMARK(Report, fails, cmh::Blackhole& bh) {
  bh.consume(1);
  throw std::runtime_error("deliberate failure for the report test");
}
