// SPDX-License-Identifier: MIT
// Golden files: every result format rendered from the fixed synthetic results
// (formats_fixture.hpp) must equal tests/golden/formats/results.<ext> byte for
// byte. After an intended change, regenerate with CMH_UPDATE_GOLDEN=1 and review
// the diff: the golden files are the formats' specification by example.
#include <doctest/doctest.h>

#include "formats/renderers.hpp"
#include "formats_fixture.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace cmh::formats;

namespace {

std::string golden_path(const std::string& name) {
  return std::string(CMH_TEST_SOURCE_DIR) + "/golden/formats/" + name;
}

void check_golden(const std::string& name, const std::string& actual) {
  const std::string path = golden_path(name);
  if (std::getenv("CMH_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(path, std::ios::binary) << actual;
    MESSAGE("updated " << path);
    return;
  }
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "missing golden file " << path << " (run with CMH_UPDATE_GOLDEN=1)");
  std::ostringstream expected;
  expected << in.rdbuf();
  if (expected.str() == actual) return;
  // Point at the first differing line rather than dumping two large documents.
  std::istringstream e(expected.str()), a(actual);
  std::string el, al;
  int line = 1;
  while (std::getline(e, el) && std::getline(a, al) && el == al) ++line;
  FAIL_CHECK(name << " differs from " << path << " at line " << line << ":\n  expected: " << el
                  << "\n  actual:   " << al);
}

}  // namespace

TEST_CASE("formats golden: json") {
  check_golden("results.json", render_jmh_json(testing::synthetic_results(), testing::synthetic_context()));
}

TEST_CASE("formats golden: gbench") {
  check_golden("results.gbench.json", render_gbench_json(testing::synthetic_results(), testing::synthetic_context(),
                                                         testing::synthetic_machine()));
}

TEST_CASE("formats golden: csv and scsv") {
  check_golden("results.csv", render_xsv(testing::synthetic_results(), ','));
  check_golden("results.scsv", render_xsv(testing::synthetic_results(), ';'));
}

TEST_CASE("formats golden: latex") { check_golden("results.tex", render_latex(testing::synthetic_results())); }

TEST_CASE("formats golden: text") { check_golden("results.txt", render_text(testing::synthetic_results())); }
