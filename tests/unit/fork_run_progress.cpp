// SPDX-License-Identifier: MIT
// JMH's run-progress estimate: the projection counts every fork and warmup fork
// (at least one fork, for -f 0), single-shot iterations as 1 ms, and once work
// is done the ETA is the actual time so far scaled by what remains.
#include <doctest/doctest.h>

#include "host/progress.hpp"

using namespace cmh;
using namespace std::chrono_literals;
using cmh::host::RunProgress;

namespace {
BenchmarkParams plan(int forks, int warmup_forks, BenchmarkMode mode = BenchmarkMode::throughput) {
  BenchmarkParams bp;
  bp.mode = mode;
  bp.forks = forks;
  bp.warmup_forks = warmup_forks;
  bp.warmup = {IterationKind::warmup, 2, 1s, 1};
  bp.measurement = {IterationKind::measurement, 3, 2s, 1};
  return bp;
}
}  // namespace

TEST_CASE("run progress: projected from the plan") {
  const auto a = plan(2, 1), b = plan(0, 0);
  CHECK(RunProgress::single_fork_ns(a) == doctest::Approx(8e9));  // 2 x 1 s + 3 x 2 s
  CHECK(RunProgress::single_fork_ns(plan(1, 0, BenchmarkMode::single_shot)) == doctest::Approx(5e6));
  const auto t0 = RunProgress::Clock::time_point{};
  RunProgress p({&a, &b}, t0);
  CHECK(p.fraction_done() == 0.0);
  CHECK(p.eta() == std::chrono::seconds(32));  // (2 + 1) x 8 s + max(1, 0) x 8 s
}

TEST_CASE("run progress: rescaled by the time actually taken") {
  const auto a = plan(3, 1);
  const auto t0 = RunProgress::Clock::time_point{};
  RunProgress p({&a}, t0);
  // One fork projected at 8 s took 12 s: the remaining 3 forks are estimated at 36 s.
  p.fork_done(a, t0 + 12s);
  CHECK(p.fraction_done() == doctest::Approx(0.25));
  CHECK(p.eta() == std::chrono::seconds(36));
  p.fork_done(a, t0 + 16s);  // the second fork took 4 s: 16 s for half the work
  CHECK(p.fraction_done() == doctest::Approx(0.5));
  CHECK(p.eta() == std::chrono::seconds(16));
  p.fork_done(a, t0 + 20s);
  p.fork_done(a, t0 + 24s);
  CHECK(p.fraction_done() == doctest::Approx(1.0));
  CHECK(p.eta() == std::chrono::seconds(0));
}
