// SPDX-License-Identifier: MIT
// Unit tests of the bulk warmup plan (-wm, -wmb): JMH's order (the -wmb benchmarks,
// then the selected runs, each once), warmup-only plans, and what BULK and
// BULK_INDI leave of the measured runs' own warmup.
#include <doctest/doctest.h>

#include "host/planner_resolve.hpp"
#include "planner_fixture.hpp"

using namespace planner_test;
using cmh::BenchmarkDefinition;
using cmh::host::PlannedRun;

namespace {

std::vector<PlannedRun> warmup_plan(std::initializer_list<const char*> args,
                                    const std::vector<BenchmarkDefinition>& reg) {
  return cmh::host::plan_runs(command_line(args), reg, 4);
}

/// "G.b[size=1]" per bulk warmup plan.
std::vector<std::string> bulk_names(const PlannedRun& run) {
  std::vector<std::string> names;
  if (!run.bulk_warmups) return names;
  for (const auto& p : *run.bulk_warmups) {
    std::string name = p.benchmark;
    for (const auto& [k, v] : p.params) name += "[" + k + "=" + v + "]";
    names.push_back(name);
  }
  return names;
}

std::vector<BenchmarkDefinition> warmup_registry() {
  return {bench("B", "c"), bench("B", "a"), bench("B", "b", {cmh::ParamDecl{"size", {"1", "2"}, "int"}}),
          bench("X", "extra")};
}

}  // namespace

TEST_CASE("bulk warmup: INDI without -wmb plans none") {
  const auto reg = warmup_registry();
  for (const auto& run : warmup_plan({"B"}, reg)) {
    CHECK(run.bulk_warmups == nullptr);
    CHECK(run.params.warmup.count == 3);
  }
}

TEST_CASE("bulk warmup: BULK warms every selected run up in planning order and drops their own warmup") {
  const auto reg = warmup_registry();
  const auto runs = warmup_plan({"B", "-wm", "BULK", "-wi", "2"}, reg);
  REQUIRE(runs.size() == 4);
  for (const auto& run : runs) {
    CHECK(bulk_names(run) == std::vector<std::string>{"B.a", "B.b[size=1]", "B.b[size=2]", "B.c"});
    CHECK(run.params.warmup.count == 0);
    CHECK(run.bulk_warmups == runs[0].bulk_warmups);  // one list, shared
  }
  for (const auto& warm : *runs[0].bulk_warmups) {
    CHECK(warm.warmup.count == 2);  // their own warmup settings
    CHECK(warm.measurement.count == 0);  // never measured
    CHECK(warm.precision == 0);
  }
}

TEST_CASE("bulk warmup: BULK_INDI keeps the runs' own warmup") {
  const auto reg = warmup_registry();
  for (const auto& run : warmup_plan({"B.a", "-wm", "bulk_indi"}, reg)) {
    CHECK(bulk_names(run) == std::vector<std::string>{"B.a"});
    CHECK(run.params.warmup.count == 3);
  }
}

TEST_CASE("bulk warmup: -wmb comes first, ignores -e, and a run in both is warmed up once") {
  const auto reg = warmup_registry();
  const auto runs = warmup_plan({"B.(a|c)", "-e", "X", "-wm", "BULK", "-wmb", "B.c,X"}, reg);
  REQUIRE(runs.size() == 2);
  CHECK(bulk_names(runs[0]) == std::vector<std::string>{"B.c", "X.extra", "B.a"});
  // INDI with -wmb: the -wmb list only, the runs keep their warmup.
  const auto indi = warmup_plan({"B.a", "-wmb", "X"}, reg);
  CHECK(bulk_names(indi[0]) == std::vector<std::string>{"X.extra"});
  CHECK(indi[0].params.warmup.count == 3);
}

TEST_CASE("bulk warmup: bad -wm and -wmb values are command-line errors") {
  const auto reg = warmup_registry();
  CHECK(error_of([&] { warmup_plan({"-wm", "SOMETIMES"}, reg); }).find("unknown warmup mode") != std::string::npos);
  CHECK(error_of([&] { warmup_plan({"-wmb", "B.("}, reg); }) != "(no error)");
}
