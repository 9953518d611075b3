// SPDX-License-Identifier: MIT
// Counted metrics (-prof icount) in cmh-compare: compared by their difference, gated by
// a soft relative threshold and hard limits, never across counting models.
#include "command_line.hpp"
#include <cmh/compare/comparison.hpp>
#include <cmh/compare/icount_gate.hpp>

#include <doctest/doctest.h>

#include <string>

using namespace cmh::compare;

namespace {

const std::string kModel = "Valgrind 3.19.0 Callgrind; I1 32768,8,64, D1 32768,8,64, LL 8388608,16,64; "
                           "cycles = L1 hits + 5 LL hits + 35 RAM hits";

std::string counted(const std::string& label, double value) {
  const std::string v = std::to_string(value);
  return "\"" + label + R"(":{"score":)" + v + R"(,"scoreError":"NaN","scoreUnit":"#/op","rawData":[[)" + v + "]]}";
}

std::string record(double ir, double l1miss, const std::string& model = kModel, double score = 10) {
  const std::string note = model + " | 100 calls x 2 iterations per thread";
  return R"({"jmhVersion":"0.1","benchmark":"a.B.c","mode":"avgt","threads":1,"forks":1,"params":{},
    "primaryMetric":{"score":)" + std::to_string(score) + R"(,"scoreError":"NaN","scoreUnit":"ns/op","rawData":[[)" +
         std::to_string(score) + R"(]]},
    "secondaryMetrics":{)" + counted("icount.ir.norm", ir) + "," + counted("icount.l1miss.norm", l1miss) + "," +
         counted("icount.overhead.norm", 4) + R"(},
    "cmh":{"notes":{"icount.ir.norm":")" + note + R"(","icount.l1miss.norm":")" + note + R"("}}})";
}

Comparison compare(const std::string& a, const std::string& b, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"base.json", "new.json"};
  argv.insert(argv.end(), args.begin(), args.end());
  const CommandLine cl = parse_command_line(argv);
  return compare_files(parse_result_text("[" + a + "]", "base.json"), parse_result_text("[" + b + "]", "new.json"),
                       cl.options);
}

const MetricComparison& metric(const Comparison& c, const std::string& key) {
  REQUIRE(c.benchmarks.size() == 1);
  for (const auto& m : c.benchmarks[0].metrics)
    if (m.key == key) return m;
  FAIL("no metric " << key);
  return c.benchmarks[0].metrics[0];
}

}  // namespace

TEST_CASE("icount gate: the same counts are 'same', counted, with a zero difference, right after the score") {
  const auto c = compare(record(1000, 0.5), record(1000, 0.5), {});
  const auto& m = metric(c, "icount.ir.norm");
  CHECK(m.verdict == "same");
  CHECK(m.samples == "counted");
  REQUIRE(m.difference);
  CHECK(*m.difference == 0);
  CHECK_FALSE(m.welch);
  CHECK_FALSE(c.regression());
  CHECK(c.benchmarks[0].metrics[0].key == "score");
  CHECK(c.benchmarks[0].metrics[1].key.starts_with("icount."));
  const auto& overhead = metric(c, "icount.overhead.norm");  // compared, not gated by default
  CHECK(overhead.samples == "counted");
  CHECK_FALSE(overhead.threshold);
}

TEST_CASE("icount gate: the soft threshold is relative and defaults to --threshold's") {
  CHECK(compare(record(1000, 0.5), record(1001, 0.5), {}).regression());  // --threshold 0 by default
  CHECK_FALSE(compare(record(1000, 0.5), record(1001, 0.5), {"--icount-threshold", "1%"}).regression());
  const auto c = compare(record(1000, 0.5), record(1030, 0.5), {"--icount-threshold", "2%"});
  const auto& m = metric(c, "icount.ir.norm");
  CHECK(m.regression);
  CHECK(m.gate_text == "> 2%");
  CHECK(*m.difference == doctest::Approx(30));
  CHECK_FALSE(compare(record(1000, 0.5), record(900, 0.5), {}).regression());  // better
  CHECK(metric(compare(record(1000, 0.5), record(900, 0.5), {}), "icount.ir.norm").verdict == "better");
  // The miss counts gate only when named.
  CHECK_FALSE(compare(record(1000, 0.5), record(1000, 0.9), {}).regression());
  CHECK(compare(record(1000, 0.5), record(1000, 0.9), {"--icount-threshold", "l1miss=10%"}).regression());
  CHECK_FALSE(compare(record(1000, 0.5), record(1030, 0.5), {"--icount-threshold", "ir=off"}).regression());
}

TEST_CASE("icount gate: hard limits on the value and on the growth") {
  const std::vector<std::string> no_soft = {"--icount-threshold", "ir=off"};
  auto args = no_soft;
  args.insert(args.end(), {"--icount-limit", "ir=1020"});
  auto c = compare(record(1000, 0.5), record(1030, 0.5), args);
  CHECK(c.regression());
  CHECK(metric(c, "icount.ir.norm").gate_text == "> 1020");
  args = no_soft;
  args.insert(args.end(), {"--icount-limit", "ir=+50"});
  CHECK_FALSE(compare(record(1000, 0.5), record(1030, 0.5), args).regression());
  args = no_soft;
  args.insert(args.end(), {"--icount-limit", "icount.ir.norm=+20"});
  c = compare(record(1000, 0.5), record(1030, 0.5), args);
  CHECK(c.regression());
  CHECK(metric(c, "icount.ir.norm").gate_text == "grew by more than 20");
}

TEST_CASE("icount gate: figures from different counting models are not compared") {
  const auto c = compare(record(1000, 0.5), record(2000, 0.5, "Valgrind 3.22.0 Callgrind; other"), {});
  const auto& m = metric(c, "icount.ir.norm");
  CHECK(m.verdict == "not comparable");
  CHECK(m.note.find("3.22.0") != std::string::npos);
  CHECK_FALSE(c.regression());
}

TEST_CASE("icount gate: bad options are one line each") {
  IcountGates g;
  CHECK_THROWS_WITH_AS(parse_icount_limit("ir", g), doctest::Contains("METRIC=N"), InputError);
  CHECK_THROWS_WITH_AS(parse_icount_limit("ir=-3", g), doctest::Contains("count per op"), InputError);
  CHECK_THROWS_WITH_AS(parse_icount_limit("score=3", g), doctest::Contains("unknown counted metric"), InputError);
  CHECK_THROWS_WITH_AS(parse_icount_threshold("x%", g), doctest::Contains("percentage"), InputError);
  parse_icount_threshold("cycles=3%", g);
  CHECK(g.metric_thresholds.at("icount.cycles.norm") == doctest::Approx(0.03));
  parse_icount_limit("branchmiss=+2", g);
  CHECK(g.limits.at("icount.branchmiss.norm").increase);
}
