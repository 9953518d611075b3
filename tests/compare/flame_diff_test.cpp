// SPDX-License-Identifier: MIT
// cmh-compare's exact numbers (every digit, the difference beside the ratio) and its
// flame differential on hand-made runs: per-op normalisation, significance over forks,
// the ranking of changes, and no verdict with a single fork.
#include "exact_text.hpp"
#include "flame_diff.hpp"
#include <cmh/compare/model.hpp>

#include <doctest/doctest.h>

using namespace cmh::compare;

TEST_CASE("exact metrics keep every digit, and their difference is given") {
  CHECK(exact_number(1000016) == "1,000,016");
  CHECK(exact_number(-1234567) == "-1,234,567");
  CHECK(exact_number(999) == "999");
  CHECK(exact_number(0) == "0");
  CHECK(exact_number(1000016.5) == "1,000,016.5");
  CHECK(exact_number(0.125) == "0.125");
  CHECK(exact_difference(1000000, 1000016) == "+16");
  CHECK(exact_difference(1000016, 1000000) == "-16");
  CHECK(exact_difference(5, 5) == "0");
  CHECK(exact_ratio(1000000, 1000016) == "1.000016 (+16)");
}

namespace {

FlameRun run(std::vector<std::uint64_t> ops, std::map<std::vector<std::string>, std::vector<double>> stacks) {
  FlameRun r;
  r.path = "x";
  r.benchmark = "B.n";
  r.event = "cpu-clock";
  r.period_unit = "ns";
  r.ops = std::move(ops);
  r.stacks = std::move(stacks);
  return r;
}

const FunctionChange* find(const FlameDiff& d, const std::string& name) {
  for (const auto& f : d.functions)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace

TEST_CASE("the flame differential is per op, and colours only changes beyond the forks' variance") {
  // f costs 100 ns/op in both runs (the new run did twice the ops in its first fork, with
  // twice the time: per sample it would look doubled); g is new at 50 ns/op; h is noise.
  const FlameRun base = run({1000, 1000, 1000}, {{{"B.n", "f"}, {100000, 101000, 99000}},
                                                 {{"B.n", "h"}, {5000, 9000, 7000}}});
  const FlameRun now = run({2000, 1000, 1000}, {{{"B.n", "f"}, {200000, 99500, 100500}},
                                                {{"B.n", "f", "g"}, {100000, 51000, 49000}},
                                                {{"B.n", "h"}, {6000, 8000, 7500}}});
  const FlameDiff d = diff_flame_runs(base, now, 0.05);
  REQUIRE(d.functions.size() == 3);
  CHECK(d.functions.front().name == "g");  // the significant change comes first
  const auto* g = find(d, "g");
  const auto* f = find(d, "f");
  const auto* h = find(d, "h");
  REQUIRE((g && f && h));
  CHECK(g->base == 0);
  CHECK(g->now == doctest::Approx(50));
  CHECK(g->significant);
  CHECK(f->now == doctest::Approx(100));  // per op: not doubled
  CHECK_FALSE(f->significant);
  CHECK_FALSE(h->significant);
  CHECK(d.unit == "ns/op");
  // The tree: the root's width is the new total per op, f contains g.
  CHECK(d.page.differential);
  CHECK(d.page.root.value == doctest::Approx(100 + 50 + 7.1666).epsilon(0.01));
  const auto& fn = d.page.root.children.at("f");
  CHECK(fn.value == doctest::Approx(150));
  CHECK(fn.before == doctest::Approx(100));
  CHECK(fn.significance == 1);
  CHECK(fn.children.at("g").significance == 1);
  CHECK(d.page.root.children.at("h").significance == 0);
  CHECK(d.notes.empty());
}

TEST_CASE("with one fork a side there is no verdict, and the page says why") {
  const FlameDiff d = diff_flame_runs(run({10}, {{{"B.n", "f"}, {100}}}), run({10}, {{{"B.n", "f"}, {300}}}), 0.05);
  REQUIRE(d.functions.size() == 1);
  CHECK_FALSE(d.functions[0].tested);
  CHECK_FALSE(d.functions[0].significant);
  CHECK(d.page.root.children.at("f").significance == 0);
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].find("at least 2 forks") != std::string::npos);
  CHECK_THROWS_AS(read_flame_run("/no/such.speedscope.json"), InputError);
}
