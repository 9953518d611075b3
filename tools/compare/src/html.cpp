// SPDX-License-Identifier: MIT
#include "html.hpp"

#include "exact_text.hpp"
#include <cmh/common/escape.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace cmh::compare {
namespace {

std::string esc(const std::string& s) { return cmh::formats::html_escape(s); }

std::string num(double v) { return std::isfinite(v) ? fmt::format("{:.4g}", v) : "–"; }

const char* verdict_class(const MetricComparison& m) {
  if (m.regression) return "regression";
  if (m.verdict == "worse") return "worse";
  if (m.verdict == "better") return "better";
  return "same";
}

/// The ratio chart of one metric: axis over [lo, hi] around 1, the interval as a bar,
/// the ratio as a dot, the gate as a dashed line.
std::string ratio_svg(const MetricComparison& m) {
  constexpr double kW = 360, kH = 34, kPad = 10;
  double lo = std::min(0.9, m.ratio_point), hi = std::max(1.1, m.ratio_point);
  if (m.ratio && m.ratio->bounded) {
    lo = std::min(lo, m.ratio->lo);
    hi = std::max(hi, m.ratio->hi);
  }
  if (m.threshold) {
    lo = std::min(lo, 1 - *m.threshold);
    hi = std::max(hi, 1 + *m.threshold);
  }
  if (!std::isfinite(hi)) hi = 10;
  lo = std::max(lo, 0.0);
  const double span = std::max(hi - lo, 1e-9);
  lo -= span * 0.05;
  hi += span * 0.05;
  const auto x = [&](double r) { return kPad + (std::clamp(r, lo, hi) - lo) / (hi - lo) * (kW - 2 * kPad); };
  std::string s = fmt::format(
      "<svg class=\"ratio\" role=\"img\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">"
      "<title>ratio {2}</title>"
      "<line class=\"axis\" x1=\"{3}\" y1=\"24\" x2=\"{4}\" y2=\"24\"/>"
      "<line class=\"one\" x1=\"{5:.1f}\" y1=\"4\" x2=\"{5:.1f}\" y2=\"28\"/>",
      kW, kH, esc(num(m.ratio_point)), kPad, kW - kPad, x(1.0));
  if (m.threshold && *m.threshold > 0) {
    const double g = m.higher_is_better ? 1 - *m.threshold : 1 + *m.threshold;
    s += fmt::format("<line class=\"gate\" x1=\"{0:.1f}\" y1=\"4\" x2=\"{0:.1f}\" y2=\"28\"/>", x(g));
  }
  if (m.ratio && m.ratio->bounded)
    s += fmt::format("<rect class=\"ci {}\" x=\"{:.1f}\" y=\"11\" width=\"{:.1f}\" height=\"8\"/>", verdict_class(m),
                     x(m.ratio->lo), std::max(1.0, x(m.ratio->hi) - x(m.ratio->lo)));
  if (std::isfinite(m.ratio_point))
    s += fmt::format("<circle class=\"dot {}\" cx=\"{:.1f}\" cy=\"15\" r=\"4\"/>", verdict_class(m), x(m.ratio_point));
  s += fmt::format("<text x=\"{:.1f}\" y=\"33\">{}</text><text x=\"{:.1f}\" y=\"33\" text-anchor=\"end\">{}</text>",
                   kPad, esc(num(lo)), kW - kPad, esc(num(hi)));
  return s + "</svg>";
}

/// Both sides' samples (forks, iterations or repetitions) on one scale, base above new.
std::string samples_svg(const MetricComparison& m) {
  if (m.base_samples.empty() && m.new_samples.empty()) return "";
  constexpr double kW = 240, kH = 34, kPad = 8;
  double lo = INFINITY, hi = -INFINITY;
  for (const auto* v : {&m.base_samples, &m.new_samples})
    for (const double x : *v)
      if (std::isfinite(x)) lo = std::min(lo, x), hi = std::max(hi, x);
  if (!std::isfinite(lo)) return "";
  if (hi - lo < 1e-12 * std::max(1.0, std::fabs(hi))) lo -= 0.5, hi += 0.5;
  const auto x = [&](double v) { return kPad + (v - lo) / (hi - lo) * (kW - 2 * kPad); };
  std::string s = fmt::format(
      "<svg class=\"samples\" role=\"img\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">"
      "<title>{2}: base {3}, new {4}</title>",
      kW, kH, esc(m.samples), m.base_samples.size(), m.new_samples.size());
  for (const double v : m.base_samples)
    if (std::isfinite(v)) s += fmt::format("<circle class=\"pt base\" cx=\"{:.1f}\" cy=\"9\" r=\"3\"/>", x(v));
  for (const double v : m.new_samples)
    if (std::isfinite(v)) s += fmt::format("<circle class=\"pt new\" cx=\"{:.1f}\" cy=\"23\" r=\"3\"/>", x(v));
  return s + "</svg>";
}

std::string params_text(const std::map<std::string, std::string>& params) {
  std::string s;
  for (const auto& [k, v] : params) s += (s.empty() ? "" : ", ") + k + "=" + v;
  return s;
}

constexpr const char* kStyle = R"(body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em}h3{font-size:1em;margin:1.5em 0 .3em}
table{border-collapse:collapse}td,th{padding:2px 8px;white-space:nowrap;border-bottom:1px solid #ddd;text-align:right;vertical-align:middle}
td.l,th.l{text-align:left}.legend span{margin-right:1.5em}
svg text{font-size:9px;fill:#555}.axis{stroke:#999}.one{stroke:#333;stroke-width:1.5}
.gate{stroke:#c00;stroke-dasharray:3 2}.ci{opacity:.45}.dot{stroke:#000;stroke-width:.5}
.better{fill:#2a7}.same{fill:#68a}.worse{fill:#e90}.regression{fill:#d22}
.pt.base{fill:#888}.pt.new{fill:#36c}td.regression{color:#d22;font-weight:bold}td.worse{color:#b60}
td.better{color:#175}.warn{color:#a50}tr.counted{background:#f3f6fa}
)";

}  // namespace

std::string render_html(const std::vector<Comparison>& pairs, const CompareOptions& o) {
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                  "<title>cmh-compare</title><style>";
  h += kStyle;
  h += "</style></head><body>\n<h1>cmh-compare</h1>\n";
  bool regression = false;
  for (const auto& c : pairs) regression = regression || c.regression();
  h += fmt::format("<p id=\"summary\" class=\"{}\">{} &mdash; tests at &alpha; = {:g}, intervals at {:g}%.</p>\n",
                   regression ? "regression" : "ok",
                   regression ? "Regression past a threshold" : "No regression past a threshold", o.alpha,
                   (1 - o.alpha) * 100);
  h += "<p class=\"legend\"><span>ratio chart: bar = interval, dot = new/base, black line = no change, "
       "red dashes = the gate</span><span>samples: grey = base, blue = new</span><span>shaded rows, below "
       "the score: counts per op under Callgrind (-prof icount), compared by their difference</span></p>\n";
  for (const auto& c : pairs) {
    h += fmt::format("<h2>{} &rarr; {}</h2>\n<p>{} &rarr; {}</p>\n", esc(c.base_path), esc(c.new_path),
                     esc(c.base_format), esc(c.new_format));
    for (const auto& b : c.benchmarks) {
      h += fmt::format("<section class=\"benchmark\" data-name=\"{}\"><h3>{}</h3>", esc(b.name),
                       esc(describe(b.name, b.params, b.mode)));
      if (b.base_name != b.name || b.base_params != b.params)
        h += fmt::format("<p>against {}</p>", esc(describe(b.base_name, b.base_params, b.mode)));
      if (!b.skipped.empty()) {
        h += fmt::format("<p class=\"warn\">not compared: {}</p></section>\n", esc(b.skipped));
        continue;
      }
      h += "<table><tr><th class=\"l\">metric</th><th>base</th><th>new</th><th>unit</th><th>ratio</th>"
           "<th class=\"l\">interval and gate</th><th class=\"l\">samples</th><th>Welch p</th><th>U p</th>"
           "<th class=\"l\">verdict</th></tr>\n";
      for (const auto& m : b.metrics) {
        const auto score = [&m](double v, double e) {
          if (m.exact) return exact_number(v);
          return std::isfinite(e) ? num(v) + " &plusmn; " + num(e) : num(v);
        };
        h += fmt::format(
            "<tr class=\"metric{}\"><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
            "<td class=\"l\">{}</td><td class=\"l\">{}<br>{}</td><td>{}</td><td>{}</td><td class=\"l {}\">{}</td></tr>\n",
            m.difference ? " counted" : "", esc(m.label), score(m.base_score, m.base_error),
            score(m.new_score, m.new_error), esc(m.unit),
            m.exact ? esc(exact_ratio(m.base_score, m.new_score)) : num(m.ratio_point), ratio_svg(m), samples_svg(m),
            m.difference ? esc(fmt::format("{}, difference {:+.4g}", m.samples, *m.difference))
            : m.exact    ? "exact"
                         : esc(fmt::format("{} {}/{}", m.samples, m.base_n, m.new_n)),
            m.welch ? fmt::format("{:.3g}", m.welch->p) : "", m.mwu ? fmt::format("{:.3g} ({})", m.mwu->p, m.mwu->method) : "",
            verdict_class(m),
            esc(m.verdict + (!m.regression         ? std::string()
                             : m.gate_text.empty() ? fmt::format(", regression (> {:g}%)", *m.threshold * 100)
                                                   : ", regression (" + m.gate_text + ")")));
      }
      h += "</table>";
      if (!b.params.empty()) h += "<p>parameters: " + esc(params_text(b.params)) + "</p>";
      h += "</section>\n";
    }
    if (!c.only_in_base.empty() || !c.only_in_new.empty() || !c.warnings.empty()) {
      h += "<ul class=\"notes\">";
      for (const auto& n : c.only_in_base) h += "<li>only in base: " + esc(n) + "</li>";
      for (const auto& n : c.only_in_new) h += "<li>no match for: " + esc(n) + "</li>";
      for (const auto& w : c.warnings) h += "<li class=\"warn\">warning (" + esc(w) + ")</li>";
      h += "</ul>\n";
    }
  }
  return h + "</body></html>\n";
}

}  // namespace cmh::compare
