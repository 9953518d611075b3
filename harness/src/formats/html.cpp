// SPDX-License-Identifier: MIT
// -rf html: one self-contained page (inline CSS, SVG drawn here, no script, nothing
// fetched) for people: per benchmark the score with its error bar over every fork's
// iteration points (so fork-to-fork differences show), the histogram in sample and
// single-shot modes, the secondary metrics, the error text of a failure; benchmarks
// that differ only in parameters get a chart with the parameters as the axis; then
// the run's environment and warnings.
#include <cmh/common/escape.hpp>
#include "formats/html_charts.hpp"
#include "formats/labels.hpp"
#include "formats/renderers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace cmh::formats {
namespace {

std::string esc(const std::string& s) { return html_escape(s); }

std::string num(double v) { return std::isfinite(v) ? fmt::format("{:.4g}", v) : "–"; }

std::string params_text(const BenchmarkParams& p) {
  std::string s;
  for (const auto& [k, v] : p.params) s += (s.empty() ? "" : ", ") + k + "=" + v;
  return s;
}

struct Scale {
  double lo = 0, hi = 1;
  double x(double v, double x0, double width) const { return x0 + (v - lo) / (hi - lo) * width; }
};

Scale scale_of(std::vector<double> values) {
  Scale s;
  std::erase_if(values, [](double v) { return !std::isfinite(v); });
  if (values.empty()) return s;
  s.lo = *std::min_element(values.begin(), values.end());
  s.hi = *std::max_element(values.begin(), values.end());
  if (s.hi - s.lo < 1e-12 * std::max(1.0, std::fabs(s.hi))) s.lo -= 0.5, s.hi += 0.5;
  const double pad = (s.hi - s.lo) * 0.05;
  s.lo -= pad;
  s.hi += pad;
  return s;
}

/// The score's interval as a bar with the score as a dot on the first row, then one row
/// of iteration points per fork with the fork's mean as a tick.
std::string score_svg(const stats::AggregatedMetric& m) {
  constexpr double kX0 = 60, kW = 520, kRow = 16;
  std::vector<double> all = {m.confidence.first, m.confidence.second, m.score};
  for (const auto& f : m.raw_by_fork) all.insert(all.end(), f.begin(), f.end());
  const Scale sc = scale_of(all);
  const double height = kRow * static_cast<double>(m.raw_by_fork.size() + 1) + 18;
  std::string s = fmt::format(
      "<svg class=\"score\" role=\"img\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\"><title>{2}</title>",
      kX0 + kW + 10, height, esc(m.label));
  const double y0 = kRow / 2 + 2;
  s += fmt::format("<text x=\"2\" y=\"{:.1f}\">score</text>", y0 + 3);
  if (std::isfinite(m.confidence.first) && std::isfinite(m.confidence.second))
    s += fmt::format("<line class=\"errorbar\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>",
                     sc.x(m.confidence.first, kX0, kW), y0, sc.x(m.confidence.second, kX0, kW), y0);
  if (std::isfinite(m.score))
    s += fmt::format("<circle class=\"mean\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\"/>", sc.x(m.score, kX0, kW), y0);
  for (std::size_t f = 0; f < m.raw_by_fork.size(); ++f) {
    const double y = y0 + kRow * static_cast<double>(f + 1);
    s += fmt::format("<text x=\"2\" y=\"{:.1f}\">fork {}</text>", y + 3, f + 1);
    double sum = 0;
    int n = 0;
    for (const double v : m.raw_by_fork[f])
      if (std::isfinite(v)) {
        s += fmt::format("<circle class=\"iteration\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\"/>", sc.x(v, kX0, kW), y);
        sum += v;
        ++n;
      }
    if (n > 0)
      s += fmt::format("<line class=\"forkmean\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\"/>",
                       sc.x(sum / n, kX0, kW), y - 6, y + 6);
  }
  s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text><text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{} {}</text>",
                   kX0, height - 3, esc(num(sc.lo)), kX0 + kW, height - 3, esc(num(sc.hi)), esc(m.unit));
  return s + "</svg>";
}

std::string histogram_svg(const stats::AggregatedMetric& m) {
  if (m.distribution.empty()) return "";
  constexpr double kW = 520, kH = 110, kX0 = 60;
  std::uint64_t top = 1;
  for (const auto& b : m.distribution) top = std::max(top, b.count);
  const double bw = kW / static_cast<double>(m.distribution.size());
  std::string s = fmt::format(
      "<svg class=\"histogram\" role=\"img\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\"><title>histogram</title>",
      kX0 + kW + 10, kH + 16);
  for (std::size_t i = 0; i < m.distribution.size(); ++i) {
    const auto& b = m.distribution[i];
    const double h = kH * static_cast<double>(b.count) / static_cast<double>(top);
    s += fmt::format("<rect class=\"bin\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\">"
                     "<title>[{}, {}): {}</title></rect>",
                     kX0 + bw * static_cast<double>(i) + 0.5, kH - h, std::max(bw - 1, 0.5), h, esc(num(b.lo)),
                     esc(num(b.hi)), b.count);
  }
  s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text><text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{} {}</text>"
                   "<text x=\"2\" y=\"10\">{} max</text>",
                   kX0, kH + 12, esc(num(m.distribution.front().lo)), kX0 + kW, kH + 12,
                   esc(num(m.distribution.back().hi)), esc(m.unit), top);
  return s + "</svg>";
}

/// Benchmarks of one name and mode that differ in parameters: score with error bar per point.
std::string params_svg(const std::vector<const stats::AggregatedBenchmark*>& points) {
  constexpr double kX0 = 60, kH = 140, kColumn = 140;
  std::vector<double> all = {0};
  for (const auto* a : points) all.insert(all.end(), {a->primary.confidence.first, a->primary.confidence.second, a->primary.score});
  const Scale sc = scale_of(all);
  const double width = kX0 + kColumn * static_cast<double>(points.size()) + 10;
  std::string s = fmt::format(
      "<svg class=\"params\" role=\"img\" width=\"{0:.0f}\" height=\"{1}\" viewBox=\"0 0 {0:.0f} {1}\"><title>score by parameters</title>",
      width, kH + 30);
  const auto y = [&](double v) { return kH - (v - sc.lo) / (sc.hi - sc.lo) * (kH - 10); };
  s += fmt::format("<text x=\"2\" y=\"12\">{}</text><text x=\"2\" y=\"{:.1f}\">{}</text>", esc(num(sc.hi)), kH,
                   esc(num(sc.lo)));
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& m = points[i]->primary;
    const double cx = kX0 + kColumn * (static_cast<double>(i) + 0.5);
    if (std::isfinite(m.confidence.first) && std::isfinite(m.confidence.second))
      s += fmt::format("<line class=\"errorbar\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\"/>", cx,
                       y(m.confidence.first), y(m.confidence.second));
    if (std::isfinite(m.score))
      s += fmt::format("<rect class=\"bar\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"24\" height=\"{:.1f}\"/>", cx - 12,
                       y(m.score), std::max(0.0, y(sc.lo) - y(m.score)));
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>", cx, kH + 14,
                     esc(params_text(points[i]->run->params)));
  }
  return s + "</svg>";
}

constexpr const char* kStyle = R"(body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}table{border-collapse:collapse}
td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}td.l,th.l{text-align:left}
svg text{font-size:9px;fill:#555}.errorbar{stroke:#d22;stroke-width:3}.mean{fill:#d22}
.iteration{fill:#36c;opacity:.7}.forkmean{stroke:#000;stroke-width:1.5}.bin,.bar{fill:#68a}
.error{color:#b00;white-space:pre-wrap}.warning{color:#a50}
.axis{stroke:#999}.scoreline{stroke:#d22;stroke-dasharray:4 3}.forkgap{stroke:#bbb;stroke-dasharray:2 3}
.forkline{fill:none;stroke:#36c;stroke-width:1;opacity:.5}.iteration.disturbed{fill:#fff;stroke:#d22;stroke-width:2}
.whisker{stroke:#555}.box{fill:#9bd;stroke:#357}.median{stroke:#000;stroke-width:2}h3{font-size:1em;margin:1em 0 .2em}
)";

}  // namespace

std::string render_html(const RunResults& results, const model::RunContext& ctx) {
  const auto aggregated = aggregate_all(results);
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>cmh results</title><style>";
  h += kStyle;
  h += "</style></head><body>\n<h1>cmh results</h1>\n";
  if (!results.complete) h += "<p class=\"warning\">The run was interrupted: these are the benchmarks finished so far.</p>\n";
  std::map<std::string, std::vector<const stats::AggregatedBenchmark*>> by_name;
  for (const auto& agg : aggregated) {
    const BenchmarkParams& p = agg.run->params;
    by_name[p.benchmark + " " + std::string(mode_short_label(p.mode))].push_back(&agg);
    h += fmt::format("<section class=\"benchmark\" data-name=\"{}\"><h2>{} <small>{}{}</small></h2>\n", esc(p.benchmark),
                     esc(p.benchmark), esc(std::string(mode_short_label(p.mode))),
                     p.params.empty() ? "" : " (" + esc(params_text(p)) + ")");
    if (agg.run->failure) {
      const Failure& f = *agg.run->failure;
      h += fmt::format("<p class=\"error\">failed ({}): {}</p>\n", esc(std::string(failure_kind_name(f.kind))),
                       esc(f.message));
    }
    if (agg.has_results()) {
      h += fmt::format("<p class=\"scoreline\">{} {} <small>(99.9% interval, n = {}, {} forks)</small></p>\n",
                       metric_value_html(agg.primary), esc(agg.primary.unit), agg.primary.n, agg.primary.raw_by_fork.size());
      h += score_svg(agg.primary) + "\n";
      h += "<h3>Iterations in run order</h3>\n" + timeline_svg(agg) + "\n";
      if (agg.disturbance.disturbed > 0)
        h += "<p class=\"warning\">Red rings: " + esc(stats::describe(agg.disturbance)) + "</p>\n";
      h += "<h3>Each fork's distribution</h3>\n" + forks_svg(agg.primary) + "\n";
      if (agg.primary.has_distribution) h += histogram_svg(agg.primary) + "\n";
    }
    if (!agg.secondaries.empty()) {
      h += "<table class=\"secondaries\"><tr><th class=\"l\">metric</th><th>score</th><th class=\"l\">unit</th></tr>\n";
      for (const auto& m : agg.secondaries)
        h += fmt::format("<tr><td class=\"l\">{}</td><td>{}</td><td class=\"l\">{}</td></tr>\n", esc(m.label),
                         metric_value_html(m), esc(m.unit));
      h += "</table>\n";
    }
    for (const auto& r : agg.run->reports)  // profilers' sections (perfasm, flame): their own markup
      if (!r.html.empty()) h += r.html + "\n";
    h += "</section>\n";
  }
  for (const auto& [name, points] : by_name)
    if (points.size() > 1 && !points.front()->run->params.params.empty())
      h += fmt::format("<section class=\"parameters\"><h2>{} by parameters</h2>\n{}\n</section>\n", esc(name),
                       params_svg(points));
  h += "<h2>Environment</h2>\n<table class=\"environment\">";
  const std::pair<const char*, std::string> facts[] = {
      {"cmh", ctx.cmh_version}, {"executable", ctx.executable}, {"compiler", ctx.compiler},
      {"flags", ctx.compiler_flags}, {"build", ctx.build_type}, {"CPU", ctx.cpu_model},
      {"CPUs", std::to_string(ctx.cpu_count)}, {"kernel", ctx.kernel},
      {"NUMA", ctx.numa_mode + (ctx.numa_reason.empty() ? "" : ": " + ctx.numa_reason)},
      {"allocator", ctx.allocator_options}};
  for (const auto& [k, v] : facts) h += fmt::format("<tr><td class=\"l\">{}</td><td class=\"l\">{}</td></tr>", k, esc(v));
  h += "</table>\n";
  if (!ctx.warnings.empty()) {
    h += "<ul class=\"warnings\">";
    for (const auto& w : ctx.warnings) h += "<li class=\"warning\">" + esc(w) + "</li>";
    h += "</ul>\n";
  }
  return h + "</body></html>\n";
}

}  // namespace cmh::formats
