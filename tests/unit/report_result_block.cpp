// SPDX-License-Identifier: MIT
// The end-of-benchmark blocks: JMH's Result block on its own published numbers,
// a Sum secondary exactly as JMH prints gc.count, the N <= 2 form, and the
// distribution block of single-shot mode (values checked against scipy by hand).
#include <doctest/doctest.h>

#include "report/result_block.hpp"
#include "results_fixture.hpp"
#include "stats/list_statistics.hpp"

using namespace cmh;

using test::make_iteration;

TEST_CASE("report: the Result block of JMH's golden numbers, and a Sum secondary") {
  BenchmarkRunResult run;
  run.params.benchmark = "Hollow.testReadString";
  run.params.time_unit = TimeUnit::ms;
  ForkResult fork;
  const double scores[] = {47.89632694414653, 45.454670110836894, 47.35651372578907, 47.0, 46.0};
  const double counts[] = {24, 25, 25, 24, 24};
  for (int i = 0; i < 3; ++i)
    fork.measurement.push_back(make_iteration(scores[i], "ops/ms", {{"gc.count", counts[i], "counts", AggregationPolicy::sum}}));
  fork.measurement[0].secondaries.clear();  // padded with a zero
  run.forks = {fork};
  const auto agg = stats::aggregate(run);
  const std::string expected =
      "Result \"Hollow.testReadString\":\n"
      "  46.903 ±(99.9%) 23.399 ops/ms [Average]\n"
      "  (min, avg, max) = (45.455, 46.903, 47.896), stdev = 1.283\n"
      "  CI (99.9%): [23.503, 70.302] (assumes normal distribution)\n"
      "\n"
      "Secondary result \"Hollow.testReadString:gc.count\":\n"
      "  50.000 ±(99.9%) 0.001 counts [Sum]\n"
      "  (min, avg, max) = (≈ 0, 16.667, 25.000), stdev = 14.434\n"
      "  CI (99.9%): [50.000, 50.000] (assumes normal distribution)\n"
      "\n"
      "Robust \"Hollow.testReadString\": 46.903 [43.647, 50.158] ops/ms (95 %, iteration scores, 3 iterations; "
      "one fork: clustered by iteration, blind to fork-to-fork variance); median 47.357 ops/ms; fork-aware interval: "
      "needs 2 forks\n"
      "\n";
  CHECK(report::result_blocks("Hollow.testReadString", agg) == expected);

  // JMH's own gc.count block (reference 3.3): five iterations summed.
  stats::AggregatedMetric gc;
  gc.label = "gc.count";
  gc.unit = "counts";
  gc.policy = AggregationPolicy::sum;
  stats::summarise(stats::ListStatistics({24, 25, 25, 24, 24}), gc);
  CHECK(report::simple_block(gc) ==
        "  122.000 ±(99.9%) 0.001 counts [Sum]\n"
        "  (min, avg, max) = (24.000, 24.400, 25.000), stdev = 0.548\n"
        "  CI (99.9%): [122.000, 122.000] (assumes normal distribution)\n");
}

TEST_CASE("report: with two observations or fewer only the score is printed") {
  stats::AggregatedMetric m;
  m.unit = "ops/s";
  stats::summarise(stats::ListStatistics({46.0, 47.80}), m);
  CHECK(report::simple_block(m) == "  46.900 ops/s\n");
  CHECK(report::distribution_block(m) == "  46.900 ops/s\n");
}

TEST_CASE("report: the distribution block of single-shot mode") {
  BenchmarkRunResult run;
  run.params.benchmark = "Single.shot";
  run.params.mode = BenchmarkMode::single_shot;
  run.params.time_unit = TimeUnit::ms;
  ForkResult fork;
  for (double v : {2.0, 4.0, 9.0, 3.0, 7.0}) fork.measurement.push_back(make_iteration(v, "ms/op"));
  run.forks = {fork};
  const std::string expected =
      "Result \"Single.shot\":\n"
      "  N = 5\n"
      "  mean =      5.000 ±(99.9%) 11.226 ms/op\n"
      "\n"
      "  Histogram, ms/op:\n"
      "    [2.000, 2.500) = 1\n"
      "    [2.500, 3.000) = 0\n"
      "    [3.000, 3.500) = 1\n"
      "    [3.500, 4.000) = 0\n"
      "    [4.000, 4.500) = 1\n"
      "    [4.500, 5.000) = 0\n"
      "    [5.000, 5.500) = 0\n"
      "    [5.500, 6.000) = 0\n"
      "    [6.000, 6.500) = 0\n"
      "    [6.500, 7.000) = 0\n"
      "    [7.000, 7.500) = 1\n"
      "    [7.500, 8.000) = 0\n"
      "    [8.000, 8.500) = 0\n"
      "    [8.500, 9.000) = 0\n"
      "    [9.000, 9.500) = 1\n"
      "\n"
      "  Percentiles, ms/op:\n"
      "      p(0.0000) =      2.000 ms/op\n"
      "     p(50.0000) =      4.000 ms/op\n"
      "     p(90.0000) =      9.000 ms/op\n"
      "     p(95.0000) =      9.000 ms/op\n"
      "     p(99.0000) =      9.000 ms/op\n"
      "     p(99.9000) =      9.000 ms/op\n"
      "     p(99.9900) =      9.000 ms/op\n"
      "     p(99.9990) =      9.000 ms/op\n"
      "     p(99.9999) =      9.000 ms/op\n"
      "    p(100.0000) =      9.000 ms/op\n"
      "\n";
  CHECK(report::result_blocks("Single.shot", stats::aggregate(run)) == expected);
}
