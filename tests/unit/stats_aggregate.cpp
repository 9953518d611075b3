// SPDX-License-Identifier: MIT
// aggregate(): JMH's pooling of forks and iterations, aggregation policies, zero
// padding of missing secondaries, trial-level results, and sample-time mode
// (N = samples, raw histograms, derived percentiles).
#include <doctest/doctest.h>

#include "results_fixture.hpp"
#include "stats/aggregate.hpp"
#include "stats/list_statistics.hpp"

#include <cmath>

using cmh::AggregationPolicy;
using cmh::BenchmarkMode;
using cmh::BenchmarkRunResult;
using cmh::ForkResult;
using cmh::IterationKind;
using cmh::IterationResult;
using cmh::ScalarResult;
using cmh::stats::aggregate;

namespace {

using cmh::test::close_rel;

IterationResult iteration(int index, double score, std::vector<ScalarResult> secondaries = {},
                          IterationKind kind = IterationKind::measurement) {
  return cmh::test::make_iteration(score, "ops/ms", std::move(secondaries), kind, index);
}

BenchmarkRunResult run_with(BenchmarkMode mode, cmh::TimeUnit unit) {
  BenchmarkRunResult run;
  run.params.benchmark = "Hollow.testReadString";
  run.params.mode = mode;
  run.params.time_unit = unit;
  return run;
}

const cmh::stats::AggregatedMetric* find(const cmh::stats::AggregatedBenchmark& b, std::string_view label) {
  for (const auto& m : b.secondaries)
    if (m.label == label) return &m;
  return nullptr;
}

}  // namespace

TEST_CASE("aggregate: JMH's golden result, with warmups that must not count") {
  auto run = run_with(BenchmarkMode::throughput, cmh::TimeUnit::ms);
  ForkResult fork;
  fork.warmup = {iteration(1, 1.0, {}, IterationKind::warmup), iteration(2, 1000.0, {}, IterationKind::warmup)};
  fork.measurement = {iteration(1, 47.89632694414653), iteration(2, 45.454670110836894),
                      iteration(3, 47.35651372578907)};
  run.forks.push_back(fork);
  const auto agg = aggregate(run);
  REQUIRE(agg.has_results());
  const auto& p = agg.primary;
  CHECK(p.label == "Hollow.testReadString");
  CHECK(p.unit == "ops/ms");
  CHECK(p.n == 3);
  CHECK(close_rel(p.score, 46.902503593590836));
  CHECK(close_rel(p.error, 23.399065583844617));
  CHECK(close_rel(p.confidence.first, 23.50343800974622));
  CHECK(close_rel(p.confidence.second, 70.30156917743545));
  CHECK(p.min == 45.454670110836894);
  CHECK(p.max == 47.89632694414653);
  CHECK(p.percentiles[0] == 45.454670110836894);  // 0
  CHECK(p.percentiles[1] == 47.35651372578907);   // 50
  CHECK(p.percentiles[2] == 47.89632694414653);   // 90
  CHECK(p.percentiles[9] == 47.89632694414653);   // 100
  REQUIRE(p.raw_by_fork.size() == 1);
  CHECK(p.raw_by_fork[0] == std::vector<double>{47.89632694414653, 45.454670110836894, 47.35651372578907});
  CHECK(p.raw_histograms.empty());
  CHECK_FALSE(p.has_distribution);
  CHECK(agg.secondaries.empty());
}

TEST_CASE("aggregate: iterations of all measurement forks are pooled, warmup and failed forks are not") {
  auto run = run_with(BenchmarkMode::average_time, cmh::TimeUnit::ns);
  ForkResult warm;
  warm.warmup_fork = true;
  warm.measurement = {iteration(1, 1e9), iteration(2, 1e9)};
  ForkResult a, b, broken;
  a.index = 1;
  a.measurement = {iteration(1, 10), iteration(2, 12)};
  b.index = 2;
  b.measurement = {iteration(1, 14), iteration(2, 16)};
  broken.index = 3;
  broken.measurement = {iteration(1, 5000)};
  broken.failure = cmh::Failure{cmh::FailureKind::signal, "forked process failed: signal 11", "", 0, 11, {}, {}};
  run.forks = {warm, a, b, broken};
  const auto agg = aggregate(run);
  const auto& p = agg.primary;
  CHECK(p.n == 4);
  CHECK(p.score == 13);
  REQUIRE(p.raw_by_fork.size() == 2);
  CHECK(p.raw_by_fork[1] == std::vector<double>{14, 16});
  const cmh::stats::ListStatistics expected({10, 12, 14, 16});
  CHECK(p.error == doctest::Approx(expected.mean_error_at(0.999)));
  CHECK(p.stdev == doctest::Approx(expected.stdev()));
}

TEST_CASE("aggregate: an empty run has no results and NaN scores") {
  auto run = run_with(BenchmarkMode::throughput, cmh::TimeUnit::s);
  const auto agg = aggregate(run);
  CHECK_FALSE(agg.has_results());
  CHECK(std::isnan(agg.primary.score));
  CHECK(std::isnan(agg.primary.error));
  CHECK(agg.primary.unit == "ops/s");
}

TEST_CASE("aggregate: secondaries follow their own policies") {
  auto run = run_with(BenchmarkMode::throughput, cmh::TimeUnit::s);
  ForkResult fork;
  for (int i = 1; i <= 5; ++i) {
    const double v = i == 3 ? 25.0 : 24.0 + (i % 2);
    fork.measurement.push_back(iteration(i, 100.0 + i,
                                         {{"gc.count", v, "counts", AggregationPolicy::sum},
                                          {"peak", v, "MB", AggregationPolicy::max},
                                          {"floor", v, "MB", AggregationPolicy::min},
                                          {"alloc.rate", v, "MB/sec", AggregationPolicy::average}}));
  }
  run.forks.push_back(fork);
  const auto agg = aggregate(run);
  // Values: 25 24 25 24 25.
  REQUIRE(agg.secondaries.size() == 4);
  CHECK(agg.secondaries[0].label == "alloc.rate");  // sorted by label
  CHECK(agg.secondaries[1].label == "floor");
  CHECK(agg.secondaries[2].label == "gc.count");
  CHECK(agg.secondaries[3].label == "peak");

  const auto* sum = find(agg, "gc.count");
  CHECK(sum->score == 123);
  CHECK(std::isnan(sum->error));
  CHECK(sum->confidence == std::pair<double, double>{123, 123});
  CHECK(sum->mean == doctest::Approx(24.6));
  CHECK(sum->n == 5);
  CHECK(sum->unit == "counts");

  CHECK(find(agg, "peak")->score == 25);
  CHECK(find(agg, "peak")->confidence == std::pair<double, double>{25, 25});
  CHECK(find(agg, "floor")->score == 24);
  const auto* avg = find(agg, "alloc.rate");
  CHECK(avg->score == doctest::Approx(24.6));
  CHECK_FALSE(std::isnan(avg->error));
  CHECK(avg->confidence.first == doctest::Approx(24.6 - avg->error));
}

TEST_CASE("aggregate: a secondary missing from some iterations is padded with zeros") {
  auto run = run_with(BenchmarkMode::throughput, cmh::TimeUnit::s);
  ForkResult a, b;
  a.measurement = {iteration(1, 1, {{"events", 6, "#", AggregationPolicy::average}}), iteration(2, 1),
                   iteration(3, 1, {{"events", 9, "#", AggregationPolicy::average}})};
  b.measurement = {iteration(1, 1), iteration(2, 1, {{"events", 3, "#", AggregationPolicy::average}})};
  run.forks = {a, b};
  const auto agg = aggregate(run);
  const auto* m = find(agg, "events");
  REQUIRE(m != nullptr);
  CHECK(m->n == 5);
  CHECK(m->score == doctest::Approx(18.0 / 5.0));
  CHECK(m->min == 0);
  REQUIRE(m->raw_by_fork.size() == 2);
  CHECK(m->raw_by_fork[0] == std::vector<double>{6, 0, 9});
  CHECK(m->raw_by_fork[1] == std::vector<double>{0, 3});
}

TEST_CASE("aggregate: group members' scores aggregate like any secondary") {
  auto run = run_with(BenchmarkMode::throughput, cmh::TimeUnit::us);
  run.params.group_members = {"get", "put"};
  ForkResult fork;
  for (int i = 1; i <= 3; ++i)
    fork.measurement.push_back(iteration(i, 30.0 * i,
                                         {{"get", 20.0 * i, "ops/us", AggregationPolicy::average},
                                          {"put", 10.0 * i, "ops/us", AggregationPolicy::average}}));
  run.forks.push_back(fork);
  const auto agg = aggregate(run);
  CHECK(agg.primary.score == doctest::Approx(60));
  CHECK(find(agg, "get")->score == doctest::Approx(40));
  CHECK(find(agg, "put")->score == doctest::Approx(20));
  CHECK(find(agg, "put")->n == 3);
}

TEST_CASE("aggregate: external profilers' trial results count once per fork") {
  auto run = run_with(BenchmarkMode::throughput, cmh::TimeUnit::s);
  ForkResult a, b;
  a.measurement = {iteration(1, 1), iteration(2, 1)};
  a.trial_secondaries = {{"perf.cycles", 1000, "#", AggregationPolicy::average}};
  b.measurement = {iteration(1, 1), iteration(2, 1)};
  b.trial_secondaries = {{"perf.cycles", 3000, "#", AggregationPolicy::average}};
  run.forks = {a, b};
  const auto agg = aggregate(run);
  const auto* m = find(agg, "perf.cycles");
  REQUIRE(m != nullptr);
  CHECK(m->n == 2);
  CHECK(m->score == 2000);
  CHECK(std::isnan(m->error));
  CHECK(m->raw_by_fork == std::vector<std::vector<double>>{{1000}, {3000}});
}

TEST_CASE("aggregate: sample-time mode pools every sample in the output unit") {
  auto run = run_with(BenchmarkMode::sample_time, cmh::TimeUnit::us);
  auto sampled = [](int index, std::vector<std::pair<std::int64_t, std::uint64_t>> values) {
    IterationResult r = iteration(index, 0);
    r.primary.unit = "us/op";
    cmh::SampleHistogram h;
    for (auto [v, c] : values) h.record(v, c);
    r.samples = std::move(h);
    return r;
  };
  ForkResult a, b;
  a.measurement = {sampled(1, {{100, 3}, {200, 1}}), sampled(2, {{300, 2}})};
  b.measurement = {sampled(1, {{400, 4}})};
  run.forks = {a, b};
  const auto agg = aggregate(run);
  const auto& p = agg.primary;
  // Pool (us): 0.1 x3, 0.2, 0.3 x2, 0.4 x4 -> n = 10.
  CHECK(p.n == 10);
  CHECK(p.unit == "us/op");
  CHECK(p.score == doctest::Approx((0.3 + 0.2 + 0.6 + 1.6) / 10));
  CHECK(p.min == doctest::Approx(0.1));
  CHECK(p.max == doctest::Approx(0.4));
  CHECK(p.percentiles[1] == doctest::Approx(0.3));  // pos 5.5 between 0.3 and 0.3
  CHECK_FALSE(std::isnan(p.error));
  CHECK(p.has_distribution);
  CHECK_FALSE(p.distribution.empty());
  // Raw histograms per fork, per iteration.
  REQUIRE(p.raw_histograms.size() == 2);
  REQUIRE(p.raw_histograms[0].size() == 2);
  CHECK(p.raw_histograms[0][0].size() == 2);
  CHECK(p.raw_histograms[0][0][0].first == doctest::Approx(0.1));
  CHECK(p.raw_histograms[0][0][0].second == 3);
  CHECK(p.raw_histograms[1][0][0].second == 4);
  CHECK(p.raw_by_fork[0][0] == doctest::Approx(0.125));  // mean of the iteration's samples

  // The derived percentiles, one value each from the pooled samples.
  REQUIRE(agg.secondaries.size() == 8);
  CHECK(agg.secondaries[0].label == "p0.00");
  CHECK(agg.secondaries[7].label == "p1.00");
  const auto* median = find(agg, "p0.50");
  CHECK(median->score == doctest::Approx(0.3));
  CHECK(median->n == 1);
  CHECK(median->unit == "us/op");
  CHECK(std::isnan(median->error));
  CHECK(find(agg, "p0.00")->score == doctest::Approx(0.1));
  CHECK(find(agg, "p1.00")->score == doctest::Approx(0.4));
  CHECK(find(agg, "p0.90")->score == doctest::Approx(0.4));
  // rawData: each iteration's own percentile, per fork, as JMH writes it.
  REQUIRE(median->raw_by_fork.size() == 2);
  REQUIRE(median->raw_by_fork[0].size() == 2);
  REQUIRE(median->raw_by_fork[1].size() == 1);
  CHECK(median->raw_by_fork[0][0] == doctest::Approx(0.1));
  CHECK(median->raw_by_fork[0][1] == doctest::Approx(0.3));
  CHECK(median->raw_by_fork[1][0] == doctest::Approx(0.4));
}

TEST_CASE("aggregate: sample-time raw histograms hold bucket lower bounds, as JMH") {
  auto run = run_with(BenchmarkMode::sample_time, cmh::TimeUnit::ns);
  IterationResult r = iteration(1, 0);
  r.primary.unit = "ns/op";
  cmh::SampleHistogram h;
  h.record(5001, 2);  // above 1024 ns buckets are 8 ns wide here: [5000, 5008)
  h.record(700, 1);   // below 1024 ns every value is its own bucket
  r.samples = std::move(h);
  ForkResult f;
  f.measurement = {r};
  run.forks = {f};
  const auto agg = aggregate(run);
  REQUIRE(agg.primary.raw_histograms.size() == 1);
  const auto& pairs = agg.primary.raw_histograms[0][0];
  REQUIRE(pairs.size() == 2);
  CHECK(pairs[0] == std::pair<double, std::uint64_t>{700.0, 1});
  CHECK(pairs[1] == std::pair<double, std::uint64_t>{5000.0, 2});
  CHECK(cmh::SampleHistogram::representative(cmh::SampleHistogram::index_of(5001)) != 5000.0);  // not the midpoint
}

TEST_CASE("aggregate: single-shot mode averages iterations and has a distribution block") {
  auto run = run_with(BenchmarkMode::single_shot, cmh::TimeUnit::ms);
  ForkResult fork;
  fork.measurement = {iteration(1, 2.0), iteration(2, 4.0), iteration(3, 9.0)};
  run.forks.push_back(fork);
  const auto agg = aggregate(run);
  CHECK(agg.primary.n == 3);
  CHECK(agg.primary.score == 5.0);
  CHECK(agg.primary.has_distribution);
  CHECK(agg.primary.distribution.size() >= 10);
  CHECK(agg.secondaries.empty());  // no derived percentiles outside sample-time mode
}
