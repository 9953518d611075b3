// SPDX-License-Identifier: MIT
// Unit tests of plan_runs: defaults, JMH's resolution order (command line >
// benchmark > group > defaults) including the fork-argument rules, expansion by
// mode and by the parameter outer product, single-shot defaults, thread counts
// (max, halfmax, group rounding, -tg), and every planning error.
#include <doctest/doctest.h>

#include "host/planner_resolve.hpp"
#include "planner_fixture.hpp"

using namespace planner_test;
using namespace std::chrono_literals;
using cmh::BenchmarkDefinition;
using cmh::BenchmarkMode;
using cmh::TimeUnit;
using cmh::host::PlannedRun;

namespace {

std::vector<PlannedRun> plan(std::initializer_list<const char*> args, const std::vector<BenchmarkDefinition>& reg,
                             int cpus = 4) {
  return cmh::host::plan_runs(command_line(args), reg, cpus);
}

using Strings = std::vector<std::string>;
using Point = std::vector<std::pair<std::string, std::string>>;

}  // namespace

TEST_CASE("a benchmark without options gets cmh's defaults") {
  const std::vector<BenchmarkDefinition> reg{bench("G", "b")};
  const auto runs = plan({}, reg);
  REQUIRE(runs.size() == 1);
  const auto& p = runs[0].params;
  CHECK(runs[0].definition == &reg[0]);
  CHECK(p.benchmark == "G.b");
  CHECK(p.group == "G");
  CHECK(p.name == "b");
  CHECK(p.mode == BenchmarkMode::throughput);
  CHECK(p.time_unit == TimeUnit::s);
  CHECK(p.warmup.kind == cmh::IterationKind::warmup);
  CHECK(p.warmup.count == 3);
  CHECK(p.warmup.time == 1s);
  CHECK(p.warmup.batch_size == 1);
  CHECK(p.measurement.kind == cmh::IterationKind::measurement);
  CHECK(p.measurement.count == 5);
  CHECK(p.measurement.time == 1s);
  CHECK(p.measurement.batch_size == 1);
  CHECK(p.threads == 1);
  CHECK(p.thread_groups == std::vector<int>{1});
  CHECK(p.group_members.empty());
  CHECK(p.ops_per_invocation == 1);
  CHECK(p.timeout == 10min);
  CHECK(p.sync_iterations);
  CHECK_FALSE(p.gc_between_iterations);
  CHECK(p.forks == 3);
  CHECK(p.warmup_forks == 0);
  CHECK(p.fork_args.empty());
  CHECK(p.params.empty());
  CHECK(p.profilers.empty());
}

TEST_CASE("default_params per mode: ns/op for the time modes, JMH's single-shot rule") {
  using cmh::host::default_params;
  CHECK(default_params(BenchmarkMode::throughput).time_unit == TimeUnit::s);
  CHECK(default_params(BenchmarkMode::average_time).time_unit == TimeUnit::ns);
  CHECK(default_params(BenchmarkMode::sample_time).time_unit == TimeUnit::ns);
  const auto ss = default_params(BenchmarkMode::single_shot);
  CHECK(ss.time_unit == TimeUnit::ns);
  CHECK(ss.warmup.count == 0);
  CHECK(ss.measurement.count == 1);
  CHECK(ss.warmup.time == cmh::Nanos(0));
  CHECK(ss.measurement.time == cmh::Nanos(0));
  CHECK_FALSE(ss.sync_iterations);
  CHECK(ss.forks == 3);
  const auto avgt = default_params(BenchmarkMode::average_time);
  CHECK(avgt.warmup.count == 3);
  CHECK(avgt.measurement.count == 5);
  CHECK(avgt.sync_iterations);
}

TEST_CASE("resolution order: command line > benchmark > group > defaults") {
  BenchmarkDefinition def = bench("G", "b");
  def.group_options = cmh::make_options(cmh::warmup{5, 2s}, cmh::measurement{7, 3s}, cmh::threads{2}, cmh::fork{1},
                                        cmh::output_unit{1ms}, cmh::timeout{1min}, cmh::ops_per_invocation{3},
                                        cmh::mode::average_time);
  def.benchmark_options = cmh::make_options(cmh::measurement{9, 4s, 2}, cmh::threads{3}, cmh::sync_iterations{false});
  const std::vector<BenchmarkDefinition> reg{def};

  const auto code_only = plan({}, reg);
  REQUIRE(code_only.size() == 1);
  const auto& p = code_only[0].params;
  CHECK(p.mode == BenchmarkMode::average_time);  // group
  CHECK(p.time_unit == TimeUnit::ms);            // group
  CHECK(p.warmup.count == 5);                    // group
  CHECK(p.warmup.time == 2s);                    // group
  CHECK(p.measurement.count == 9);               // benchmark over group
  CHECK(p.measurement.time == 4s);               // benchmark over group
  CHECK(p.measurement.batch_size == 2);          // benchmark
  CHECK(p.threads == 3);                         // benchmark over group
  CHECK_FALSE(p.sync_iterations);                // benchmark
  CHECK(p.forks == 1);                           // group
  CHECK(p.warmup_forks == 0);                    // group (cmh::fork{1} says 0 warmup forks)
  CHECK(p.timeout == 1min);                      // group
  CHECK(p.ops_per_invocation == 3);              // group
  CHECK(p.time_unit == TimeUnit::ms);

  const auto with_cli = plan({"-i", "11", "-r", "200ms", "-f", "2", "-wf", "1", "-t", "1", "-tu", "us", "-opi", "1",
                              "-to", "30s", "-wi", "0", "-si", "true", "-gc", "true", "-bm", "thrpt", "-bs", "4",
                              "-wbs", "5", "-w", "50ms"},
                             reg);
  REQUIRE(with_cli.size() == 1);
  const auto& q = with_cli[0].params;
  CHECK(q.mode == BenchmarkMode::throughput);
  CHECK(q.measurement.count == 11);
  CHECK(q.measurement.time == 200ms);
  CHECK(q.measurement.batch_size == 4);
  CHECK(q.warmup.count == 0);
  CHECK(q.warmup.time == 50ms);
  CHECK(q.warmup.batch_size == 5);
  CHECK(q.forks == 2);
  CHECK(q.warmup_forks == 1);
  CHECK(q.threads == 1);
  CHECK(q.time_unit == TimeUnit::us);
  CHECK(q.ops_per_invocation == 1);
  CHECK(q.timeout == 30s);
  CHECK(q.sync_iterations);
  CHECK(q.gc_between_iterations);
}

TEST_CASE("an output unit set in code holds for every mode, without one each mode has its default") {
  BenchmarkDefinition def = bench("G", "b");
  def.group_options = cmh::make_options(cmh::mode::throughput, cmh::mode::average_time);
  BenchmarkDefinition fixed = bench("H", "b");
  fixed.group_options = cmh::make_options(cmh::mode::throughput, cmh::mode::average_time, cmh::output_unit{1us});
  const auto runs = plan({}, {def, fixed});
  REQUIRE(runs.size() == 4);
  CHECK(runs[0].params.time_unit == TimeUnit::s);
  CHECK(runs[1].params.time_unit == TimeUnit::ns);
  CHECK(runs[2].params.time_unit == TimeUnit::us);
  CHECK(runs[3].params.time_unit == TimeUnit::us);
}

TEST_CASE("fork arguments: prepend + (command line | benchmark | group) + append") {
  BenchmarkDefinition def = bench("G", "b");
  def.group_options = cmh::make_options(cmh::fork{1, {"-Xmx1g", "-Xms1g"}}, cmh::fork_args_prepend{{"-DG=1"}},
                                        cmh::fork_args_append{{"-DGA=1"}});
  def.benchmark_options = cmh::make_options(cmh::fork_args_append{{"-XX:+AlwaysPreTouch"}});
  const std::vector<BenchmarkDefinition> reg{def};

  CHECK(plan({}, reg)[0].params.fork_args == Strings{"-DG=1", "-Xmx1g", "-Xms1g", "-DGA=1", "-XX:+AlwaysPreTouch"});
  CHECK(plan({"-forkArgs", "-Xmx2g"}, reg)[0].params.fork_args ==
        Strings{"-DG=1", "-Xmx2g", "-DGA=1", "-XX:+AlwaysPreTouch"});
  CHECK(plan({"-jvmArgsPrepend", "-DP=1", "-forkArgsAppend", "-DA=1 -DB=2"}, reg)[0].params.fork_args ==
        Strings{"-DG=1", "-DP=1", "-Xmx1g", "-Xms1g", "-DGA=1", "-XX:+AlwaysPreTouch", "-DA=1", "-DB=2"});
  // An empty -forkArgs replaces the code's list by nothing; prepend/append stay.
  CHECK(plan({"-forkArgs", ""}, reg)[0].params.fork_args == Strings{"-DG=1", "-DGA=1", "-XX:+AlwaysPreTouch"});

  // A benchmark-level replacement beats the group's.
  BenchmarkDefinition own = bench("G", "c");
  own.group_options = def.group_options;
  own.benchmark_options = cmh::make_options(cmh::fork{2, {"-Xms2g"}});
  const auto runs = plan({}, {own});
  CHECK(runs[0].params.fork_args == Strings{"-DG=1", "-Xms2g", "-DGA=1"});
  CHECK(runs[0].params.forks == 2);
  // No replacement anywhere: just prepend and append (cmh has no host arguments to inherit).
  BenchmarkDefinition plain = bench("P", "b");
  plain.benchmark_options = cmh::make_options(cmh::fork_args_append{{"-DX=1"}});
  CHECK(plan({}, {plain})[0].params.fork_args == Strings{"-DX=1"});
}

TEST_CASE("invalid fork arguments are a command-line error naming the benchmark") {
  const std::vector<BenchmarkDefinition> reg{bench("G", "b")};
  CHECK(error_of([&] { plan({"-forkArgs", "--no-such-binding"}, reg); })
            .starts_with("Fork arguments of G.b (--no-such-binding): "));
  CHECK(error_of([&] { plan({"-forkArgsAppend", "-Xmx1g -XX:+NoSuchFlag"}, reg); })
            .starts_with("Fork arguments of G.b (-Xmx1g -XX:+NoSuchFlag): "));
  BenchmarkDefinition bad = bench("B", "x");
  bad.group_options = cmh::make_options(cmh::fork{1, {"--bogus"}});
  CHECK(error_of([&] { plan({}, {bad}); }).starts_with("Fork arguments of B.x (--bogus): "));
  // The same arguments are valid for every benchmark that has them.
  CHECK(plan({"-forkArgs", "-Xmx64m -DCMH_TEST=1"}, reg)[0].params.fork_args == Strings{"-Xmx64m", "-DCMH_TEST=1"});
}

TEST_CASE("expansion by mode: once each, in JMH's order, replaced by -bm") {
  BenchmarkDefinition def = bench("G", "b");
  def.group_options = cmh::make_options(cmh::mode::single_shot, cmh::mode::throughput);
  const std::vector<BenchmarkDefinition> reg{def};
  auto modes = [](const std::vector<PlannedRun>& runs) {
    std::vector<BenchmarkMode> m;
    for (const auto& r : runs) m.push_back(r.params.mode);
    return m;
  };
  using M = std::vector<BenchmarkMode>;
  CHECK(modes(plan({}, reg)) == M{BenchmarkMode::throughput, BenchmarkMode::single_shot});
  CHECK(modes(plan({"-bm", "avgt"}, reg)) == M{BenchmarkMode::average_time});
  CHECK(modes(plan({"-bm", "ss,sample,thrpt"}, reg)) ==
        M{BenchmarkMode::throughput, BenchmarkMode::sample_time, BenchmarkMode::single_shot});
  CHECK(modes(plan({"-bm", "all"}, reg)) == M{BenchmarkMode::throughput, BenchmarkMode::average_time,
                                              BenchmarkMode::sample_time, BenchmarkMode::single_shot});
}

TEST_CASE("single-shot defaults apply to the single-shot plan only, and give way to settings") {
  BenchmarkDefinition def = bench("G", "b");
  def.group_options = cmh::make_options(cmh::mode::throughput, cmh::mode::single_shot);
  const auto runs = plan({"-si", "true"}, {def});
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].params.warmup.count == 3);
  CHECK(runs[0].params.measurement.count == 5);
  CHECK(runs[0].params.sync_iterations);
  CHECK(runs[1].params.warmup.count == 0);
  CHECK(runs[1].params.measurement.count == 1);
  CHECK(runs[1].params.measurement.time == cmh::Nanos(0));
  CHECK_FALSE(runs[1].params.sync_iterations);  // forced off for ss, even with -si true

  const auto set = plan({"-bm", "ss", "-wi", "2", "-i", "10", "-bs", "100"}, {def});
  REQUIRE(set.size() == 1);
  CHECK(set[0].params.warmup.count == 2);
  CHECK(set[0].params.measurement.count == 10);
  CHECK(set[0].params.measurement.batch_size == 100);

  BenchmarkDefinition coded = bench("C", "b");
  coded.group_options = cmh::make_options(cmh::mode::single_shot, cmh::warmup{4, 1s}, cmh::measurement{20, 1s, 50});
  const auto c = plan({}, {coded});
  CHECK(c[0].params.warmup.count == 4);
  CHECK(c[0].params.measurement.count == 20);
  CHECK(c[0].params.measurement.batch_size == 50);
}

TEST_CASE("parameters: the outer product, first name outermost, values in the order given") {
  // Declared out of name order, with a duplicate name from a second state.
  BenchmarkDefinition def = bench("G", "b", {{"size", {"1", "2"}, "int"}, {"kind", {"x", "y", "z"}, "std::string"},
                                             {"size", {"99"}, "int"}});
  def.group_options = cmh::make_options(cmh::mode::throughput, cmh::mode::average_time);
  const auto runs = plan({}, {def});
  REQUIRE(runs.size() == 12);
  // Mode first, then the parameter points.
  for (std::size_t i = 0; i < 6; ++i) CHECK(runs[i].params.mode == BenchmarkMode::throughput);
  for (std::size_t i = 6; i < 12; ++i) CHECK(runs[i].params.mode == BenchmarkMode::average_time);
  const std::vector<Point> expected{{{"kind", "x"}, {"size", "1"}}, {{"kind", "x"}, {"size", "2"}},
                                    {{"kind", "y"}, {"size", "1"}}, {{"kind", "y"}, {"size", "2"}},
                                    {{"kind", "z"}, {"size", "1"}}, {{"kind", "z"}, {"size", "2"}}};
  for (std::size_t i = 0; i < 6; ++i) {
    CAPTURE(i);
    CHECK(runs[i].params.params == expected[i]);
    CHECK(runs[i + 6].params.params == expected[i]);
  }
  CHECK(runs[3].params.param("kind") == "y");
  CHECK(runs[3].params.param("size") == "2");
  CHECK(runs[3].params.param("none").empty());
}

TEST_CASE("-p replaces a parameter's declared values, keeping the order given") {
  const std::vector<BenchmarkDefinition> reg{bench("G", "b", {{"kind", {"x", "y"}, ""}, {"size", {"1", "2"}, ""}}),
                                             bench("G", "c", {{"kind", {"q"}, ""}}), bench("G", "d")};
  const auto runs = plan({"-p", "size=100,10", "-bm", "avgt"}, reg);
  REQUIRE(runs.size() == 6);
  CHECK(runs[0].params.params == Point{{"kind", "x"}, {"size", "100"}});
  CHECK(runs[1].params.params == Point{{"kind", "x"}, {"size", "10"}});
  CHECK(runs[2].params.params == Point{{"kind", "y"}, {"size", "100"}});
  CHECK(runs[3].params.params == Point{{"kind", "y"}, {"size", "10"}});
  CHECK(runs[4].params.params == Point{{"kind", "q"}});  // G.c has no "size": untouched
  CHECK(runs[5].params.params.empty());                  // G.d has no parameters
}

TEST_CASE("parameter errors: unknown -p names, parameters without values") {
  const std::vector<BenchmarkDefinition> reg{bench("G", "b", {{"size", {"1"}, ""}, {"kind", {"a"}, ""}}),
                                             bench("H", "x", {{"depth", {"3"}, ""}}), bench("P", "plain")};
  CHECK(error_of([&] { plan({"-p", "nosuch=1"}, reg); }) ==
        "Option -p: no selected benchmark has a parameter \"nosuch\" (their parameters: depth, kind, size)");
  // A parameter only an unselected benchmark has is unknown too.
  CHECK(error_of([&] { plan({"G.b", "-p", "depth=1"}, reg); }) ==
        "Option -p: no selected benchmark has a parameter \"depth\" (their parameters: kind, size)");
  CHECK(error_of([&] { plan({"plain", "-p", "size=1"}, reg); }) ==
        "Option -p: no selected benchmark has a parameter \"size\" (the selected benchmarks have no parameters)");
  // Nothing selected: the caller reports "No matching benchmarks", not the -p problem.
  CHECK(plan({"nothing-matches", "-p", "nosuch=1"}, reg).empty());

  const std::vector<BenchmarkDefinition> empty{bench("E", "b", {{"size", {}, "int"}})};
  const std::string message = error_of([&] { plan({}, empty); });
  CHECK(message ==
        "Benchmark E.b has the parameter \"size\" but no values for it: declare default values, or give them with "
        "-p size=value1,value2");
  const auto given = plan({"-p", "size=8"}, empty);
  REQUIRE(given.size() == 1);
  CHECK(given[0].params.param("size") == "8");
}

TEST_CASE("thread counts: max, halfmax, rounded up to the group size") {
  using cmh::host::resolve_thread_count;
  CHECK(resolve_thread_count(1, 4, 1) == 1);
  CHECK(resolve_thread_count(5, 4, 1) == 5);  // more threads than CPUs is allowed
  CHECK(resolve_thread_count(cmh::kThreadsMax, 8, 1) == 8);
  CHECK(resolve_thread_count(cmh::kThreadsHalfMax, 8, 1) == 4);
  CHECK(resolve_thread_count(cmh::kThreadsHalfMax, 7, 1) == 4);
  CHECK(resolve_thread_count(cmh::kThreadsHalfMax, 1, 1) == 1);
  CHECK(resolve_thread_count(cmh::kThreadsMax, 2, 1) == 2);
  CHECK(resolve_thread_count(3, 4, 2) == 4);
  CHECK(resolve_thread_count(4, 4, 2) == 4);
  CHECK(resolve_thread_count(1, 4, 4) == 4);
  CHECK(resolve_thread_count(5, 4, 4) == 8);
  CHECK(resolve_thread_count(cmh::kThreadsMax, 3, 4) == 4);
  CHECK(resolve_thread_count(cmh::kThreadsHalfMax, 5, 2) == 4);
  CHECK(cmh::host::available_cpu_count() >= 1);

  const std::vector<BenchmarkDefinition> reg{bench("G", "b")};
  CHECK(plan({"-t", "max"}, reg, 6)[0].params.threads == 6);
  CHECK(plan({"-t", "halfmax"}, reg, 6)[0].params.threads == 3);
  CHECK(plan({"-t", "halfmax"}, reg, 5)[0].params.threads == 3);
  BenchmarkDefinition coded = bench("C", "b");
  coded.benchmark_options = cmh::make_options(cmh::threads{cmh::threads::max});
  CHECK(plan({}, {coded}, 12)[0].params.threads == 12);
}

TEST_CASE("thread groups: declared threads, -tg, rounding, members copied") {
  const std::vector<BenchmarkDefinition> reg{group_bench("Q", "pingpong", {"ping", "pong"}),
                                             group_bench("R", "rw", {"reader", "writer"}, {3, 1}), bench("S", "plain")};
  const auto runs = plan({}, reg, 4);
  REQUIRE(runs.size() == 3);
  CHECK(runs[0].params.group_members == Strings{"ping", "pong"});
  CHECK(runs[0].params.thread_groups == std::vector<int>{1, 1});
  CHECK(runs[0].params.threads == 2);  // one thread, rounded up to one whole group
  CHECK(runs[1].params.thread_groups == std::vector<int>{3, 1});
  CHECK(runs[1].params.threads == 4);
  CHECK(runs[2].params.thread_groups == std::vector<int>{1});
  CHECK(runs[2].params.group_members.empty());

  const auto t = plan({"-t", "5"}, reg, 4);
  CHECK(t[0].params.threads == 6);
  CHECK(t[1].params.threads == 8);
  CHECK(t[2].params.threads == 5);
  CHECK(plan({"R", "-t", "max"}, reg, 6)[0].params.threads == 8);

  const auto tg = plan({"-tg", "2,1"}, reg, 4);
  CHECK(tg[0].params.thread_groups == std::vector<int>{2, 1});
  CHECK(tg[0].params.threads == 3);
  CHECK(tg[1].params.thread_groups == std::vector<int>{2, 1});
  CHECK(tg[2].params.thread_groups == std::vector<int>{1});  // -tg is for group benchmarks only
  CHECK(plan({"Q", "-tg", "0,2"}, reg, 4)[0].params.threads == 2);

  BenchmarkDefinition coded = group_bench("T", "g", {"a", "b", "c"});
  coded.benchmark_options.thread_groups = std::vector<int>{2, 2, 1};
  CHECK(plan({}, {coded}, 4)[0].params.thread_groups == std::vector<int>{2, 2, 1});
  CHECK(plan({"-tg", "1,1,1"}, {coded}, 4)[0].params.thread_groups == std::vector<int>{1, 1, 1});
}

TEST_CASE("thread-group errors") {
  const std::vector<BenchmarkDefinition> reg{group_bench("Q", "pingpong", {"ping", "pong"}), bench("S", "plain")};
  CHECK(error_of([&] { plan({"-tg", "3,1,1"}, reg); }) ==
        "Option -tg 3,1,1: benchmark Q.pingpong has 2 group members (ping, pong), so -tg needs 2 thread counts");
  CHECK(error_of([&] { plan({"-tg", "3"}, reg); }) ==
        "Option -tg 3: benchmark Q.pingpong has 2 group members (ping, pong), so -tg needs 2 thread counts");
  CHECK(error_of([&] { plan({"plain", "-tg", "3,1"}, reg); }) ==
        "Option -tg 3,1: none of the selected benchmarks is a thread-group benchmark");
  const std::vector<BenchmarkDefinition> bad{group_bench("B", "g", {"a", "b"}, {1, 1, 1})};
  CHECK(error_of([&] { plan({}, bad); }) == "Benchmark B.g: 3 group thread counts (1,1,1) for 2 members (a, b)");
  const std::vector<BenchmarkDefinition> zero{group_bench("Z", "g", {"a", "b"}, {0, 0})};
  CHECK(error_of([&] { plan({}, zero); }) == "Benchmark Z.g: the group thread counts 0,0 add up to 0");
}

TEST_CASE("bad values set in code are errors before anything runs") {
  auto with = [](cmh::OptionSet o) {
    BenchmarkDefinition def = bench("G", "b");
    def.benchmark_options = std::move(o);
    return std::vector<BenchmarkDefinition>{def};
  };
  CHECK(error_of([&] { plan({}, with(cmh::make_options(cmh::threads{0}))); }) ==
        "Benchmark G.b: the thread count is 0, which is out of range");
  CHECK(error_of([&] { plan({}, with(cmh::make_options(cmh::measurement{0}))); }) ==
        "Benchmark G.b: the measurement iteration count is 0, which is out of range");
  CHECK(error_of([&] { plan({}, with(cmh::make_options(cmh::warmup{-1}))); }) ==
        "Benchmark G.b: the warmup iteration count is -1, which is out of range");
  CHECK(error_of([&] { plan({}, with(cmh::make_options(cmh::ops_per_invocation{0}))); }) ==
        "Benchmark G.b: the operations per invocation is 0, which is out of range");
  CHECK(error_of([&] { plan({}, with(cmh::make_options(cmh::fork{-1}))); }) ==
        "Benchmark G.b: the fork count is -1, which is out of range");
  CHECK(error_of([&] { plan({}, with(cmh::make_options(cmh::timeout{0s}))); }) ==
        "Benchmark G.b: the timeout (ns) is 0, which is out of range");
  // The command line can repair what code got wrong.
  CHECK(plan({"-i", "2"}, with(cmh::make_options(cmh::measurement{0})))[0].params.measurement.count == 2);
}

TEST_CASE("profilers reach every plan, selection order is by full name") {
  const std::vector<BenchmarkDefinition> reg{bench("Z", "a"), bench("A", "z"), bench("A", "b")};
  const auto runs = plan({"-prof", "alloc", "-prof", "rusage"}, reg);
  REQUIRE(runs.size() == 3);
  CHECK(runs[0].params.benchmark == "A.b");
  CHECK(runs[1].params.benchmark == "A.z");
  CHECK(runs[2].params.benchmark == "Z.a");
  for (const auto& r : runs) CHECK(r.params.profilers == Strings{"alloc", "rusage"});
  CHECK(plan({"nothing"}, reg).empty());
  CHECK(error_of([&] { plan({"("}, reg); }).starts_with("Invalid include regular expression \"(\""));
}
