// SPDX-License-Identifier: MIT
// Unit tests of benchmark selection: partial-match include regexes on Group.name,
// excludes that win, sorted order, bad regexes.
#include <doctest/doctest.h>

#include "host/planner_selection.hpp"
#include "planner_fixture.hpp"

using namespace planner_test;
using cmh::BenchmarkDefinition;

namespace {

std::vector<BenchmarkDefinition> selection_registry() {
  // Deliberately unsorted: selection sorts by full name.
  return {bench("TAB", "separate"), bench("Hello", "world"), bench("TAB", "inline"), bench("Params", "sum"),
          bench("TABLE", "scan")};
}

std::vector<std::string> names(const cmh::cli::CommandLine& cl, const std::vector<BenchmarkDefinition>& reg) {
  std::vector<std::string> out;
  for (const auto* def : cmh::host::select_benchmarks(cl, reg)) out.push_back(def->full_name());
  return out;
}

using V = std::vector<std::string>;

}  // namespace

TEST_CASE("no include pattern selects everything, sorted by full name") {
  CHECK(names(command_line({}), selection_registry()) ==
        V{"Hello.world", "Params.sum", "TAB.inline", "TAB.separate", "TABLE.scan"});
}

TEST_CASE("include patterns match anywhere in Group.name") {
  const auto reg = selection_registry();
  CHECK(names(command_line({"TAB"}), reg) == V{"TAB.inline", "TAB.separate", "TABLE.scan"});
  CHECK(names(command_line({"TAB\\."}), reg) == V{"TAB.inline", "TAB.separate"});
  CHECK(names(command_line({"^TAB\\.in"}), reg) == V{"TAB.inline"});
  CHECK(names(command_line({"line$"}), reg) == V{"TAB.inline"});
  CHECK(names(command_line({".*"}), reg).size() == 5);
  CHECK(names(command_line({"orl", "sum"}), reg) == V{"Hello.world", "Params.sum"});
  CHECK(names(command_line({"B\\.sep|d$"}), reg) == V{"Hello.world", "TAB.separate"});
  CHECK(names(command_line({"nothing-matches"}), reg).empty());
  CHECK(names(command_line({"tab"}), reg).empty());  // case matters, as in JMH
}

TEST_CASE("excludes win over includes") {
  const auto reg = selection_registry();
  CHECK(names(command_line({"TAB", "-e", "sep"}), reg) == V{"TAB.inline", "TABLE.scan"});
  CHECK(names(command_line({"-e", "TAB"}), reg) == V{"Hello.world", "Params.sum"});
  CHECK(names(command_line({"-e", "TAB,Hello"}), reg) == V{"Params.sum"});
  CHECK(names(command_line({"TAB.inline", "-e", "inline"}), reg).empty());
}

TEST_CASE("an invalid regex is a command-line error naming it") {
  const auto reg = selection_registry();
  CHECK(error_of([&] { cmh::host::select_benchmarks(command_line({"("}), reg); })
            .starts_with("Invalid include regular expression \"(\": "));
  CHECK(error_of([&] { cmh::host::select_benchmarks(command_line({"TAB", "-e", "[x"}), reg); })
            .starts_with("Invalid exclude (-e) regular expression \"[x\": "));
  CHECK(error_of([&] { cmh::host::select_benchmarks(command_line({"a{2,1}"}), reg); })
            .starts_with("Invalid include regular expression \"a{2,1}\""));
}
