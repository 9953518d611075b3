// SPDX-License-Identifier: MIT
// -rf csv / scsv / latex: JMH's header, rows and quoting, "\r\n" line ends,
// numbers that do not change with the locale (checked under a comma-decimal C
// locale when the machine has one, and always under a comma-decimal C++ global
// locale), and LaTeX escaping of every special.
#include <doctest/doctest.h>

#include "formats/renderers.hpp"
#include "formats_fixture.hpp"

#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <locale>
#include <sstream>

using namespace cmh;
using namespace cmh::formats;

namespace {

std::vector<std::string> split_crlf(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t at; (at = text.find("\r\n", start)) != std::string::npos; start = at + 2)
    lines.push_back(text.substr(start, at - start));
  CHECK(start == text.size());  // the last line is terminated too
  return lines;
}

struct CommaDecimal : std::numpunct<char> {
  char do_decimal_point() const override { return ','; }
  char do_thousands_sep() const override { return '.'; }
  std::string do_grouping() const override { return "\3"; }
};

bool uses_decimal_comma() {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f", 1.5);
  return std::string(buf) == "1,5";
}

/// Switches the C locale to one with a decimal comma: an installed one, or else one
/// compiled with localedef into TMPDIR (glibc reads LOCPATH on every setlocale call).
/// Returns its name, or nullptr when neither is possible.
const char* comma_c_locale() {
  for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "ru_RU.UTF-8", "de_DE", "fr_FR", "ru_RU"})
    if (std::setlocale(LC_ALL, name) != nullptr && uses_decimal_comma()) return name;
  std::setlocale(LC_ALL, "C");
  const std::string dir = (std::filesystem::temp_directory_path() / "cmh-formats-locale").string();
  std::filesystem::create_directories(dir);
  const std::string command = "localedef -i de_DE -f UTF-8 '" + dir + "/de_DE.UTF-8' >/dev/null 2>&1";
  if (std::system(command.c_str()) != 0) return nullptr;
  ::setenv("LOCPATH", dir.c_str(), 1);
  const bool ok = std::setlocale(LC_ALL, "de_DE.UTF-8") != nullptr && uses_decimal_comma();
  ::unsetenv("LOCPATH");
  if (!ok) std::setlocale(LC_ALL, "C");
  return ok ? "de_DE.UTF-8 (built with localedef)" : nullptr;
}

}  // namespace

TEST_CASE("formats csv: JMH's header with sorted param columns, quoted, CRLF") {
  const std::string csv = render_xsv(testing::synthetic_results(), ',');
  const auto lines = split_crlf(csv);
  REQUIRE(!lines.empty());
  CHECK(lines[0] ==
        "\"Benchmark\",\"Mode\",\"Threads\",\"Samples\",\"Score\",\"Score Error (99.9%)\",\"Unit\","
        "\"Param: kind\",\"Param: size\",\"NUMA\",\"Allocator Options\"");
  CHECK(lines[1].rfind("\"Sample_01.hello\",\"thrpt\",1,6,100000000.000000,19828594.", 0) == 0);
  // The last two columns: what the benchmark's forks reported about their allocator.
  const std::string fork_columns = ",\"off: one NUMA node\",\"-Xmx1g -XX:+AlwaysPreTouch\"";
  CHECK(lines[1].substr(lines[1].size() - 10 - fork_columns.size()) == ",\"ops/s\",," + fork_columns);
  // Secondary results are rows of their own, "bench:label", sorted by label.
  CHECK(lines[2].rfind("\"Sample_01.hello:alloc.count\",\"thrpt\",1,6,24.000000,NaN,\"counts\",,", 0) == 0);
  CHECK(lines[3].rfind("\"Sample_01.hello:alloc.rate\",", 0) == 0);
  CHECK(lines[4] == "\"Sample_01.hello:alloc.rate.norm\",\"thrpt\",1,6,16.000000,0.000000,\"B/op\",," + fork_columns);
  // Param values quoted only when needed, with doubled quotes; N = 2 gives a NaN error.
  CHECK(lines[5] == "\"Sample_02.params\",\"avgt\",1,2,12.750000,NaN,\"ns/op\",\"a b,\"\"c\"\";d\",64" + fork_columns);
  // A failed benchmark is one row of NaN, whether a fork completed before the failure or not.
  bool crashed = false, never = false;
  for (const auto& l : lines) {
    crashed = crashed || l == "\"Sample_05.crashes\",\"avgt\",1,0,NaN,NaN,\"us/op\",," + fork_columns;
    // No fork reported anything: unknown, not the host's view.
    never = never || l == "\"Sample_06.never\",\"thrpt\",1,0,NaN,NaN,\"ops/ms\",,,\"unknown (the fork did not report)\","
                         "\"unknown\"";
  }
  CHECK(crashed);
  CHECK(never);
}

TEST_CASE("formats scsv: the same with semicolons, and a semicolon triggers quoting instead of a comma") {
  const auto lines = split_crlf(render_xsv(testing::synthetic_results(), ';'));
  CHECK(lines[0].rfind("\"Benchmark\";\"Mode\";\"Threads\";\"Samples\";\"Score\";\"Score Error (99.9%)\";\"Unit\";", 0) == 0);
  CHECK(lines[5] == "\"Sample_02.params\";\"avgt\";1;2;12.750000;NaN;\"ns/op\";\"a b,\"\"c\"\";d\";64;"
                    "\"off: one NUMA node\";\"-Xmx1g -XX:+AlwaysPreTouch\"");
}

TEST_CASE("formats csv: nasty names keep the file parseable") {
  const RunResults results = testing::synthetic_results();
  const std::string csv = render_xsv(results, ',');
  const auto& nasty = results.benchmarks.back().params;
  // The name is quoted with its quote doubled; the param with a newline is quoted.
  std::string quoted_name = "\"";
  for (const char c : nasty.benchmark) quoted_name += c == '"' ? std::string("\"\"") : std::string(1, c);
  quoted_name += "\"";
  CHECK(csv.find(quoted_name + ",\"avgt\",1,3,2.000000,") != std::string::npos);
  CHECK(csv.find(",\"line1\nline2\r\",\"\xEF\xBF\xBD\xEF\xBF\xBD bad utf8 \xEF\xBF\xBD\",\"off: one NUMA node\","
                 "\"-Xmx1g -XX:+AlwaysPreTouch\"\r\n") != std::string::npos);
  // A minimal RFC 4180 reader: every record has the header's field count.
  std::vector<std::vector<std::string>> records(1);
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < csv.size(); ++i) {
    const char c = csv[i];
    if (quoted) {
      if (c == '"' && i + 1 < csv.size() && csv[i + 1] == '"') field += csv[++i];
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      records.back().push_back(field);
      field.clear();
    } else if (c == '\r' && i + 1 < csv.size() && csv[i + 1] == '\n') {
      records.back().push_back(field);
      field.clear();
      records.emplace_back();
      ++i;
    } else {
      field += c;
    }
  }
  records.pop_back();  // after the final CRLF
  for (const auto& r : records) CHECK(r.size() == records[0].size());
  CHECK(records[records.size() - 2][0] == nasty.benchmark);
  CHECK(records.back()[0] == nasty.benchmark + ":odd \"label\"");
}

TEST_CASE("formats csv/latex: numbers ignore the C and C++ locales") {
  const RunResults results = testing::synthetic_results();
  const std::string csv_c = render_xsv(results, ',');
  const std::string scsv_c = render_xsv(results, ';');
  const std::string tex_c = render_latex(results);

  const std::locale previous = std::locale::global(std::locale(std::locale::classic(), new CommaDecimal));
  CHECK(render_xsv(results, ',') == csv_c);
  CHECK(render_latex(results) == tex_c);
  std::locale::global(previous);

  if (const char* name = comma_c_locale()) {
    MESSAGE("checked under the C locale " << std::string(name));
    CHECK(render_xsv(results, ',') == csv_c);
    CHECK(render_xsv(results, ';') == scsv_c);
    CHECK(render_latex(results) == tex_c);
    std::setlocale(LC_ALL, "C");
  } else {
    MESSAGE("no comma-decimal C locale available (none installed, localedef failed): C locale part skipped");
  }
  CHECK(csv_c.find("100000000.000000") != std::string::npos);
}

TEST_CASE("formats latex: JMH's tabular, unit column when units differ, specials escaped") {
  const std::string tex = render_latex(testing::synthetic_results());
  std::istringstream in(tex);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  REQUIRE(lines.size() > 4);
  CHECK(lines[0] == "\\begin{tabular}{r|l|l|rll}");
  CHECK(lines[1] ==
        " \\multicolumn{1}{c|}{\\texttt{Benchmark}} & \\texttt{kind} & \\texttt{size} &  "
        "\\multicolumn{3}{c}{\\texttt{Score}} \\\\");
  CHECK(lines[2] == "\\hline");
  CHECK(lines[3] ==
        "\\texttt{Sample\\_01.hello} & \\texttt{} & \\texttt{} & \\texttt{100000000.000} & \\scriptsize $\\pm$ "
        "\\texttt{19828594.507} & \\texttt{ops/s} \\\\");
  CHECK(lines.back() == "\\end{tabular}");
  // N = 2: no error, and JMH leaves the cell blank rather than writing "± NaN".
  CHECK(tex.find("\\texttt{Sample\\_02.params} & \\texttt{a b,\"c\";d} & \\texttt{64} & \\texttt{12.750} & "
                 " & \\texttt{ns/op} \\\\") != std::string::npos);
  CHECK(tex.find("$\\pm$ \\texttt{  NaN}") == std::string::npos);
  CHECK(tex.find("\\texttt{Nasty.n\"a\\textbackslash{}m\\_e\\#\\{x\\}\\%\\&\\$\\textasciicircum{}"
                 "\\textasciitilde{}\\textbackslash{}x09\\textbackslash{}x01\\textbackslash{}x7F-\xC3\xBC\xE2\x82\xAC} & "
                 "\\texttt{line1\\textbackslash{}x0Aline2\\textbackslash{}x0D} & ") != std::string::npos);
}

TEST_CASE("formats latex: one unit for every row goes into the header") {
  RunResults results;
  BenchmarkRunResult b;
  b.params = testing::params_of("One", "unit_test", BenchmarkMode::average_time, TimeUnit::ns);
  b.forks.push_back(testing::fork_of(1, {testing::iteration(1, 1.0, "ns/op"), testing::iteration(2, 2.0, "ns/op"),
                                         testing::iteration(3, 3.0, "ns/op")}));
  results.benchmarks.push_back(b);
  const std::string tex = render_latex(results);
  CHECK(tex.rfind("\\begin{tabular}{r|rl}\n"
                  " \\multicolumn{1}{c|}{\\texttt{Benchmark}} &  \\multicolumn{2}{c}{\\texttt{Score, ns/op}} \\\\\n"
                  "\\hline\n"
                  "\\texttt{One.unit\\_test} & \\texttt{2.000} & \\scriptsize $\\pm$ \\texttt{",
                  0) == 0);
  CHECK(tex.find("} \\\\\n\\end{tabular}\n") != std::string::npos);
}
