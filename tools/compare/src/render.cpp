// SPDX-License-Identifier: MIT
#include "render.hpp"

#include "exact_text.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>

namespace cmh::compare {
namespace {

std::string num(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return fmt::format("{:.4g}", v);
}

std::string p_text(double p) { return p == 0 ? std::string("0") : p < 1e-4 ? fmt::format("{:.1e}", p) : fmt::format("{:.4f}", p); }

std::string score_text(double score, double error) {
  return std::isnan(error) ? num(score) : num(score) + " ± " + num(error);
}

std::string num_signed(double v) { return std::isfinite(v) ? fmt::format("{:+.4g}", v) : num(v); }

std::string ratio_text(const MetricComparison& m) {
  return m.exact ? exact_ratio(m.base_score, m.new_score) : num(m.ratio_point);
}

std::string interval_text(const MetricComparison& m, double level) {
  if (m.difference) return "diff " + num_signed(*m.difference);
  if (m.exact) return "exact";
  if (!m.ratio) return "";
  if (!m.ratio->bounded) return "unbounded";
  return fmt::format("[{}, {}] {:g}%", num(m.ratio->lo), num(m.ratio->hi), level * 100);
}

std::string welch_text(const MetricComparison& m) { return m.welch ? p_text(m.welch->p) : ""; }
std::string u_text(const MetricComparison& m) {
  return m.mwu ? p_text(m.mwu->p) + " (" + m.mwu->method + ")" : "";
}

std::string verdict_text(const MetricComparison& m) {
  std::string v = m.verdict;
  if (m.regression)
    v += m.gate_text.empty() ? fmt::format(", REGRESSION (> {:g}%)", *m.threshold * 100)
                             : ", REGRESSION (" + m.gate_text + ")";
  return v;
}

std::string samples_text(const MetricComparison& m) {
  if (m.difference) return m.samples;  // "counted"
  if (m.exact) return "exact";
  return fmt::format("{} {}/{}", m.samples, m.base_n, m.new_n);
}

std::string benchmark_text(const BenchmarkComparison& b) {
  std::string s = describe(b.name, b.params, b.mode);
  if (b.base_name != b.name || b.base_params != b.params) s += " vs " + describe(b.base_name, b.base_params, b.mode);
  return s;
}

using Row = std::vector<std::string>;
const Row kHeader = {"Benchmark", "Metric", "Unit", "Base", "New", "Ratio", "CI", "Samples", "Welch p", "U p",
                     "Verdict"};

std::vector<Row> rows_of(const Comparison& c, double level) {
  std::vector<Row> rows;
  for (const auto& b : c.benchmarks) {
    if (!b.skipped.empty()) {
      rows.push_back({benchmark_text(b), "", "", "", "", "", "", "", "", "", "not compared: " + b.skipped});
      continue;
    }
    bool first = true;
    for (const auto& m : b.metrics) {
      rows.push_back({first ? benchmark_text(b) : "", m.label, m.unit,
                      m.exact ? exact_number(m.base_score) : score_text(m.base_score, m.base_error),
                      m.exact ? exact_number(m.new_score) : score_text(m.new_score, m.new_error), ratio_text(m),
                      interval_text(m, level),
                      samples_text(m), welch_text(m), u_text(m), verdict_text(m)});
      first = false;
    }
  }
  return rows;
}

std::string pair_title(const Comparison& c) {
  if (c.base_path == c.new_path) return fmt::format("{} ({}), against a baseline benchmark", c.new_path, c.new_format);
  return fmt::format("base {} ({}) -> new {} ({})", c.base_path, c.base_format, c.new_path, c.new_format);
}

std::string footer(const Comparison& c, const std::string& bullet) {
  std::string s;
  for (const auto& n : c.only_in_base) s += bullet + "only in base: " + n + "\n";
  for (const auto& n : c.only_in_new) s += bullet + "no match for: " + n + "\n";
  for (const auto& w : c.warnings) s += bullet + "warning (" + w + ")\n";
  return s;
}

std::size_t width(const std::string& s) {  // code points, for the ± and the middle dot
  std::size_t n = 0;
  for (const unsigned char ch : s) n += (ch & 0xC0) != 0x80;
  return n;
}

std::string text(const std::vector<Comparison>& pairs, const CompareOptions& o) {
  std::string out;
  for (const auto& c : pairs) {
    out += pair_title(c) + "\n\n";
    std::vector<Row> rows = rows_of(c, 1 - o.alpha);
    rows.insert(rows.begin(), kHeader);
    std::vector<std::size_t> w(kHeader.size(), 0);
    for (const auto& r : rows)
      for (std::size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], width(r[i]));
    for (const auto& r : rows) {
      std::string line;
      for (std::size_t i = 0; i < r.size(); ++i) {
        line += r[i];
        if (i + 1 < r.size()) line += std::string(w[i] - width(r[i]) + 2, ' ');
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
    const std::string f = footer(c, "  ");
    if (!f.empty()) out += "\n" + f;
    out += "\n";
  }
  out += pairs.empty() ? "" : fmt::format("Tests at alpha = {:g}; verdict by {}. {}\n", o.alpha,
                                          o.test == Test::welch ? "Welch's t" : o.test == Test::u ? "the U test" : "both tests",
                                          std::any_of(pairs.begin(), pairs.end(), [](const Comparison& c) { return c.regression(); })
                                              ? "Regression past a threshold: exit 1."
                                              : "No regression past a threshold.");
  return out;
}

std::string md_cell(std::string s) {
  std::string out;
  for (const char ch : s) {
    if (ch == '|') out += "\\|";
    else out += ch;
  }
  return out;
}

std::string markdown(const std::vector<Comparison>& pairs, const CompareOptions& o) {
  std::string out;
  for (const auto& c : pairs) {
    out += "### " + md_cell(pair_title(c)) + "\n\n";
    std::string head = "|", rule = "|";
    for (const auto& h : kHeader) {
      head += " " + h + " |";
      rule += h == "Benchmark" || h == "Metric" || h == "Verdict" || h == "Unit" ? " --- |" : " ---: |";
    }
    out += head + "\n" + rule + "\n";
    for (auto r : rows_of(c, 1 - o.alpha)) {
      std::string line = "|";
      for (std::size_t i = 0; i < r.size(); ++i) {
        std::string cell = md_cell(r[i]);
        if (i == 0 && !cell.empty()) cell = "`" + cell + "`";
        if (i + 1 == r.size() && (r[i].rfind("worse", 0) == 0)) cell = "**" + cell + "**";
        line += " " + cell + " |";
      }
      out += line + "\n";
    }
    const std::string f = footer(c, "- ");
    if (!f.empty()) out += "\n" + md_cell(f);
    out += "\n";
  }
  return out;
}

nlohmann::ordered_json number_or_null(double v) {
  return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json json_of(const MetricComparison& m) {
  nlohmann::ordered_json j;
  j["label"] = m.label;
  j["key"] = m.key;
  j["unit"] = m.unit;
  j["base"] = {{"score", number_or_null(m.base_score)}, {"error", number_or_null(m.base_error)}, {"n", m.base_n}};
  j["new"] = {{"score", number_or_null(m.new_score)}, {"error", number_or_null(m.new_error)}, {"n", m.new_n}};
  j["ratio"] = number_or_null(m.ratio_point);
  if (m.ratio && m.ratio->bounded)
    j["ratioInterval"] = {number_or_null(m.ratio->lo), number_or_null(m.ratio->hi)};
  else
    j["ratioInterval"] = nullptr;
  j["samples"] = m.samples;
  j["exact"] = m.exact;
  j["higherIsBetter"] = m.higher_is_better;
  if (m.welch)
    j["welch"] = {{"t", number_or_null(m.welch->t)}, {"df", number_or_null(m.welch->df)}, {"p", m.welch->p}};
  else
    j["welch"] = nullptr;
  if (m.mwu)
    j["mannWhitney"] = {{"u", m.mwu->u}, {"p", m.mwu->p}, {"method", m.mwu->method}};
  else
    j["mannWhitney"] = nullptr;
  j["significant"] = m.significant;
  j["verdict"] = m.verdict;
  j["threshold"] = m.threshold ? nlohmann::ordered_json(*m.threshold) : nlohmann::ordered_json(nullptr);
  j["regression"] = m.regression;
  if (m.difference) j["difference"] = number_or_null(*m.difference);
  if (!m.gate_text.empty()) j["gate"] = m.gate_text;
  if (!m.note.empty()) j["note"] = m.note;
  return j;
}

std::string json(const std::vector<Comparison>& pairs, const CompareOptions& o) {
  nlohmann::ordered_json doc;
  doc["alpha"] = o.alpha;
  doc["test"] = o.test == Test::welch ? "welch" : o.test == Test::u ? "u" : "both";
  doc["pairs"] = nlohmann::ordered_json::array();
  bool regression = false;
  for (const auto& c : pairs) {
    nlohmann::ordered_json p;
    p["base"] = {{"path", c.base_path}, {"format", c.base_format}};
    p["new"] = {{"path", c.new_path}, {"format", c.new_format}};
    p["benchmarks"] = nlohmann::ordered_json::array();
    for (const auto& b : c.benchmarks) {
      nlohmann::ordered_json jb;
      jb["benchmark"] = b.name;
      jb["baseBenchmark"] = b.base_name;
      jb["mode"] = b.mode;
      jb["params"] = b.params;
      jb["baseParams"] = b.base_params;
      if (!b.skipped.empty()) jb["skipped"] = b.skipped;
      jb["metrics"] = nlohmann::ordered_json::array();
      for (const auto& m : b.metrics) jb["metrics"].push_back(json_of(m));
      p["benchmarks"].push_back(std::move(jb));
    }
    p["onlyInBase"] = c.only_in_base;
    p["onlyInNew"] = c.only_in_new;
    p["warnings"] = c.warnings;
    p["regression"] = c.regression();
    regression = regression || c.regression();
    doc["pairs"].push_back(std::move(p));
  }
  doc["regression"] = regression;
  return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string render(const std::vector<Comparison>& pairs, OutputFormat format, const CompareOptions& options) {
  switch (format) {
    case OutputFormat::markdown: return markdown(pairs, options);
    case OutputFormat::json: return json(pairs, options);
    case OutputFormat::text:
    default: return text(pairs, options);
  }
}

}  // namespace cmh::compare
