// SPDX-License-Identifier: MIT
// TextReport on fixed, synthetic input: the header lines (forks, groups, sync,
// timeout, batch, single-shot, warnings), iteration lines with aligned
// secondaries, failures, the in-process notice, verbosity, and one whole run
// compared with tests/golden/report/console.txt (CMH_UPDATE_GOLDEN=1 rewrites it).
#include <doctest/doctest.h>

#include "report/text_report.hpp"
#include "results_fixture.hpp"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace cmh;
using namespace std::chrono_literals;

namespace {

model::RunContext fixed_context() {
  model::RunContext ctx;
  ctx.executable = "/opt/bench/cmh-samples";
  ctx.compiler = "GCC 12.2.0";
  ctx.compiler_flags = "-O2 -g -DNDEBUG -std=c++20";
  ctx.cmh_version = "0.1.0";
  ctx.warnings = {"Running under a hypervisor (KVM): other guests and the host steal time, timers and counters "
                  "may be virtualised."};
  return ctx;
}

BenchmarkParams tab_inline() {
  BenchmarkParams bp;
  bp.benchmark = "TAB.inline";
  bp.group = "TAB";
  bp.name = "inline";
  bp.forks = 2;
  bp.fork_args = {"-Xmx1g", "-Xms1g", "-XX:+AlwaysPreTouch"};
  bp.warmup = {IterationKind::warmup, 2, 1s, 1};
  bp.measurement = {IterationKind::measurement, 3, 1s, 1};
  bp.params = {{"size", "64"}};
  return bp;
}

IterationResult result(IterationKind kind, int index, double score, std::string unit,
                       std::vector<ScalarResult> secondaries = {}) {
  return test::make_iteration(score, std::move(unit), std::move(secondaries), kind, index);
}

std::string header_of(const BenchmarkParams& bp, std::vector<std::string> warnings = {}) {
  return report::header_text(bp, fixed_context(), warnings);
}

}  // namespace

TEST_CASE("report: the header of a forked, parameterised benchmark") {
  const std::string expected =
      "# cmh version: 0.1.0\n"
      "# Compiler: GCC 12.2.0, flags -O2 -g -DNDEBUG -std=c++20\n"
      "# Executable: /opt/bench/cmh-samples\n"
      "# Fork options: -Xmx1g -Xms1g -XX:+AlwaysPreTouch\n"
      "# *** WARNING: Running under a hypervisor (KVM): other guests and the host steal time, timers and "
      "counters may be virtualised. ***\n"
      "# *** WARNING: The load average is high. ***\n"
      "# Warmup: 2 iterations, 1 s each\n"
      "# Measurement: 3 iterations, 1 s each\n"
      "# Timeout: 10 min per iteration\n"
      "# Threads: 1 thread, will synchronize iterations\n"
      "# Benchmark mode: Throughput, ops/time\n"
      "# Benchmark: TAB.inline\n"
      "# Parameters: (size = 64)\n";
  // A warning the context already has is printed once.
  CHECK(header_of(tab_inline(), {"The load average is high.", fixed_context().warnings[0]}) == expected);
}

TEST_CASE("report: header variants: groups, no sync, low timeout, batches, single shot, no warmup") {
  BenchmarkParams bp;
  bp.benchmark = "Groups.readers";
  bp.mode = BenchmarkMode::average_time;
  bp.threads = 8;
  bp.thread_groups = {3, 1};
  bp.group_members = {"get", "put"};
  bp.sync_iterations = false;
  bp.timeout = 1s;
  bp.warmup = {IterationKind::warmup, 0, 1s, 1};
  bp.measurement = {IterationKind::measurement, 1, 1500ms, 4};
  const std::string h = header_of(bp);
  CHECK(h.find("# Fork options: <none>\n") != std::string::npos);
  CHECK(h.find("# Warmup: <none>\n") != std::string::npos);
  CHECK(h.find("# Measurement: 1 iteration, 1500 ms each, 4 calls per op\n") != std::string::npos);
  CHECK(h.find("# Timeout: 1 s per iteration, ***WARNING: The timeout might be too low!***\n") != std::string::npos);
  CHECK(h.find("# Threads: 8 threads (2 groups; 3x \"get\", 1x \"put\" in each group), "
               "***WARNING: Synchronize iterations are disabled!***\n") != std::string::npos);
  CHECK(h.find("# Benchmark mode: Average time, time/op\n") != std::string::npos);
  CHECK(h.find("# Parameters") == std::string::npos);

  BenchmarkParams ss;
  ss.benchmark = "Cold.start";
  ss.mode = BenchmarkMode::single_shot;
  ss.timeout = 1s;  // no iteration time in single-shot mode: no warning
  ss.forks = 0;
  ss.fork_args = {"-Xmx64m"};
  const std::string s = header_of(ss);
  CHECK(s.find("# Fork options: -Xmx64m (not applied: the benchmark runs in the host process)\n") != std::string::npos);
  CHECK(s.find("# Warmup: 3 iterations, single-shot each\n") != std::string::npos);
  CHECK(s.find("# Timeout: 1 s per iteration\n") != std::string::npos);
  CHECK(s.find("# Threads: 1 thread\n") != std::string::npos);  // nothing to synchronise
  CHECK(s.find("# Benchmark mode: Single shot invocation time\n") != std::string::npos);
}

TEST_CASE("report: iteration lines, secondaries only under measurement iterations, aligned") {
  std::ostringstream out;
  report::TextReport rep(out, fixed_context());
  const auto bp = tab_inline();
  rep.fork_start(1, 2, false);
  rep.iteration_start(bp, bp.warmup, 1);
  rep.iteration_result(bp, result(IterationKind::warmup, 1, 13.631, "ns/op", {{"alloc.rate", 5.0, "MB/sec"}}));
  rep.iteration_start(bp, bp.measurement, 1);
  rep.iteration_result(bp, result(IterationKind::measurement, 1, 12.744, "ns/op",
                                  {{"alloc.rate.norm", 80.0, "B/op"}, {"alloc.rate", 5986.555, "MB/sec"}}));
  rep.iteration_start(bp, bp.measurement, 2);
  auto timed_out = result(IterationKind::measurement, 2, 0.00001, "ns/op");
  timed_out.timed_out = true;
  rep.iteration_result(bp, timed_out);
  CHECK(out.str() ==
        "# Fork: 1 of 2\n"
        "# Warmup Iteration   1: 13.631 ns/op\n"
        "Iteration   1: 12.744 ns/op\n"
        "                 alloc.rate:      5986.555 MB/sec\n"
        "                 alloc.rate.norm: 80.000 B/op\n"
        "\n"
        "Iteration   2: (benchmark timed out) ≈ 10⁻⁵ ns/op\n");
}

TEST_CASE("report: sample-time iterations print their error and percentiles") {
  std::ostringstream out;
  report::TextReport rep(out, fixed_context());
  BenchmarkParams bp;
  bp.benchmark = "Sample.get";
  bp.mode = BenchmarkMode::sample_time;
  bp.time_unit = TimeUnit::ns;
  auto r = result(IterationKind::measurement, 1, 0, "ns/op");
  SampleHistogram h;
  h.record(10, 2);
  h.record(20, 2);
  r.samples = h;
  rep.iteration_start(bp, bp.measurement, 1);
  rep.iteration_result(bp, r);
  // Four samples: mean 15, s = 5.774, t(0.999, 3) = 12.924 -> error 37.308.
  CHECK(out.str() ==
        "Iteration   1: 15.000 ±(99.9%) 37.308 ns/op\n"
        "                 p0.00:   10.000 ns/op\n"
        "                 p0.50:   15.000 ns/op\n"
        "                 p0.90:   20.000 ns/op\n"
        "                 p0.95:   20.000 ns/op\n"
        "                 p0.99:   20.000 ns/op\n"
        "                 p0.999:  20.000 ns/op\n"
        "                 p0.9999: 20.000 ns/op\n"
        "                 p1.00:   20.000 ns/op\n"
        "\n");
}

TEST_CASE("report: failures, interrupted lines and the in-process notice") {
  std::ostringstream out;
  report::TextReport rep(out, fixed_context());
  const auto bp = tab_inline();
  rep.run_progress(0.375, 72s);
  rep.fork_start(0, 0, false);
  rep.iteration_start(bp, bp.measurement, 1);
  rep.fork_output(false, "a line the benchmark printed");
  rep.iteration_result(bp, result(IterationKind::measurement, 1, 2.5, "ops/s"));
  rep.iteration_start(bp, bp.measurement, 2);
  rep.iteration_failure(bp, Failure{FailureKind::exception, "boom", "std::runtime_error", 0, 0, {}, {}});
  rep.fork_failure(bp, Failure{FailureKind::signal, "forked process failed: signal 11 (Segmentation fault)", "", 0,
                               11, {}, {"Segmentation fault (core dumped)"}});
  CHECK(out.str() ==
        "# Run progress: 37.50% complete, ETA 00:01:12\n"
        "# Fork: N/A, test runs in the host process\n"
        "# *** WARNING: Non-forked runs share the host's heap, threads and caches, ignore the fork options "
        "(allocator settings included) and can confuse profilers. ***\n"
        "# *** WARNING: Run in the host process only to debug a benchmark, never to measure one. ***\n"
        "Iteration   1: \n"
        "a line the benchmark printed\n"
        "Iteration   1: 2.500 ops/s\n"
        "Iteration   2: <failure>\n"
        "\n"
        "std::runtime_error: boom\n"
        "\n"
        "<forked process failed: signal 11 (Segmentation fault)>\n"
        "<stderr last='1 line'>\n"
        "Segmentation fault (core dumped)\n"
        "</stderr>\n"
        "\n");
}

TEST_CASE("report: a fork hung at start-up shows its stacks after its output tails") {
  std::ostringstream out;
  report::TextReport rep(out, fixed_context());
  Failure f;
  f.kind = FailureKind::startup_timeout;
  f.message = "forked process hung at start-up: no handshake within 1 s";
  f.stderr_tail = {"printed by a static constructor"};
  f.stack = {"Thread 7:", "  #0 pause at pause.c:29"};
  rep.fork_failure(tab_inline(), f);
  CHECK(out.str() ==
        "<forked process hung at start-up: no handshake within 1 s>\n"
        "<stderr last='1 line'>\nprinted by a static constructor\n</stderr>\n"
        "<stack>\nThread 7:\n  #0 pause at pause.c:29\n</stack>\n\n");
}

TEST_CASE("report: only a complete run says so") {
  for (const bool complete : {true, false}) {
    std::ostringstream out;
    report::TextReport rep(out, fixed_context());
    RunResults results;
    results.complete = complete;
    rep.run_end(results, 83s);
    CHECK(out.str().rfind(complete ? "# Run complete. Total time: 00:01:23\n\n"
                                   : "# Run stopped early. Total time: 00:01:23\n\n",
                          0) == 0);
    CHECK(out.str().find("Benchmark ") == std::string::npos);  // nothing ran, nothing planned: no table
  }
}

TEST_CASE("report: a failed benchmark says so in its result line") {
  std::ostringstream out;
  report::TextReport rep(out, fixed_context());
  BenchmarkRunResult run;
  run.params = tab_inline();
  run.failure = Failure{FailureKind::timeout, "iteration 2 ran past the 10 min timeout", "", 0, 0, {}, {}};
  rep.benchmark_end(run);
  CHECK(out.str() == "Result \"TAB.inline\": FAILED (iteration 2 ran past the 10 min timeout)\n\n\n");
}

TEST_CASE("report: silent prints nothing, verbose lines need -v EXTRA") {
  std::ostringstream silent_out, normal_out, extra_out;
  report::TextReport silent(silent_out, fixed_context(), report::Verbosity::silent);
  report::TextReport normal(normal_out, fixed_context(), report::Verbosity::normal);
  report::TextReport extra(extra_out, fixed_context(), report::Verbosity::extra);
  for (report::TextReport* r : {&silent, &normal, &extra}) {
    r->benchmark_header(tab_inline(), {});
    r->println("# plain");
    r->verbose_println("# verbose");
  }
  CHECK(silent_out.str().empty());
  CHECK(normal_out.str().find("# plain\n") != std::string::npos);
  CHECK(normal_out.str().find("# verbose") == std::string::npos);
  CHECK(extra_out.str().find("# verbose\n") != std::string::npos);
}

TEST_CASE("report: a whole run matches the golden console text") {
  std::ostringstream out;
  report::TextReport rep(out, fixed_context());
  RunResults all;
  all.planned = {"TAB.inline thrpt (size = 64)", "Sample.get sample", "TAB.crash thrpt", "TAB.separate thrpt"};

  // A forked benchmark: two forks, warmup and measurement, allocation secondaries.
  const auto bp = tab_inline();
  rep.benchmark_header(bp, {});
  BenchmarkRunResult inline_run;
  inline_run.params = bp;
  const double scores[2][3] = {{1234567.5, 1250000.25, 1198000.0}, {1222222.0, 1233333.0, 1244444.0}};
  for (int f = 0; f < 2; ++f) {
    rep.run_progress(f / 4.0, std::chrono::seconds(72 - 18 * f));
    rep.fork_start(f + 1, 2, false);
    ForkResult fork;
    fork.index = f + 1;
    for (int i = 1; i <= 2; ++i) {
      rep.iteration_start(bp, bp.warmup, i);
      fork.warmup.push_back(result(IterationKind::warmup, i, 900000.0 + 1000 * i, "ops/s"));
      rep.iteration_result(bp, fork.warmup.back());
    }
    for (int i = 1; i <= 3; ++i) {
      rep.iteration_start(bp, bp.measurement, i);
      std::vector<ScalarResult> secondaries = {{"alloc.rate.norm", 1000000.0, "B/op"},
                                               {"alloc.rate", 953.5 + i, "MB/sec"}};
      if (i != 2) secondaries.push_back({"alloc.count", 1, "#", AggregationPolicy::sum});
      fork.measurement.push_back(result(IterationKind::measurement, i, scores[f][i - 1], "ops/s", secondaries));
      rep.iteration_result(bp, fork.measurement.back());
    }
    inline_run.forks.push_back(fork);
  }
  rep.benchmark_end(inline_run);
  all.benchmarks.push_back(inline_run);

  // An in-process sample-time benchmark with a known histogram.
  BenchmarkParams sp;
  sp.benchmark = "Sample.get";
  sp.mode = BenchmarkMode::sample_time;
  sp.time_unit = TimeUnit::us;
  sp.forks = 0;
  sp.warmup.count = 0;
  sp.measurement.count = 2;
  rep.benchmark_header(sp, {});
  rep.run_progress(0.5, 20s);
  rep.fork_start(1, 0, false);
  BenchmarkRunResult sample_run;
  sample_run.params = sp;
  ForkResult sample_fork;
  for (int i = 1; i <= 2; ++i) {
    rep.iteration_start(sp, sp.measurement, i);
    auto r = result(IterationKind::measurement, i, 0, "us/op");
    SampleHistogram h;
    for (int k = 0; k < 100; ++k) h.record(1000 + 10 * k + 300 * (i - 1));
    h.record(25000, 2);
    r.samples = h;
    sample_fork.measurement.push_back(r);
    rep.iteration_result(sp, r);
  }
  sample_run.forks.push_back(sample_fork);
  rep.benchmark_end(sample_run);
  all.benchmarks.push_back(sample_run);

  // A benchmark whose only fork crashed.
  BenchmarkParams cp;
  cp.benchmark = "TAB.crash";
  cp.forks = 1;
  rep.benchmark_header(cp, {});
  rep.run_progress(0.75, 5s);
  rep.fork_start(1, 1, false);
  rep.iteration_start(cp, cp.warmup, 1);
  const Failure crash{FailureKind::signal, "forked process failed: signal 11 (Segmentation fault)", "", 0, 11,
                      {"last words"}, {}};
  rep.fork_failure(cp, crash);
  BenchmarkRunResult crash_run;
  crash_run.params = cp;
  crash_run.failure = crash;
  rep.benchmark_end(crash_run);
  all.benchmarks.push_back(crash_run);

  // Interrupted before TAB.separate.
  all.complete = false;
  rep.run_end(all, 503s);

  const std::string golden_path = std::string(CMH_TEST_SOURCE_DIR) + "/golden/report/console.txt";
  if (std::getenv("CMH_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(golden_path) << out.str();
  }
  std::ifstream in(golden_path);
  REQUIRE_MESSAGE(in.good(), "missing golden file " << golden_path);
  std::stringstream golden;
  golden << in.rdbuf();
  // Line by line, so a failure names the first line that differs.
  std::istringstream actual_lines(out.str()), golden_lines(golden.str());
  std::string a, g;
  int line = 0;
  while (true) {
    const bool more_a = static_cast<bool>(std::getline(actual_lines, a));
    const bool more_g = static_cast<bool>(std::getline(golden_lines, g));
    ++line;
    if (!more_a && !more_g) break;
    CAPTURE(line);
    REQUIRE(a == g);
    if (!more_a || !more_g) REQUIRE(more_a == more_g);
  }
  CHECK(out.str() == golden.str());
}
