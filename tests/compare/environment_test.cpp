// SPDX-License-Identifier: MIT
// cmh.environment in cmh-compare: read from cmh's JSON and gbench files, and one
// warning per difference between two runs; nothing for files without it.
#include <cmh/compare/comparison.hpp>
#include <cmh/compare/model.hpp>

#include <doctest/doctest.h>

#include <string>

using namespace cmh::compare;

namespace {

std::string cmh_file(const std::string& environment) {
  return R"([{"jmhVersion":"0.1.0","benchmark":"a.B.c","mode":"avgt","threads":1,"forks":1,
    "primaryMetric":{"score":1.0,"scoreError":0.1,"scoreUnit":"ns/op","rawData":[[1.0,1.1,0.9]]},
    "secondaryMetrics":{},"cmh":{"warnings":[],)" + environment + "}}]";
}

bool mentions(const std::vector<std::string>& warnings, const std::string& what) {
  for (const auto& w : warnings)
    if (w.find(what) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("compare: two runs on a machine in different states get one warning per difference") {
  const auto base = parse_result_text(
      cmh_file(R"("environment":{"governor":"powersave","boost":"on","smt":"on","tuned":"no"})"), "base.json");
  const auto contender = parse_result_text(
      cmh_file(R"("environment":{"governor":"performance","boost":"on","smt":"on","tuned":"yes"})"), "new.json");
  REQUIRE(base.records.size() == 1);
  CHECK(base.records[0].environment.at("machine.governor") == "powersave");
  CHECK(base.records[0].environment.at("machine.tuned") == "no");
  const Comparison c = compare_files(base, contender, CompareOptions{});
  CHECK(mentions(c.warnings, "the machine differs: governor was 'powersave' in base, 'performance' in new"));
  CHECK(mentions(c.warnings, "the machine differs: tuned was 'no' in base, 'yes' in new"));
  CHECK_FALSE(mentions(c.warnings, "boost"));
  const auto fewer = parse_result_text(cmh_file(R"("environment":{"governor":"powersave"})"), "fewer.json");
  CHECK(mentions(compare_files(fewer, base, CompareOptions{}).warnings, "smt was not recorded in base, 'on' in new"));
  CHECK(compare_files(base, base, CompareOptions{}).warnings.empty());
}

TEST_CASE("compare: files without cmh.environment compare without environment warnings") {
  const auto old_cmh = parse_result_text(cmh_file(R"("failed":false)"), "old.json");
  const auto now = parse_result_text(cmh_file(R"("environment":{"governor":"performance"})"), "new.json");
  CHECK(old_cmh.records.at(0).environment.count("machine.governor") == 0);
  CHECK(compare_files(old_cmh, now, CompareOptions{}).warnings.empty());
  const auto gbench = parse_result_text(
      R"({"context":{"cmh_version":"0.1.0","warnings":"","cmh_environment":"governor=schedutil; vm=KVM"},
          "benchmarks":[{"name":"a/b","run_name":"a/b","run_type":"iteration","repetitions":1,"repetition_index":0,
          "threads":1,"iterations":10,"real_time":5.0,"cpu_time":5.0,"time_unit":"ns"}]})",
      "g.json");
  CHECK(gbench.records.at(0).environment.at("machine.governor") == "schedutil");
  CHECK(gbench.records.at(0).environment.at("machine.vm") == "KVM");
  CHECK(mentions(compare_files(gbench, now, CompareOptions{}).warnings, "governor was 'schedutil'"));
}
