// SPDX-License-Identifier: MIT
// Unit tests of the -l and -lp listings: JMH's text, selection applied, -p values
// shown in place of the declared ones.
#include <doctest/doctest.h>

#include "host/listing.hpp"
#include "planner_fixture.hpp"

using namespace planner_test;
using cmh::BenchmarkDefinition;

namespace {
std::vector<BenchmarkDefinition> listing_registry() {
  return {bench("TAB", "separate"), bench("TAB", "inline"),
          bench("Params", "sum", {{"size", {"1", "10", "100"}, "int"}, {"kind", {"array"}, "std::string"}}),
          bench("Empty", "p", {{"none", {}, "int"}})};
}
}  // namespace

TEST_CASE("-l prints 'Benchmarks: ' then the selected names, sorted") {
  CHECK(cmh::host::list_benchmarks(command_line({"-l"}), listing_registry()) ==
        "Benchmarks: \nEmpty.p\nParams.sum\nTAB.inline\nTAB.separate\n");
  CHECK(cmh::host::list_benchmarks(command_line({"-l", "TAB", "-e", "sep"}), listing_registry()) ==
        "Benchmarks: \nTAB.inline\n");
  CHECK(cmh::host::list_benchmarks(command_line({"-l", "nothing"}), listing_registry()) == "Benchmarks: \n");
}

TEST_CASE("-lp adds each parameter, sorted by name, with -p values applied") {
  CHECK(cmh::host::list_benchmarks_with_params(command_line({"-lp"}), listing_registry()) ==
        "Benchmarks: \n"
        "Empty.p\n"
        "  param \"none\" = {}\n"
        "Params.sum\n"
        "  param \"kind\" = {array}\n"
        "  param \"size\" = {1, 10, 100}\n"
        "TAB.inline\n"
        "TAB.separate\n");
  CHECK(cmh::host::list_benchmarks_with_params(command_line({"-lp", "Params", "-p", "size=5,6"}), listing_registry()) ==
        "Benchmarks: \n"
        "Params.sum\n"
        "  param \"kind\" = {array}\n"
        "  param \"size\" = {5, 6}\n");
}

TEST_CASE("listings reject a bad regex like the planner") {
  CHECK(error_of([] { cmh::host::list_benchmarks(command_line({"-l", "("}), listing_registry()); })
            .starts_with("Invalid include regular expression \"(\""));
  CHECK(error_of([] { cmh::host::list_benchmarks_with_params(command_line({"-lp", "-e", "("}), listing_registry()); })
            .starts_with("Invalid exclude (-e) regular expression \"(\""));
}
