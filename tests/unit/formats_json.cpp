// SPDX-License-Identifier: MIT
// -rf json: the document parsed back with nlohmann_json and checked field by
// field against JMH's shape (jmh.md section 4.1): key order, types, params as
// strings, NaN as "NaN", rawData per fork, rawDataHistogram in sample mode,
// secondaryMetrics always present, and cmh's extra object with failures.
#include <doctest/doctest.h>

#include "formats/renderers.hpp"
#include "formats/tidy_json.hpp"
#include "formats_fixture.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <regex>
#include <sstream>

using namespace cmh;
using namespace cmh::formats;
using Json = nlohmann::ordered_json;
using cmh::formats::testing::keys_of;

namespace {

const Json& record_named(const Json& doc, const std::string& name) {
  for (const auto& r : doc)
    if (r["benchmark"] == name) return r;
  FAIL("no record for " << name);
  return doc;
}

const std::vector<std::string> kPercentileKeys = {"0.0",  "50.0",   "90.0",    "95.0",     "99.0",
                                                  "99.9", "99.99", "99.999", "99.9999", "100.0"};

void check_metric_shape(const Json& m, bool histogram) {
  const std::vector<std::string> expected = {"score", "scoreError", "scoreConfidence", "scorePercentiles",
                                             "scoreUnit", histogram ? "rawDataHistogram" : "rawData"};
  CHECK(keys_of(m) == expected);
  CHECK((m["score"].is_number() || m["score"] == "NaN"));
  CHECK((m["scoreError"].is_number() || m["scoreError"] == "NaN"));
  REQUIRE(m["scoreConfidence"].is_array());
  CHECK(m["scoreConfidence"].size() == 2);
  CHECK(keys_of(m["scorePercentiles"]) == kPercentileKeys);
  CHECK(m["scoreUnit"].is_string());
  const Json& raw = m[histogram ? "rawDataHistogram" : "rawData"];
  REQUIRE(raw.is_array());
  for (const auto& fork : raw) {
    REQUIRE(fork.is_array());
    for (const auto& v : fork) {
      if (!histogram) {
        CHECK(v.is_number());
        continue;
      }
      REQUIRE(v.is_array());  // one iteration: [value, count] pairs
      for (const auto& pair : v) {
        REQUIRE(pair.size() == 2);
        CHECK(pair[0].is_number_float());
        CHECK(pair[1].is_number_unsigned());
      }
    }
  }
}

struct Rendered {
  RunResults results = testing::synthetic_results();
  std::string text = render_jmh_json(results, testing::synthetic_context());
  Json doc = Json::parse(text);
};

}  // namespace

TEST_CASE("formats json: a top-level array, one record per benchmark x mode x params, in JMH's key order") {
  Rendered r;
  REQUIRE(r.doc.is_array());
  REQUIRE(r.doc.size() == r.results.benchmarks.size());
  const std::vector<std::string> head = {
      "jmhVersion", "benchmark", "mode", "threads", "forks", "jvm", "jvmArgs", "jdkVersion", "vmName", "vmVersion",
      "warmupIterations", "warmupTime", "warmupBatchSize", "measurementIterations", "measurementTime",
      "measurementBatchSize"};
  for (std::size_t i = 0; i < r.doc.size(); ++i) {
    const Json& rec = r.doc[i];
    const auto& p = r.results.benchmarks[i].params;
    CAPTURE(p.benchmark);
    std::vector<std::string> expected = head;
    if (!p.params.empty()) expected.push_back("params");
    for (const char* k : {"primaryMetric", "secondaryMetrics", "cmh"}) expected.push_back(k);
    CHECK(keys_of(rec) == expected);
    CHECK(rec["benchmark"] == p.benchmark);
    CHECK(rec["mode"] == std::string(mode_short_label(p.mode)));
    CHECK(rec["threads"].is_number_integer());
    CHECK(rec["forks"] == p.forks);
    CHECK(rec["warmupIterations"] == p.warmup.count);
    CHECK(rec["measurementIterations"] == p.measurement.count);
    CHECK(rec["warmupBatchSize"] == 1);
    CHECK(rec["vmName"] == "cmh");
    CHECK(rec["vmVersion"] == "0.1.0");
    CHECK(rec["jmhVersion"] == "0.1.0");
    CHECK(rec["jdkVersion"] == "GCC 12.2.0");
    CHECK(rec["jvm"] == "/opt/bench/cmh-samples");
    check_metric_shape(rec["primaryMetric"], p.mode == BenchmarkMode::sample_time);
    REQUIRE(rec["secondaryMetrics"].is_object());
    for (const auto& [label, m] : rec["secondaryMetrics"].items()) {
      CAPTURE(label);
      check_metric_shape(m, false);
    }
  }
}

TEST_CASE("formats json: values of a throughput benchmark with secondaries over two forks") {
  Rendered r;
  const Json& rec = record_named(r.doc, "Sample_01.hello");
  CHECK(rec["jvmArgs"] == Json::array({"-Xmx1g", "-XX:+AlwaysPreTouch"}));
  CHECK(rec["warmupTime"] == "100 ms");
  CHECK(rec["measurementTime"] == "1 s");
  CHECK_FALSE(rec.contains("params"));  // omitted entirely without params, as JMH
  const Json& pm = rec["primaryMetric"];
  CHECK(pm["score"].get<double>() == doctest::Approx(1.0e8));
  CHECK(pm["scoreUnit"] == "ops/s");
  // The error is a 99.9 % Student t half-width over N = 6 pooled iterations.
  CHECK(pm["scoreError"].get<double>() > 0);
  CHECK(pm["scoreConfidence"][0].get<double>() == doctest::Approx(1.0e8 - pm["scoreError"].get<double>()));
  CHECK(pm["scorePercentiles"]["0.0"].get<double>() == doctest::Approx(0.9e8));
  CHECK(pm["scorePercentiles"]["100.0"].get<double>() == doctest::Approx(1.1e8));
  // rawData: one inner array per fork, one value per measurement iteration, in order.
  const Json expected_raw = Json::array({Json::array({1.0e8, 1.1e8, 0.9e8}), Json::array({1.05e8, 0.95e8, 1.0e8})});
  CHECK(pm["rawData"] == expected_raw);
  CHECK(keys_of(rec["secondaryMetrics"]) == std::vector<std::string>{"alloc.count", "alloc.rate", "alloc.rate.norm"});
  const Json& norm = rec["secondaryMetrics"]["alloc.rate.norm"];
  CHECK(norm["score"].get<double>() == 16.0);
  CHECK(norm["scoreUnit"] == "B/op");
  CHECK(norm["rawData"].size() == 2);
  CHECK(norm["rawData"][1].size() == 3);
  // A Sum policy metric: the score is the sum, the error NaN and the interval [score, score].
  const Json& count = rec["secondaryMetrics"]["alloc.count"];
  CHECK(count["score"].get<double>() == 24.0);
  CHECK(count["scoreError"] == "NaN");
  CHECK(count["scoreConfidence"] == Json::array({24.0, 24.0}));
}

TEST_CASE("formats json: params are strings, N <= 2 gives scoreError \"NaN\", secondaryMetrics stays {}") {
  Rendered r;
  const Json& rec = record_named(r.doc, "Sample_02.params");
  REQUIRE(rec.contains("params"));
  CHECK(keys_of(rec["params"]) == std::vector<std::string>{"kind", "size"});
  CHECK(rec["params"]["size"] == "64");  // a string, never a number
  CHECK(rec["params"]["kind"] == "a b,\"c\";d");
  CHECK(rec["primaryMetric"]["scoreError"] == "NaN");
  CHECK(rec["primaryMetric"]["score"].get<double>() == doctest::Approx(12.75));
  CHECK(rec["secondaryMetrics"].is_object());
  CHECK(rec["secondaryMetrics"].empty());
  // JMH's tidy layout writes the empty object over two lines.
  CHECK(r.text.find("        \"secondaryMetrics\" : {\n        }") != std::string::npos);
}

TEST_CASE("formats json: sample mode writes rawDataHistogram per fork, per iteration, and the p-secondaries") {
  Rendered r;
  const Json& rec = record_named(r.doc, "Sample_03.sampled");
  const Json& pm = rec["primaryMetric"];
  CHECK_FALSE(pm.contains("rawData"));
  const Json& hist = pm["rawDataHistogram"];
  REQUIRE(hist.size() == 2);  // forks
  for (const auto& fork : hist) {
    REQUIRE(fork.size() == 2);  // iterations
    for (const auto& iteration : fork) {
      std::uint64_t total = 0;
      double previous = -1;
      for (const auto& pair : iteration) {
        CHECK(pair[0].get<double>() > previous);  // ascending values, in us
        previous = pair[0].get<double>();
        total += pair[1].get<std::uint64_t>();
      }
      CHECK(total == 6);
    }
  }
  CHECK(hist[0][0][0][0].get<double>() == doctest::Approx(1.0));  // 1000 ns = 1 us
  CHECK(hist[0][0][0][1] == 3);
  CHECK(pm["scoreUnit"] == "us/op");
  CHECK(rec["secondaryMetrics"].contains("p0.99"));
  CHECK(rec["secondaryMetrics"].contains("p1.00"));
}

TEST_CASE("formats json: single shot writes \"single-shot\" iteration times") {
  Rendered r;
  const Json& rec = record_named(r.doc, "Sample_04.once");
  CHECK(rec["warmupTime"] == "single-shot");
  CHECK(rec["measurementTime"] == "single-shot");
  CHECK(rec["primaryMetric"]["rawData"] == Json::array({Json::array({2.0, 2.5, 3.0})}));
}

TEST_CASE("formats json: single shot with a time set (-w/-r) writes that time, as JMH") {
  RunResults results = testing::synthetic_results();
  for (auto& b : results.benchmarks)
    if (b.params.benchmark == "Sample_04.once") {
      b.params.warmup.time = std::chrono::milliseconds(100);
      b.params.measurement.time = std::chrono::seconds(2);
    }
  const Json doc = Json::parse(render_jmh_json(results, testing::synthetic_context()));
  const Json& rec = record_named(doc, "Sample_04.once");
  CHECK(rec["warmupTime"] == "100 ms");
  CHECK(rec["measurementTime"] == "2 s");
}

TEST_CASE("formats json: the cmh object carries the build, machine, run state and failures") {
  Rendered r;
  const Json& ok = record_named(r.doc, "Sample_01.hello")["cmh"];
  CHECK(keys_of(ok) == std::vector<std::string>{"version", "compiler", "compilerFlags", "buildType", "cpuModel",
                                                "cpuCount", "kernel", "numaMode", "numaReason", "numaNodes", "allocatorOptions",
                                                "warnings", "environment", "pinning", "profilers", "warmupForks", "forksCompleted",
                                                "runComplete", "failed", "scoreMeaning", "forkInterval",
                                                "medianScore", "robustEstimate", "cpuTimeNorm", "disturbance"});
  CHECK(ok["compilerFlags"] == "-O2 -g -DNDEBUG -std=c++20");
  CHECK(ok["cpuCount"] == 2);
  CHECK(ok["numaReason"] == "one NUMA node");
  CHECK(ok["allocatorOptions"] == "-Xmx1g -XX:+AlwaysPreTouch");
  CHECK(ok["warnings"][0] == "CPU frequency governor is \"powersave\"");
  CHECK(ok["profilers"] == Json::array({"alloc"}));
  CHECK(ok["runComplete"] == true);
  CHECK(ok["failed"] == false);
  CHECK(ok["forksCompleted"] == 2);
  CHECK(ok["environment"]["governor"] == "powersave");
  CHECK(ok["environment"]["tuned"] == "no");
  CHECK(ok["pinning"]["mode"] == "cores");
  CHECK(ok["pinning"]["forks"][1]["threads"][0]["cpu"] == 1);
  CHECK(record_named(r.doc, "Sample_02.params")["cmh"]["pinning"] == Json{{"mode", "none"}});

  // A benchmark whose second fork crashed: fork 1's data, and the failure with its reason.
  const Json& crashed = record_named(r.doc, "Sample_05.crashes");
  CHECK(crashed["primaryMetric"]["rawData"] == Json::array({Json::array({5.0, 5.5, 6.0})}));
  const Json& cmh = crashed["cmh"];
  CHECK(cmh["failed"] == true);
  CHECK(cmh["forksCompleted"] == 1);
  CHECK(cmh["failure"]["kind"] == "signal");
  CHECK(cmh["failure"]["signal"] == 11);
  CHECK(cmh["failure"]["fork"] == 2);
  CHECK(cmh["failure"]["message"] == "forked process failed: signal 11 (Segmentation fault)");
  CHECK(cmh["failure"]["stderrTail"][1] == "tab\there \"quoted\"");

  // Failed before measuring: every number "NaN", no raw data, the exception named.
  const Json& never = record_named(r.doc, "Sample_06.never");
  CHECK(never["primaryMetric"]["score"] == "NaN");
  CHECK(never["primaryMetric"]["scoreError"] == "NaN");
  CHECK(never["primaryMetric"]["scoreConfidence"] == Json::array({"NaN", "NaN"}));
  CHECK(never["primaryMetric"]["scorePercentiles"]["50.0"] == "NaN");
  CHECK(never["primaryMetric"]["scoreUnit"] == "ops/ms");
  CHECK(never["primaryMetric"]["rawData"].empty());
  CHECK(never["cmh"]["failure"]["kind"] == "exception");
  CHECK(never["cmh"]["failure"]["exceptionType"] == "std::runtime_error");
  CHECK(never["cmh"]["failure"]["message"] == "setup threw: bad \\ path \"C:\\tmp\"\n second line");
  CHECK(never["cmh"]["forksCompleted"] == 0);

  // An incomplete run says so in every record.
  RunResults partial = testing::synthetic_results();
  partial.complete = false;
  const Json doc = Json::parse(render_jmh_json(partial, testing::synthetic_context()));
  for (const auto& rec : doc) CHECK(rec["cmh"]["runComplete"] == false);
}

TEST_CASE("formats json: the cmh object gives the forks' allocator state, per fork when they differ") {
  RunResults results = testing::synthetic_results();
  model::RunContext host = testing::synthetic_context();
  host.numa_mode = "on";  // the host's own view must not leak into the records
  host.numa_reason = "UseNUMA is enabled in 'membind' mode on nodes 0-1";
  BenchmarkRunResult& run = results.benchmarks.front();  // Sample_01.hello, 2 forks
  REQUIRE(run.forks.size() == 2);
  run.forks[0].allocator = {true, "off",
                            "The process is bound to a single NUMA node, and its memory and cpu node configuration "
                            "does not match (cpu nodes 0, memory nodes 1)",
                            "", "-Xms0 -XX:-UseNUMA"};
  run.forks[1].allocator = run.forks[0].allocator;
  Json doc = Json::parse(render_jmh_json(results, host));
  const Json& same = record_named(doc, "Sample_01.hello")["cmh"];
  CHECK(same["numaMode"] == "off");
  CHECK(same["numaReason"] == run.forks[0].allocator.numa_reason);
  CHECK(same["allocatorOptions"] == "-Xms0 -XX:-UseNUMA");
  CHECK_FALSE(same.contains("forkAllocators"));

  run.forks[1].allocator = {true, "on", "UseNUMA is enabled in 'membind' mode on nodes 0-1", "0-1", "-Xms0 -XX:+UseNUMA"};
  doc = Json::parse(render_jmh_json(results, host));
  const Json& differ = record_named(doc, "Sample_01.hello")["cmh"];
  CHECK(differ["numaMode"] == "differs per fork");
  REQUIRE(differ["forkAllocators"].size() == 2);
  CHECK(differ["forkAllocators"][0]["fork"] == 1);
  CHECK(differ["forkAllocators"][0]["numaMode"] == "off");
  CHECK(differ["forkAllocators"][1]["numaMode"] == "on");
  CHECK(differ["forkAllocators"][1]["numaNodes"] == "0-1");
  CHECK(differ["forkAllocators"][1]["allocatorOptions"] == "-Xms0 -XX:+UseNUMA");

  // A fork that died before its handshake said nothing: unknown, never the host's view.
  run.forks[0].allocator = {};
  run.forks[1].allocator = {};
  doc = Json::parse(render_jmh_json(results, host));
  CHECK(record_named(doc, "Sample_01.hello")["cmh"]["numaMode"] == "unknown");
}

TEST_CASE("formats json: nasty names, params and labels survive the round trip") {
  Rendered r;
  const auto& nasty = r.results.benchmarks.back().params;
  const Json& rec = r.doc.back();
  CHECK(rec["benchmark"].get<std::string>() == nasty.benchmark);  // quotes, backslash, tab, \x01, DEL, UTF-8
  CHECK(rec["params"]["kind"] == "line1\nline2\r");
  CHECK(rec["params"]["size"] == "\xEF\xBF\xBD\xEF\xBF\xBD bad utf8 \xEF\xBF\xBD");  // ill-formed bytes repaired
  CHECK(rec["secondaryMetrics"].contains("odd \"label\""));
  CHECK(r.text.find("\\u0001\\u007f") != std::string::npos);
  CHECK(r.text.find("\\t") != std::string::npos);
}

TEST_CASE("formats json: the text has JMH's tidy layout") {
  Rendered r;
  CHECK(r.text.rfind("[\n    {\n        \"jmhVersion\" : \"0.1.0\",\n        \"benchmark\" : \"Sample_01.hello\",\n", 0) == 0);
  CHECK(r.text.size() > 2);
  CHECK(r.text.substr(r.text.size() - 8) == "    }\n]\n");
  CHECK(r.text.find("\"jvmArgs\" : [\n            \"-Xmx1g\",\n            \"-XX:+AlwaysPreTouch\"\n        ],") !=
        std::string::npos);
  CHECK(r.text.find("\"score\" : 1.0E8,") != std::string::npos);  // Java's Double.toString
  // Every line is indented by multiples of four spaces, and keys use " : ".
  std::istringstream lines(r.text);
  const std::regex key_line(R"(^( {4})*"([^"\\]|\\.)*" : .*$)");
  const std::regex value_line(R"(^( {4})*[^ "].*$|^( {4})*"([^"\\]|\\.)*",?$)");
  for (std::string line; std::getline(lines, line);) {
    CAPTURE(line);
    CHECK((std::regex_match(line, key_line) || std::regex_match(line, value_line)));
  }
}

TEST_CASE("formats json: tidy_json writes NaN and infinities as JMH's strings") {
  Json doc = Json::object();
  doc["nan"] = std::numeric_limits<double>::quiet_NaN();
  doc["pinf"] = HUGE_VAL;
  doc["minf"] = -HUGE_VAL;
  doc["int"] = 3;
  doc["small"] = 7.491496480476575E-4;
  doc["empty"] = Json::array();
  doc["flag"] = true;
  doc["none"] = nullptr;
  const std::string text = tidy_json(doc);
  CHECK(text ==
        "{\n"
        "    \"nan\" : \"NaN\",\n"
        "    \"pinf\" : \"+INF\",\n"
        "    \"minf\" : \"-INF\",\n"
        "    \"int\" : 3,\n"
        "    \"small\" : 7.491496480476575E-4,\n"
        "    \"empty\" : [\n"
        "    ],\n"
        "    \"flag\" : true,\n"
        "    \"none\" : null\n"
        "}\n");
  CHECK(Json::parse(text)["small"].get<double>() == 7.491496480476575E-4);
}
