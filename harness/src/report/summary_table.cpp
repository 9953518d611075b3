// SPDX-License-Identifier: MIT
// The summary table: rows from aggregate(), column widths from the widest cell
// (code points, so "≈ 10⁻⁴" and "±" align), then the failed and not-run lists.
#include "report/summary_table.hpp"

#include "report/failure_text.hpp"
#include "report/score_format.hpp"
#include "stats/aggregate.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace cmh::report {
namespace {

constexpr std::size_t kColumnPad = 2;

struct Row {
  std::string name;
  const BenchmarkParams* params = nullptr;
  std::string mode;
  std::string count;  // blank when N <= 1
  std::string score;
  std::string error;  // blank when NaN or the score is approximate
  std::string unit;
};

Row metric_row(std::string name, const BenchmarkParams& bp, const stats::AggregatedMetric& m) {
  Row row{std::move(name), &bp, std::string(mode_short_label(bp.mode)), "", format_score(m.score), "", m.unit};
  if (m.n > 1) row.count = std::to_string(m.n);
  if (!std::isnan(m.error) && !is_approximate(m.score)) row.error = format_error(m.error);
  return row;
}

std::string params_suffix(const BenchmarkParams& bp) {
  if (bp.params.empty()) return "";
  std::string out = " (";
  for (std::size_t i = 0; i < bp.params.size(); ++i) {
    if (i > 0) out += ", ";
    out += bp.params[i].first + " = " + bp.params[i].second;
  }
  return out + ")";
}

}  // namespace

std::string benchmark_label(const BenchmarkParams& bp) {
  return bp.benchmark + " " + std::string(mode_short_label(bp.mode)) + params_suffix(bp);
}

std::string summary_table(const RunResults& results) {
  std::vector<Row> rows;
  std::vector<std::string> failures;
  std::set<std::string> ran;
  for (const auto& run : results.benchmarks) {
    const BenchmarkParams& bp = run.params;
    ran.insert(benchmark_label(bp));
    ran.insert(bp.benchmark);
    if (run.failed()) {
      rows.push_back({bp.benchmark, &bp, std::string(mode_short_label(bp.mode)), "", "FAILED", "",
                      primary_unit(bp.mode, bp.time_unit)});
      failures.push_back(benchmark_label(bp) + ": " + describe_failure(*run.failure));
      continue;
    }
    const auto agg = stats::aggregate(run);
    rows.push_back(metric_row(bp.benchmark, bp, agg.primary));
    for (const auto& m : agg.secondaries) rows.push_back(metric_row(bp.benchmark + ":" + m.label, bp, m));
  }
  std::vector<std::string> not_run;
  for (const auto& label : results.planned)
    if (!ran.contains(label) && std::find(not_run.begin(), not_run.end(), label) == not_run.end())
      not_run.push_back(label);
  if (rows.empty() && not_run.empty()) return "";

  // Parameter columns: every key of every run, sorted; a run without the key shows N/A.
  std::set<std::string> keys;
  for (const auto& run : results.benchmarks)
    for (const auto& [k, v] : run.params.params) keys.insert(k);
  auto param_cell = [](const Row& row, const std::string& key) {
    for (const auto& [k, v] : row.params->params)
      if (k == key) return v;
    return std::string("N/A");
  };
  std::vector<std::pair<std::string, std::size_t>> param_columns;
  for (const auto& key : keys) {
    std::size_t width = display_width(key) + 2;  // "(key)"
    for (const auto& row : rows) width = std::max(width, display_width(param_cell(row, key)));
    param_columns.emplace_back(key, width + kColumnPad);
  }

  std::size_t name_w = display_width("Benchmark"), mode_w = display_width("Mode"), count_w = display_width("Cnt"),
              score_w = display_width("Score"), error_w = display_width("Error"), unit_w = display_width("Units");
  for (const auto& row : rows) {
    name_w = std::max(name_w, display_width(row.name));
    mode_w = std::max(mode_w, display_width(row.mode));
    count_w = std::max(count_w, display_width(row.count));
    score_w = std::max(score_w, display_width(row.score));
    error_w = std::max(error_w, display_width(row.error));
    unit_w = std::max(unit_w, display_width(row.unit));
  }
  mode_w += kColumnPad;
  count_w += kColumnPad;
  score_w += kColumnPad;
  error_w += kColumnPad - 1;  // the "±" takes one of the two separating characters
  unit_w += kColumnPad;

  std::string out;
  if (!rows.empty()) {
    out += pad_right("Benchmark", name_w);
    for (const auto& [key, width] : param_columns) out += pad_left("(" + key + ")", width);
    out += pad_left("Mode", mode_w) + pad_left("Cnt", count_w) + pad_left("Score", score_w) + "  " +
           pad_left("Error", error_w) + pad_left("Units", unit_w) + "\n";
    for (const auto& row : rows) {
      out += pad_right(row.name, name_w);
      for (const auto& [key, width] : param_columns) out += pad_left(param_cell(row, key), width);
      out += pad_left(row.mode, mode_w) + pad_left(row.count, count_w) + pad_left(row.score, score_w);
      out += row.error.empty() ? "  " + std::string(error_w, ' ') : " ±" + pad_left(row.error, error_w);
      out += pad_left(row.unit, unit_w) + "\n";
    }
  }
  if (!failures.empty()) {
    out += "\nFailed (no score; the failure is shown where it happened above):\n";
    for (const auto& f : failures) out += "  " + f + "\n";
  }
  if (!not_run.empty()) {
    out += results.complete ? "\nNot run:\n" : "\nNot run (the run stopped early):\n";
    for (const auto& label : not_run) out += "  " + label + "\n";
  }
  return out;
}

}  // namespace cmh::report
