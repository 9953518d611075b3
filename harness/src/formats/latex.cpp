// SPDX-License-Identifier: MIT
// -rf latex: JMH's LaTeX tabular (jmh.md section 4.3): one column per parameter,
// score and error, and the unit in the header when every row shares it (else a
// unit column). All LaTeX specials in names, parameters and units are escaped.
#include "stats/nan.hpp"
#include <cmh/common/escape.hpp>
#include "formats/labels.hpp"
#include <cmh/common/numbers.hpp>
#include "formats/renderers.hpp"

#include <cmath>
#include <limits>
#include <set>

namespace cmh::formats {
namespace {


/// Java's "%5.3f": three decimals, right-aligned in five characters.
std::string score_text(double v) {
  std::string s = fixed(v, 3);
  if (s.size() < 5) s.insert(0, 5 - s.size(), ' ');
  return s;
}

struct Row {
  std::string label;
  const BenchmarkParams* params;
  double score, error;
  std::string unit;
};

}  // namespace

std::string render_latex(const RunResults& results) {
  std::vector<Row> rows;
  std::set<std::string> param_keys;
  std::set<std::string> units;
  for (const auto& agg : aggregate_all(results)) {
    const BenchmarkParams& p = agg.run->params;
    for (const auto& [key, value] : p.params) param_keys.insert(key);
    if (agg.run->failed() || !agg.has_results()) {  // as in CSV: a failed benchmark has no score
      rows.push_back({p.benchmark, &p, kNaN, kNaN, primary_unit_of(agg, p)});
      continue;
    }
    rows.push_back({p.benchmark, &p, agg.primary.score, agg.primary.error, primary_unit_of(agg, p)});
    for (const auto& m : agg.secondaries) rows.push_back({p.benchmark + ":" + m.label, &p, m.score, m.error, m.unit});
  }
  for (const auto& r : rows) units.insert(r.unit);
  const bool single_unit = units.size() == 1;

  std::string out = "\\begin{tabular}{r|";
  for (std::size_t i = 0; i < param_keys.size(); ++i) out += "l|";
  out += single_unit ? "rl}\n" : "rll}\n";
  out += " \\multicolumn{1}{c|}{\\texttt{Benchmark}} & ";
  for (const auto& key : param_keys) out += "\\texttt{" + latex_escape(key) + "} & ";
  out += " \\multicolumn{";
  out += single_unit ? "2" : "3";
  out += "}{c}{\\texttt{Score";
  if (single_unit) out += ", " + latex_escape(*units.begin());
  out += "}} \\\\\n\\hline\n";

  for (const auto& r : rows) {
    out += "\\texttt{" + latex_escape(r.label) + "} & ";
    for (const auto& key : param_keys) {
      out += "\\texttt{";
      for (const auto& [k, v] : r.params->params)
        if (k == key) out += latex_escape(v);
      out += "} & ";
    }
    out += "\\texttt{" + score_text(r.score) + "} & ";
    // JMH leaves the error cell blank when there is no error (N <= 2, sums, failures).
    if (!std::isnan(r.error)) out += "\\scriptsize $\\pm$ \\texttt{" + score_text(r.error) + "}";
    if (!single_unit) out += " & \\texttt{" + latex_escape(r.unit) + "}";
    out += " \\\\\n";
  }
  out += "\\end{tabular}\n";
  return out;
}

}  // namespace cmh::formats
