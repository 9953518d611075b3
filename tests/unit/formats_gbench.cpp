// SPDX-License-Identifier: MIT
// -rf gbench: Google Benchmark's JSON, checked against what Google Benchmark's
// json_reporter writes and what tools/compare.py reads: the context block, one
// "iteration" row per fork, mean/median/stddev/cv rows, times per op in the
// benchmark's unit (throughput inverted), counters, error rows for failures.
#include <doctest/doctest.h>

#include "formats/renderers.hpp"
#include "formats_fixture.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

using namespace cmh;
using namespace cmh::formats;
using Json = nlohmann::ordered_json;
using cmh::formats::testing::keys_of;

namespace {

std::vector<Json> rows_of(const Json& doc, const std::string& run_name) {
  std::vector<Json> rows;
  for (const auto& row : doc["benchmarks"])
    if (row["run_name"] == run_name) rows.push_back(row);
  return rows;
}

Json render(const RunResults& results) {
  return Json::parse(render_gbench_json(results, testing::synthetic_context(), testing::synthetic_machine()));
}

}  // namespace

TEST_CASE("formats gbench: the context block, in Google Benchmark's order, then cmh's own strings") {
  const Json doc = render(testing::synthetic_results());
  CHECK(keys_of(doc) == std::vector<std::string>{"context", "benchmarks"});
  const Json& c = doc["context"];
  const std::vector<std::string> head = {"date", "host_name", "executable", "num_cpus", "mhz_per_cpu",
                                         "cpu_scaling_enabled", "caches", "load_avg", "library_version",
                                         "library_build_type", "json_schema_version"};
  const auto keys = keys_of(c);
  CHECK(std::vector<std::string>(keys.begin(), keys.begin() + static_cast<long>(head.size())) == head);
  CHECK(c["date"] == "2024-05-01T12:00:00+02:00");
  CHECK(c["host_name"] == "bench-host");
  CHECK(c["executable"] == "/opt/bench/cmh-samples");
  CHECK(c["num_cpus"] == 2);
  CHECK(c["mhz_per_cpu"] == 2596);  // an integer, as Google Benchmark writes it
  CHECK(c["cpu_scaling_enabled"] == false);
  REQUIRE(c["caches"].size() == 4);
  CHECK(keys_of(c["caches"][0]) == std::vector<std::string>{"type", "level", "size", "num_sharing"});
  CHECK(c["caches"][3]["size"] == 33554432);
  CHECK(c["caches"][3]["num_sharing"] == 2);
  CHECK(c["load_avg"] == Json::array({0.5, 0.25, 0.125}));
  CHECK(c["library_build_type"] == "release");
  CHECK(c["json_schema_version"] == 1);
  CHECK(c["compiler"] == "GCC 12.2.0");
  CHECK(c["numa_reason"] == "one NUMA node");
  CHECK(c["run_complete"] == "true");
  for (const auto& [key, value] : c.items())
    if (std::find(head.begin(), head.end(), key) == head.end()) CHECK_MESSAGE(value.is_string(), key);

  // Unknown scaling state: the key is left out, as Google Benchmark does.
  MachineInfo m = testing::synthetic_machine();
  m.cpu_scaling_enabled.reset();
  const Json doc2 = Json::parse(render_gbench_json(testing::synthetic_results(), testing::synthetic_context(), m));
  CHECK_FALSE(doc2["context"].contains("cpu_scaling_enabled"));
}

TEST_CASE("formats gbench: the context's NUMA mode, reason, nodes and options are the forks', not the host's") {
  RunResults results = testing::synthetic_results();
  model::RunContext host = testing::synthetic_context();
  host.numa_mode = "on";  // the host's own view must not leak into the file
  host.numa_reason = "UseNUMA is enabled in 'membind' mode on nodes 0-1";
  host.allocator_options = "-XX:+UseNUMA (the host's)";
  const AllocatorState bound = {true, "off",
                                "The process is bound to a single NUMA node, and its memory and cpu node "
                                "configuration does not match (cpu nodes 0, memory nodes 1)",
                                "", "-Xms0 -XX:-UseNUMA"};
  for (auto& run : results.benchmarks)
    for (auto& fork : run.forks) fork.allocator = bound;
  auto render_with = [&] {
    return Json::parse(render_gbench_json(results, host, testing::synthetic_machine()));
  };
  Json doc = render_with();
  CHECK(doc["context"]["numa_mode"] == "off");
  CHECK(doc["context"]["numa_reason"] == bound.numa_reason);
  CHECK(doc["context"]["numa_nodes"] == "");
  CHECK(doc["context"]["allocator_options"] == "-Xms0 -XX:-UseNUMA");
  for (const auto& row : doc["benchmarks"]) CHECK_FALSE(row.contains("fork_allocators"));

  // Forks that decided differently: the context says so, each row of that benchmark per fork.
  BenchmarkRunResult& hello = results.benchmarks.front();  // Sample_01.hello, 2 forks
  REQUIRE(hello.forks.size() == 2);
  hello.forks[1].allocator = {true, "on", "UseNUMA is enabled in 'membind' mode on nodes 0-1", "0-1",
                              "-Xms0 -XX:+UseNUMA"};
  doc = render_with();
  CHECK(doc["context"]["numa_mode"] == "differs per fork");
  CHECK(doc["context"]["allocator_options"] == "differs per fork");
  const auto hello_rows = rows_of(doc, "Sample_01.hello/mode:thrpt");
  REQUIRE_FALSE(hello_rows.empty());
  for (const auto& row : hello_rows) {
    REQUIRE(row.contains("fork_allocators"));
    const std::string text = row["fork_allocators"];
    CHECK(text.find("fork 1: off") != std::string::npos);
    CHECK(text.find("fork 2: on (nodes 0-1)") != std::string::npos);
    CHECK(text.find("-Xms0 -XX:+UseNUMA") != std::string::npos);
  }

  // No fork reported (each died before its handshake): unknown, never the host's view.
  for (auto& run : results.benchmarks)
    for (auto& fork : run.forks) fork.allocator = {};
  doc = render_with();
  CHECK(doc["context"]["numa_mode"] == "unknown");
  CHECK(doc["context"]["allocator_options"] == "unknown");
}

TEST_CASE("formats gbench: one iteration row per fork and four aggregates, with Google Benchmark's keys") {
  const Json doc = render(testing::synthetic_results());
  const auto rows = rows_of(doc, "Sample_01.hello/mode:thrpt");
  REQUIRE(rows.size() == 6);
  for (int i = 0; i < 2; ++i) {
    const Json& row = rows[static_cast<std::size_t>(i)];
    const auto keys = keys_of(row);
    const std::vector<std::string> expected = {"name", "family_index", "per_family_instance_index", "run_name",
                                               "run_type", "repetitions", "repetition_index", "threads",
                                               "iterations", "real_time", "cpu_time", "time_unit"};
    CHECK(std::vector<std::string>(keys.begin(), keys.begin() + 12) == expected);
    CHECK(row["name"] == "Sample_01.hello/mode:thrpt");
    CHECK(row["run_type"] == "iteration");
    CHECK(row["repetitions"] == 2);
    CHECK(row["repetition_index"] == i);
    CHECK(row["threads"] == 1);
    CHECK(row["time_unit"] == "s");
    CHECK(row["iterations"] == 300'000'000);
    // Throughput 1e8 ops/s on average in both forks: 1e-8 s per op.
    CHECK(row["real_time"].get<double>() == doctest::Approx(1e-8));
    // cpu_time is measured CPU time (0.95 s per 1e8 ops in the fixture), never a copy of real_time.
    CHECK(row["cpu_time"].get<double>() == doctest::Approx(9.5e-9));
    CHECK(row["items_per_second"].get<double>() == doctest::Approx(1e8));
    // Counters per fork by policy: average for rates, sum for counts.
    CHECK(row["alloc.rate.norm"] == 16.0);
    CHECK(row["alloc.count"] == 12.0);
    CHECK(row["alloc.rate"].get<double>() == doctest::Approx(1510.0 + i));
  }
  const std::vector<std::string> names = {"mean", "median", "stddev", "cv"};
  for (int i = 0; i < 4; ++i) {
    const Json& row = rows[static_cast<std::size_t>(2 + i)];
    CHECK(row["name"] == "Sample_01.hello/mode:thrpt_" + names[static_cast<std::size_t>(i)]);
    CHECK(row["run_type"] == "aggregate");
    CHECK(row["aggregate_name"] == names[static_cast<std::size_t>(i)]);
    CHECK(row["aggregate_unit"] == (i == 3 ? "percentage" : "time"));
    CHECK_FALSE(row.contains("repetition_index"));
    CHECK(row["iterations"] == 2);  // Google Benchmark's quirk: the number of repetitions
  }
  CHECK(rows[2]["alloc.rate"].get<double>() == doctest::Approx(1510.5));
  CHECK(rows[4]["alloc.rate"].get<double>() == doctest::Approx(std::sqrt(0.5)));  // stddev of 1510, 1511
}

TEST_CASE("formats gbench: times per op in the benchmark's unit, aggregates over forks") {
  const Json doc = render(testing::synthetic_results());
  // Average time with params: the params are in the name, one fork gives no aggregates.
  const auto params = rows_of(doc, "Sample_02.params/kind:a b,\"c\";d/size:64/mode:avgt");
  REQUIRE(params.size() == 1);
  CHECK(params[0]["real_time"].get<double>() == doctest::Approx(12.75));
  CHECK(params[0]["time_unit"] == "ns");
  CHECK(params[0]["iterations"] == 2000);

  // Sample time: each fork's value is the mean of its samples, in us.
  const auto sampled = rows_of(doc, "Sample_03.sampled/mode:sample");
  REQUIRE(sampled.size() == 6);
  CHECK(sampled[0]["time_unit"] == "us");
  const double f0 = sampled[0]["real_time"].get<double>();
  const double f1 = sampled[1]["real_time"].get<double>();
  CHECK(f0 > 1.0);
  CHECK(f0 < f1);  // fork 2's second samples are 100 ns slower
  CHECK(sampled[2]["real_time"].get<double>() == doctest::Approx((f0 + f1) / 2));
  CHECK(sampled[3]["real_time"].get<double>() == doctest::Approx((f0 + f1) / 2));
  const double sd = std::fabs(f1 - f0) / std::sqrt(2.0);
  CHECK(sampled[4]["real_time"].get<double>() == doctest::Approx(sd));
  CHECK(sampled[5]["real_time"].get<double>() == doctest::Approx(sd / ((f0 + f1) / 2)));

  const auto once = rows_of(doc, "Sample_04.once/mode:ss");
  REQUIRE(once.size() == 1);
  CHECK(once[0]["real_time"].get<double>() == doctest::Approx(2.5));
  CHECK(once[0]["time_unit"] == "ms");
}

TEST_CASE("formats gbench: failures are error rows, aggregates only over two or more good forks") {
  const Json doc = render(testing::synthetic_results());
  const auto crashed = rows_of(doc, "Sample_05.crashes/mode:avgt");
  REQUIRE(crashed.size() == 2);
  CHECK_FALSE(crashed[0].contains("error_occurred"));
  CHECK(crashed[0]["real_time"].get<double>() == doctest::Approx(5.5));
  CHECK(crashed[1]["error_occurred"] == true);
  CHECK(crashed[1]["error_message"] == "forked process failed: signal 11 (Segmentation fault)");
  CHECK(crashed[1]["repetition_index"] == 1);
  const auto keys = keys_of(crashed[1]);
  CHECK(std::find(keys.begin(), keys.end(), "error_occurred") - keys.begin() == 8);  // right after threads
  CHECK(crashed[1]["real_time"] == 0.0);

  const auto never = rows_of(doc, "Sample_06.never/mode:thrpt");
  REQUIRE(never.size() == 1);
  CHECK(never[0]["error_occurred"] == true);
  CHECK(never[0]["error_message"] == "setup threw: bad \\ path \"C:\\tmp\"\n second line");
  CHECK(never[0]["time_unit"] == "ms");
}

TEST_CASE("formats gbench: names are unique per benchmark x mode x params, families group benchmarks") {
  RunResults results = testing::synthetic_results();
  // The same benchmark in a second mode and with a second parameter point.
  BenchmarkRunResult again = results.benchmarks[1];
  again.params.params[1].second = "128";
  results.benchmarks.insert(results.benchmarks.begin() + 2, again);
  BenchmarkRunResult other_mode = results.benchmarks[0];
  other_mode.params.mode = BenchmarkMode::average_time;
  results.benchmarks.push_back(other_mode);
  const Json doc = render(results);
  std::set<std::pair<std::string, int>> seen;
  for (const auto& row : doc["benchmarks"]) {
    if (row["run_type"] != "iteration") continue;
    CHECK(seen.insert({row["name"].get<std::string>(), row["repetition_index"].get<int>()}).second);
  }
  const auto first = rows_of(doc, "Sample_02.params/kind:a b,\"c\";d/size:64/mode:avgt");
  const auto second = rows_of(doc, "Sample_02.params/kind:a b,\"c\";d/size:128/mode:avgt");
  REQUIRE(first.size() == 1);
  REQUIRE(second.size() == 1);
  CHECK(first[0]["family_index"] == second[0]["family_index"]);
  CHECK(first[0]["per_family_instance_index"] == 0);
  CHECK(second[0]["per_family_instance_index"] == 1);
  CHECK(rows_of(doc, "Sample_01.hello/mode:avgt").size() == 6);
}

/// A benchmark registered at run time under its own framework's name (cmh::gbench's instances).
static BenchmarkRunResult foreign_run(const std::string& name, int threads, std::vector<std::pair<std::string, std::string>> params) {
  BenchmarkRunResult run;
  run.params = testing::params_of("", "", BenchmarkMode::average_time, TimeUnit::ns);
  run.params.benchmark = run.params.group = name;
  run.params.threads = threads;
  run.params.params = std::move(params);
  run.forks.push_back(testing::fork_of(1, {testing::iteration(1, 2.0, "ns/op")}));
  return run;
}

TEST_CASE("formats gbench: a Google Benchmark instance keeps Google Benchmark's name unless two runs share it") {
  RunResults results;
  results.benchmarks.push_back(foreign_run("BM_pairs/a:1/b:2", 1, {{"a", "1"}, {"b", "2"}}));
  results.benchmarks.push_back(foreign_run("BM_threads/threads:2", 2, {}));
  results.benchmarks.push_back(foreign_run("BM_plain", 4, {}));  // -t 4 on an instance without Threads()
  // -p arg0=64,4096: two runs of one instance must stay apart.
  results.benchmarks.push_back(foreign_run("BM_memcpy/64", 1, {{"arg0", "64"}}));
  results.benchmarks.push_back(foreign_run("BM_memcpy/64", 1, {{"arg0", "4096"}}));
  const Json doc = render(results);
  CHECK(rows_of(doc, "BM_pairs/a:1/b:2").size() == 1);
  CHECK(rows_of(doc, "BM_threads/threads:2").size() == 1);
  CHECK(rows_of(doc, "BM_plain/threads:4").size() == 1);
  CHECK(rows_of(doc, "BM_memcpy/64/arg0:64/mode:avgt").size() == 1);
  CHECK(rows_of(doc, "BM_memcpy/64/arg0:4096/mode:avgt").size() == 1);
  CHECK(doc["benchmarks"].size() == 5);
}

TEST_CASE("formats gbench: units compare.py cannot read become seconds, zero throughput is null") {
  RunResults results;
  BenchmarkRunResult slow;
  slow.params = testing::params_of("Slow", "minutes", BenchmarkMode::average_time, TimeUnit::min);
  slow.forks.push_back(testing::fork_of(1, {testing::iteration(1, 2.0, "min/op")}));
  results.benchmarks.push_back(slow);
  BenchmarkRunResult stalled;
  stalled.params = testing::params_of("Slow", "stalled", BenchmarkMode::throughput, TimeUnit::s);
  stalled.forks.push_back(testing::fork_of(1, {testing::iteration(1, 0.0, "ops/s")}));
  results.benchmarks.push_back(stalled);
  const Json doc = render(results);
  const auto rows = rows_of(doc, "Slow.minutes/mode:avgt");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0]["time_unit"] == "s");
  CHECK(rows[0]["real_time"].get<double>() == doctest::Approx(120.0));
  const auto stalled_rows = rows_of(doc, "Slow.stalled/mode:thrpt");
  REQUIRE(stalled_rows.size() == 1);
  CHECK(stalled_rows[0]["real_time"].is_null());  // valid JSON, unlike Google Benchmark's bare inf
}

TEST_CASE("formats gbench: nasty names and ill-formed UTF-8 still give valid JSON") {
  const RunResults results = testing::synthetic_results();
  const std::string text = render_gbench_json(results, testing::synthetic_context(), testing::synthetic_machine());
  const Json doc = Json::parse(text);  // throws on invalid JSON or UTF-8
  const auto& nasty = results.benchmarks.back().params;
  bool found = false;
  for (const auto& row : doc["benchmarks"])
    if (row["name"].get<std::string>().rfind(nasty.benchmark + "/kind:line1\nline2\r/size:", 0) == 0) {
      found = true;
      CHECK(row.contains("odd \"label\""));
    }
  CHECK(found);
}
