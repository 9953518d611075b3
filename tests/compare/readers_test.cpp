// SPDX-License-Identifier: MIT
// The readers and the comparison logic on small in-memory documents.
#include <cmh/compare/comparison.hpp>
#include <cmh/compare/model.hpp>

#include <doctest/doctest.h>

#include <string>

using namespace cmh::compare;

namespace {

std::string jmh_record(const std::string& name, const std::string& raw, const std::string& secondaries,
                       const std::string& score = "1.0") {
  return R"({"jmhVersion":"1.36","benchmark":")" + name +
         R"(","mode":"avgt","threads":1,"forks":2,"params":{"size":"10"},
         "primaryMetric":{"score":)" + score + R"(,"scoreError":"NaN","scoreConfidence":["NaN","NaN"],
         "scorePercentiles":{},"scoreUnit":"ns/op","rawData":)" + raw +
         R"(},"secondaryMetrics":{)" + secondaries + "}}";
}

}  // namespace

TEST_CASE("compare readers: JMH JSON, middle-dot spelling folded into the same key as gc.alloc.rate.norm") {
  const auto old_file = parse_result_text(
      "[" + jmh_record("a.B.c", "[[1,2],[3,4]]",
                       R"("\u00b7gc.alloc.rate.norm":{"score":24.0,"scoreError":0.0,"scoreUnit":"B/op","rawData":[[24,24],[24,24]]})") +
          "]",
      "old.json");
  const auto new_file = parse_result_text(
      "[" + jmh_record("a.B.c", "[[1,2],[3,4]]",
                       R"("gc.alloc.rate.norm":{"score":32.0,"scoreError":0.0,"scoreUnit":"B/op","rawData":[[32,32],[32,32]]})") +
          "]",
      "new.json");
  CHECK(old_file.format == "jmh json");
  REQUIRE(old_file.records.size() == 1);
  CHECK(old_file.records[0].params.at("size") == "10");
  CHECK(old_file.records[0].primary.raw.size() == 2);
  REQUIRE(old_file.records[0].secondaries.size() == 1);
  CHECK(old_file.records[0].secondaries[0].key == "alloc.rate.norm");
  CHECK(new_file.records[0].secondaries[0].key == "alloc.rate.norm");
  CHECK(old_file.records[0].secondaries[0].exact);
  CompareOptions o;
  const auto c = compare_files(old_file, new_file, o);
  REQUIRE(c.benchmarks.size() == 1);
  REQUIRE(c.benchmarks[0].metrics.size() == 2);
  CHECK(c.benchmarks[0].metrics[0].samples == "forks");
  const auto& alloc = c.benchmarks[0].metrics[1];
  CHECK(alloc.verdict == "worse");
  CHECK(alloc.regression);
  CHECK(c.regression());
  o.metric_thresholds["alloc.rate.norm"] = 0.5;  // 24 -> 32 is +33 %
  CHECK_FALSE(compare_files(old_file, new_file, o).regression());
}

TEST_CASE("compare readers: metric keys fold JMH's spellings") {
  CHECK(metric_key("\xC2\xB7gc.alloc.rate.norm") == "alloc.rate.norm");
  CHECK(metric_key("gc.alloc.rate") == "alloc.rate");
  CHECK(metric_key("measureSamples\xC2\xB7p0.99") == "p0.99");
  CHECK(metric_key("p0.99") == "p0.99");
  CHECK(metric_key("gc.count") == "gc.count");
  CHECK(metric_key("allocs_per_iter") == "alloc.count.norm");
}

TEST_CASE("compare readers: bad documents are one InputError naming the file") {
  CHECK_THROWS_WITH_AS(parse_result_text("", "e.json"), "e.json: the file is empty", InputError);
  CHECK_THROWS_WITH_AS(parse_result_text("[{\"benchmark\": \"x\"", "t.json"),
                       doctest::Contains("t.json: not valid JSON, it ends early (truncated?)"), InputError);
  CHECK_THROWS_WITH_AS(parse_result_text("{\"a\": 1}", "w.json"), doctest::Contains("w.json: not a result file"),
                       InputError);
  CHECK_THROWS_WITH_AS(parse_result_text("[]", "x.json"), doctest::Contains("holds no benchmarks"), InputError);
  CHECK_THROWS_WITH_AS(parse_result_text(R"([{"benchmark":"x","mode":"avgt","primaryMetric":{"score":1}}])", "m.json"),
                       doctest::Contains("missing \"scoreUnit\""), InputError);
}

TEST_CASE("compare readers: Google Benchmark repetitions, aggregates and names") {
  const std::string doc = R"({"context":{"date":"x"},"benchmarks":[
    {"name":"BM_X/64","run_name":"BM_X/64","run_type":"iteration","repetitions":3,"repetition_index":0,
     "threads":1,"iterations":10,"real_time":10.0,"cpu_time":9.0,"time_unit":"ns","allocs_per_iter":1.0},
    {"name":"BM_X/64","run_name":"BM_X/64","run_type":"iteration","repetitions":3,"repetition_index":1,
     "threads":1,"iterations":10,"real_time":11.0,"cpu_time":9.5,"time_unit":"ns","allocs_per_iter":1.0},
    {"name":"BM_X/64","run_name":"BM_X/64","run_type":"iteration","repetitions":3,"repetition_index":2,
     "threads":1,"iterations":10,"real_time":12.0,"cpu_time":10.0,"time_unit":"ns","allocs_per_iter":1.0},
    {"name":"BM_X/64_mean","run_name":"BM_X/64","run_type":"aggregate","repetitions":3,"threads":1,
     "aggregate_name":"mean","aggregate_unit":"time","iterations":3,"real_time":11.0,"cpu_time":9.5,"time_unit":"ns"},
    {"name":"Grp.b/size:10/mode:avgt","run_name":"Grp.b/size:10/mode:avgt","run_type":"aggregate","repetitions":4,
     "threads":1,"aggregate_name":"mean","aggregate_unit":"time","iterations":4,"real_time":2.0,"cpu_time":2.0,"time_unit":"us"},
    {"name":"Grp.b/size:10/mode:avgt_stddev","run_name":"Grp.b/size:10/mode:avgt","run_type":"aggregate","repetitions":4,
     "threads":1,"aggregate_name":"stddev","aggregate_unit":"time","iterations":4,"real_time":0.1,"cpu_time":0.1,"time_unit":"us"}
  ]})";
  const auto f = parse_result_text(doc, "g.json");
  REQUIRE(f.records.size() == 2);
  const auto& x = f.records[0];
  CHECK(x.name == "BM_X");
  CHECK(x.params.at("arg0") == "64");
  CHECK(x.primary.unit == "ns/op");
  REQUIRE(x.primary.raw.size() == 1);
  CHECK(x.primary.raw[0].size() == 3);  // aggregates left out
  CHECK(x.primary.score == doctest::Approx(11.0));
  bool has_alloc = false;
  for (const auto& s : x.secondaries) has_alloc = has_alloc || (s.key == "alloc.count.norm" && s.exact);
  CHECK(has_alloc);
  const auto& b = f.records[1];
  CHECK(b.name == "Grp.b");
  CHECK(b.mode == "avgt");
  CHECK(b.params.at("size") == "10");
  REQUIRE(b.primary.summary);
  CHECK(b.primary.summary->n == 4);
  CHECK(b.primary.summary->stddev == doctest::Approx(0.1));
}

TEST_CASE("compare: --baseline within one file pairs by the remaining parameters") {
  const std::string doc = "[" + jmh_record("g.base", "[[1.0,1.1,0.9]]", "") + "," +
                          jmh_record("g.other", "[[2.0,2.1,1.9]]", "", "2.0") + "]";
  const auto f = parse_result_text(doc, "one.json");
  CompareOptions o;
  const auto c = compare_within(f, "g.base", o);
  REQUIRE(c.benchmarks.size() == 1);
  CHECK(c.benchmarks[0].name == "g.other");
  CHECK(c.benchmarks[0].base_name == "g.base");
  CHECK(c.benchmarks[0].metrics[0].samples == "iterations");
  CHECK(c.benchmarks[0].metrics[0].verdict == "worse");
  CHECK(c.regression());
  CHECK_THROWS_AS(compare_within(f, "nope", o), InputError);
}

TEST_CASE("compare: units are converted between time units, and a threshold lets a small change pass") {
  Metric a, b;
  a.key = b.key = "score";
  a.unit = "ns/op";
  a.raw = {{100, 101, 99}, {100, 102, 98}};
  a.score = 100;
  b = a;
  b.raw = {{103, 104, 102}, {103, 105, 101}};
  b.score = 103;
  CompareOptions o;
  auto m = compare_metric(a, b, o, true);
  CHECK(m.samples == "forks");
  CHECK(m.ratio_point == doctest::Approx(1.03));
  o.threshold = 0.05;
  m = compare_metric(a, b, o, true);
  CHECK_FALSE(m.regression);
}

TEST_CASE("compare readers: several files read as one pool the forks of a point found in both") {
  const auto a = parse_result_text("[" + jmh_record("a.B.c", "[[1,1],[2,2]]", "") + "]", "a.json");
  const auto b = parse_result_text(
      "[" + jmh_record("a.B.c", "[[3,3]]", "") + "," + jmh_record("a.B.d", "[[5,5]]", "") + "]", "b.json");
  const auto merged = merge_result_files({a, b});
  CHECK(merged.path == "a.json + b.json");
  REQUIRE(merged.records.size() == 2);
  CHECK(merged.records[0].primary.raw.size() == 3);
  CHECK(merged.records[0].primary.score == doctest::Approx(2.0));
  CHECK(merged.records[1].name == "a.B.d");
}
