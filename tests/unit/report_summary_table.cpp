// SPDX-License-Identifier: MIT
// The summary table: column alignment, sorted (param) columns with N/A, secondary
// rows, blank Cnt for N <= 1, blank Error for NaN and approximate scores, failed
// rows with their reasons below, and planned-but-not-run benchmarks.
#include <doctest/doctest.h>

#include "report/summary_table.hpp"
#include "results_fixture.hpp"

using namespace cmh;

namespace {

using test::make_iteration;

RunResults sample_results() {
  RunResults results;
  BenchmarkRunResult fast;
  fast.params.benchmark = "Bench.fast";
  fast.params.params = {{"size", "64"}, {"type", "arraylist"}};
  ForkResult f1;
  for (double v : {10.0, 20.0, 30.0})
    f1.measurement.push_back(make_iteration(v, "ops/s", {{"alloc.rate.norm", 0.0, "B/op", AggregationPolicy::average}}));
  fast.forks = {f1};

  BenchmarkRunResult slow;
  slow.params.benchmark = "Bench.slow";
  slow.params.mode = BenchmarkMode::average_time;
  slow.params.time_unit = TimeUnit::ns;
  slow.params.params = {{"size", "1024"}};
  ForkResult f2;
  f2.measurement = {make_iteration(0.0001, "ns/op")};
  slow.forks = {f2};

  BenchmarkRunResult crash;
  crash.params.benchmark = "Bench.crash";
  crash.failure = Failure{FailureKind::exception, "vector::at: index 9 out of range", "std::out_of_range", 0, 0, {}, {}};

  results.benchmarks = {fast, slow, crash};
  results.planned = {"Bench.fast thrpt (size = 64, type = arraylist)", "Bench.slow avgt (size = 1024)",
                     "Bench.crash thrpt", "Bench.never thrpt"};
  return results;
}

}  // namespace

TEST_CASE("report: the summary table, column by column") {
  auto results = sample_results();
  results.complete = false;
  const std::string expected =
      "Benchmark                   (size)     (type)   Mode  Cnt   Score     Error  Units\n"
      "Bench.fast                      64  arraylist  thrpt    3  20.000 ± 182.437  ops/s\n"
      "Bench.fast:alloc.rate.norm      64  arraylist  thrpt    3     ≈ 0             B/op\n"
      "Bench.slow                    1024        N/A   avgt       ≈ 10⁻⁴            ns/op\n"
      "Bench.crash                    N/A        N/A  thrpt       FAILED            ops/s\n"
      "\n"
      "Failed (no score; the failure is shown where it happened above):\n"
      "  Bench.crash thrpt: std::out_of_range: vector::at: index 9 out of range\n"
      "\n"
      "Not run (the run stopped early):\n"
      "  Bench.never thrpt\n";
  CHECK(report::summary_table(results) == expected);
}

TEST_CASE("report: a complete run lists unplanned leftovers plainly, and an empty run prints nothing") {
  auto results = sample_results();
  results.complete = true;
  const std::string table = report::summary_table(results);
  CHECK(table.find("\nNot run:\n  Bench.never thrpt\n") != std::string::npos);
  CHECK(report::summary_table(RunResults{}) == "");
}

TEST_CASE("report: without parameters there are no (param) columns, secondaries sort by label") {
  RunResults results;
  BenchmarkRunResult run;
  run.params.benchmark = "TAB.inline";
  ForkResult fork;
  for (int i = 0; i < 5; ++i)
    fork.measurement.push_back(make_iteration(1000.0 + i, "ops/s",
                                        {{"alloc.rate.norm", 1000000.0, "B/op", AggregationPolicy::average},
                                         {"alloc.rate", 953.5, "MB/sec", AggregationPolicy::average}}));
  run.forks = {fork};
  results.benchmarks = {run};
  const std::string expected =
      "Benchmark                    Mode  Cnt        Score   Error   Units\n"
      "TAB.inline                  thrpt    5     1002.000 ± 6.088   ops/s\n"
      "TAB.inline:alloc.rate       thrpt    5      953.500 ± 0.001  MB/sec\n"
      "TAB.inline:alloc.rate.norm  thrpt    5  1000000.000 ± 0.001    B/op\n";
  CHECK(report::summary_table(results) == expected);
}

TEST_CASE("report: benchmark labels carry the mode and the parameters") {
  BenchmarkParams bp;
  bp.benchmark = "Params.get";
  bp.mode = BenchmarkMode::average_time;
  CHECK(report::benchmark_label(bp) == "Params.get avgt");
  bp.params = {{"size", "64"}, {"type", "list"}};
  CHECK(report::benchmark_label(bp) == "Params.get avgt (size = 64, type = list)");
}
