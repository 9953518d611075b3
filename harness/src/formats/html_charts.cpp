// SPDX-License-Identifier: MIT
// timeline_svg(), forks_svg() and metric_value_html() for -rf html (see html_charts.hpp).
#include "formats/html_charts.hpp"

#include <cmh/common/escape.hpp>
#include <cmh/common/numbers.hpp>
#include "report/score_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace cmh::formats {
namespace {

std::string short_value(double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : "-"; }

struct Range {
  double lo = 0, hi = 1;
  double at(double v, double from, double length) const { return from + (v - lo) / (hi - lo) * length; }
};

Range range_of(const std::vector<std::vector<double>>& rows) {
  Range r{INFINITY, -INFINITY};
  for (const auto& row : rows)
    for (double v : row)
      if (std::isfinite(v)) r.lo = std::min(r.lo, v), r.hi = std::max(r.hi, v);
  if (!std::isfinite(r.lo)) return {0, 1};
  if (r.hi - r.lo < 1e-12 * std::max(1.0, std::fabs(r.hi))) r.lo -= 0.5, r.hi += 0.5;
  const double pad = (r.hi - r.lo) * 0.06;
  return {r.lo - pad, r.hi + pad};
}

std::string why_disturbed(const stats::IterationDisturbance& d) {
  std::string why;
  auto add = [&](bool on, const char* text) {
    if (on) why += (why.empty() ? "" : ", ") + std::string(text);
  };
  add(d.preempted, "preempted");
  add(d.off_cpu, "off the CPU");
  add(d.waited, "waited for a CPU");
  add(d.crowded, "CPUs crowded by other processes");
  return why;
}

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double at = q * static_cast<double>(v.size() - 1);
  const auto i = static_cast<std::size_t>(at);
  return i + 1 < v.size() ? v[i] + (at - static_cast<double>(i)) * (v[i + 1] - v[i]) : v[i];
}

bool exact_unit(const std::string& unit) { return unit == "B/op" || unit == "allocs/op"; }

}  // namespace

std::string timeline_svg(const stats::AggregatedBenchmark& agg) {
  const auto& rows = agg.primary.raw_by_fork;
  std::size_t count = 0;
  for (const auto& r : rows) count += r.size();
  if (count == 0) return "";
  constexpr double kX0 = 70, kW = 560, kH = 120, kTop = 8;
  const Range y = range_of(rows);
  const double step = count > 1 ? kW / static_cast<double>(count - 1) : 0;
  const auto ypos = [&](double v) { return kTop + kH - (v - y.lo) / (y.hi - y.lo) * kH; };
  std::string s = fmt::format(
      "<svg class=\"timeline\" role=\"img\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">"
      "<title>measurement iterations in run order</title>",
      kX0 + kW + 20, kTop + kH + 22);
  s += fmt::format("<text x=\"2\" y=\"{:.1f}\">{}</text><text x=\"2\" y=\"{:.1f}\">{}</text>", kTop + 8,
                   html_escape(short_value(y.hi)), kTop + kH, html_escape(short_value(y.lo)));
  s += fmt::format("<line class=\"axis\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>", kX0 - 6, kTop, kTop + kH);
  if (std::isfinite(agg.primary.score))
    s += fmt::format("<line class=\"scoreline\" x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\"><title>score {}</title></line>",
                     kX0 - 6, ypos(agg.primary.score), kX0 + kW + 6, ypos(agg.primary.score),
                     html_escape(short_value(agg.primary.score)));
  std::size_t index = 0;
  for (std::size_t f = 0; f < rows.size(); ++f) {
    const double first_x = kX0 + step * static_cast<double>(index);
    if (f > 0)
      s += fmt::format("<line class=\"forkgap\" x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\"/>", first_x - step / 2,
                       kTop, kTop + kH);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">fork {}</text>", first_x, kTop + kH + 16, f + 1);
    std::string path, circles;
    const auto* disturbances = f < agg.disturbance.by_fork.size() ? &agg.disturbance.by_fork[f] : nullptr;
    for (std::size_t i = 0; i < rows[f].size(); ++i, ++index) {
      const double v = rows[f][i];
      if (!std::isfinite(v)) continue;
      const double x = kX0 + step * static_cast<double>(index), yy = ypos(v);
      path += fmt::format("{}{:.1f},{:.1f}", path.empty() ? "M" : " L", x, yy);
      const bool disturbed = disturbances && i < disturbances->size() && (*disturbances)[i].disturbed();
      const std::string why = disturbed ? why_disturbed((*disturbances)[i]) : "";
      circles += fmt::format("<circle class=\"iteration{}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{}\"><title>fork {}, iteration {}: "
                       "{} {}{}</title></circle>",
                       disturbed ? " disturbed" : "", x, yy, disturbed ? 4.5 : 3, f + 1, i + 1, html_escape(short_value(v)),
                       html_escape(agg.primary.unit), disturbed ? html_escape(" — disturbed: " + why) : "");
    }
    if (!path.empty()) s += "<path class=\"forkline\" d=\"" + path + "\"/>";
    s += circles;
  }
  return s + "</svg>";
}

std::string forks_svg(const stats::AggregatedMetric& m) {
  const auto& rows = m.raw_by_fork;
  if (rows.empty()) return "";
  constexpr double kX0 = 70, kW = 560, kRow = 18;
  const Range x = range_of(rows);
  const double height = kRow * static_cast<double>(rows.size()) + 16;
  std::string s = fmt::format(
      "<svg class=\"forks\" role=\"img\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">"
      "<title>each fork's distribution</title>",
      kX0 + kW + 20, height);
  for (std::size_t f = 0; f < rows.size(); ++f) {
    std::vector<double> v;
    for (double d : rows[f])
      if (std::isfinite(d)) v.push_back(d);
    const double y = kRow * static_cast<double>(f) + kRow / 2 + 2;
    s += fmt::format("<text x=\"2\" y=\"{:.1f}\">fork {} (n={})</text>", y + 3, f + 1, v.size());
    if (v.empty()) continue;
    const double lo = *std::min_element(v.begin(), v.end()), hi = *std::max_element(v.begin(), v.end());
    const double q1 = quantile(v, 0.25), med = quantile(v, 0.5), q3 = quantile(v, 0.75);
    double sum = 0;
    for (double d : v) sum += d;
    const double mean = sum / static_cast<double>(v.size());
    s += fmt::format("<g><title>fork {}: min {}, quartiles {} / {} / {}, max {}, mean {} {}</title>", f + 1,
                     html_escape(short_value(lo)), html_escape(short_value(q1)), html_escape(short_value(med)), html_escape(short_value(q3)),
                     html_escape(short_value(hi)), html_escape(short_value(mean)), html_escape(m.unit));
    s += fmt::format("<line class=\"whisker\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>", x.at(lo, kX0, kW), y,
                     x.at(hi, kX0, kW), y);
    s += fmt::format("<rect class=\"box\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"10\"/>", x.at(q1, kX0, kW),
                     y - 5, std::max(1.0, x.at(q3, kX0, kW) - x.at(q1, kX0, kW)));
    s += fmt::format("<line class=\"median\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\"/>", x.at(med, kX0, kW),
                     y - 6, y + 6);
    s += fmt::format("<circle class=\"forkmean\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\"/></g>", x.at(mean, kX0, kW), y);
  }
  s += fmt::format("<text x=\"{}\" y=\"{:.1f}\">{}</text><text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{} {}</text>", kX0,
                   height - 2, html_escape(short_value(x.lo)), kX0 + kW, height - 2, html_escape(short_value(x.hi)), html_escape(m.unit));
  return s + "</svg>";
}

std::string metric_value_html(const stats::AggregatedMetric& m) {
  if (exact_unit(m.unit)) {
    std::string s = html_escape(exact_decimal(m.score));
    if (std::isfinite(m.error) && m.error > 0) s += " &plusmn; " + html_escape(report::format_error(m.error));
    return s;
  }
  std::string s = html_escape(report::format_score(m.score));
  if (std::isfinite(m.error)) s += " &plusmn; " + html_escape(report::format_error(m.error));
  return s;
}

}  // namespace cmh::formats
