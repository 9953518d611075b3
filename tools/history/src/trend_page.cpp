// SPDX-License-Identifier: MIT
// cmh-history report: one self-contained page (inline CSS and SVG drawn here, no
// script, nothing fetched). Per chart (benchmark, params, mode, metric): every run's
// score with its interval as a band, the runs as points linked to their own HTML
// report when one was stored beside the result file, change points as solid lines,
// new segments (a change of compiler, flags, machine, allocator) as dashed lines and
// other environment changes (kernel, governor, tool version) as dotted ones. Above the
// charts, a table of the latest changes.
#include "changes_output.hpp"
#include "commands.hpp"
#include "schema.hpp"

#include <cmh/common/escape.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <ostream>

namespace cmh::history {
namespace {

std::string esc(const std::string& s) { return cmh::formats::html_escape(s); }

constexpr double kWidth = 880, kHeight = 240, kLeft = 70, kRight = 20, kTop = 16, kBottom = 34;

struct ChartPoint {
  const Series* series;
  const Point* point;
  double lo, hi;  ///< the band: the file's interval, else the spread of the raw values
};

std::pair<double, double> band_of(const Point& p) {
  const double s = p.metric.score, e = p.metric.error;
  if (std::isfinite(e)) return {s - e, s + e};
  double lo = s, hi = s;
  for (const auto& fork : p.metric.raw)
    for (const double v : fork)
      if (std::isfinite(v)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
  return {lo, hi};
}

std::string short_commit(const std::string& c) { return c.size() > 10 ? c.substr(0, 10) : c; }

std::vector<ChartPoint> chart_points(const std::vector<const Series*>& segments) {
  std::vector<ChartPoint> pts;
  for (const Series* s : segments)
    for (const auto& p : s->points) {
      const auto [lo, hi] = band_of(p);
      pts.push_back(ChartPoint{s, &p, lo, hi});
    }
  std::stable_sort(pts.begin(), pts.end(), [](const ChartPoint& a, const ChartPoint& b) {
    return std::tie(a.point->time, a.point->seq) < std::tie(b.point->time, b.point->seq);
  });
  return pts;
}

/// Where the i-th of `points` runs and a value go on the chart.
struct ChartScale {
  std::size_t points = 0;
  double ymin = 0, ymax = 1;
  static constexpr double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;

  double x(std::size_t i) const { return kLeft + (points == 1 ? plot_w / 2 : plot_w * i / (points - 1.0)); }
  double y(double v) const { return kTop + plot_h * (1 - (v - ymin) / (ymax - ymin)); }
};

/// Every band and score in view, with a margin; a flat series gets some height.
ChartScale scale_of(const std::vector<ChartPoint>& pts) {
  double ymin = INFINITY, ymax = -INFINITY;
  for (const auto& p : pts)
    for (const double v : {p.lo, p.hi, p.point->metric.score})
      if (std::isfinite(v)) {
        ymin = std::min(ymin, v);
        ymax = std::max(ymax, v);
      }
  if (!std::isfinite(ymin)) ymin = 0, ymax = 1;
  if (ymax - ymin < 1e-12 * std::max(1.0, std::fabs(ymax))) ymin -= 0.5 * std::fabs(ymin) + 0.5, ymax += 0.5 * std::fabs(ymax) + 0.5;
  const double pad = (ymax - ymin) * 0.08;
  return ChartScale{pts.size(), ymin - pad, ymax + pad};
}

/// What changed in the environment between two runs, for a line's tooltip.
std::vector<std::string> environment_change(const ChartPoint& before, const ChartPoint& after) {
  return environment_differences(before.point->environment, after.point->environment);
}

std::string environment_title(const char* what, const std::vector<std::string>& diff) {
  std::string title = what;
  for (const auto& d : diff) title += " " + d + ";";
  return title;
}

/// The band, one polygon per segment so that a new environment does not join the old.
std::string bands_svg(const std::vector<ChartPoint>& pts, const ChartScale& sc) {
  std::string svg;
  std::size_t start = 0;
  for (std::size_t i = 1; i <= pts.size(); ++i) {
    if (i < pts.size() && pts[i].series == pts[start].series) continue;
    std::string upper, lower;
    for (std::size_t k = start; k < i; ++k) upper += fmt::format("{:.1f},{:.1f} ", sc.x(k), sc.y(pts[k].hi));
    for (std::size_t k = i; k-- > start;) lower += fmt::format("{:.1f},{:.1f} ", sc.x(k), sc.y(pts[k].lo));
    if (i - start == 1) {
      svg += fmt::format(R"(<line class="band" x1="{0:.1f}" x2="{0:.1f}" y1="{1:.1f}" y2="{2:.1f}"/>)", sc.x(start),
                         sc.y(pts[start].hi), sc.y(pts[start].lo));
    } else {
      svg += R"(<polygon class="band" points=")" + upper + lower + R"("/>)";
    }
    if (i < pts.size()) {  // a new segment starts at i
      const double xm = (sc.x(i - 1) + sc.x(i)) / 2;
      const std::string title = environment_title("new environment:", environment_change(pts[i - 1], pts[i]));
      svg += fmt::format(R"(<line class="segment" x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}"><title>{3}</title></line>)",
                         xm, kTop, kTop + sc.plot_h, esc(title));
    }
    start = i;
  }
  return svg;
}

/// Other environment changes inside a segment: candidate explanations.
std::string environment_changes_svg(const std::vector<ChartPoint>& pts, const ChartScale& sc) {
  std::string svg;
  for (std::size_t i = 1; i < pts.size(); ++i) {
    if (pts[i].series != pts[i - 1].series) continue;
    const auto diff = environment_change(pts[i - 1], pts[i]);
    if (diff.empty()) continue;
    const double xm = (sc.x(i - 1) + sc.x(i)) / 2;
    svg += fmt::format(R"(<line class="envchange" x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}"><title>{3}</title></line>)",
                       xm, kTop, kTop + sc.plot_h, esc(environment_title("environment:", diff)));
  }
  return svg;
}

std::string change_points_svg(const std::vector<ChartPoint>& pts, const std::vector<FoundChange>& changes,
                              const ChartScale& sc) {
  std::string svg;
  for (const auto& c : changes) {
    std::size_t at = 0;
    while (at < pts.size() && pts[at].point != &c.first_after()) ++at;
    if (at == 0 || at == pts.size()) continue;
    const double xm = (sc.x(at - 1) + sc.x(at)) / 2;
    svg += fmt::format(
        R"(<g class="change {0}"><line x1="{1:.1f}" x2="{1:.1f}" y1="{2}" y2="{3}"/><text x="{4:.1f}" y="{5}">{6}</text>)"
        R"(<title>{0} {6} at {7} (after {8})</title></g>)",
        c.change.direction, xm, kTop, kTop + sc.plot_h, xm + 3, kTop + 12, esc(percent(c.change.effect)),
        esc(c.first_after().commit), esc(c.last_before().commit));
  }
  return svg;
}

std::string runs_svg(const std::vector<ChartPoint>& pts, const ChartScale& sc) {
  std::string svg;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const Point& p = *pts[i].point;
    std::string title = fmt::format("{} {} ({}): {:.6g} {}", short_commit(p.commit), p.time, p.branch.empty() ? "-" : p.branch,
                                    p.metric.score, pts[i].series->unit);
    if (p.iterations > 0) title += fmt::format("; {} of {} iterations disturbed", p.disturbed, p.iterations);
    const std::string circle =
        fmt::format(R"(<circle class="run{}" cx="{:.1f}" cy="{:.1f}" r="3.5"><title>{}</title></circle>)",
                    p.disturbed > 0 ? " disturbed" : "", sc.x(i), sc.y(p.metric.score), esc(title));
    svg += p.html_report.empty() ? circle : R"(<a href="file://)" + esc(p.html_report) + R"(">)" + circle + "</a>";
  }
  return svg;
}

std::string chart_svg(const std::vector<const Series*>& segments, const std::vector<FoundChange>& changes) {
  const std::vector<ChartPoint> pts = chart_points(segments);
  const ChartScale sc = scale_of(pts);
  std::string svg = fmt::format(R"(<svg class="trend" viewBox="0 0 {} {}" width="{}" height="{}" role="img">)",
                                kWidth, kHeight, kWidth, kHeight);
  svg += fmt::format(R"(<rect class="frame" x="{}" y="{}" width="{}" height="{}"/>)", kLeft, kTop, sc.plot_w,
                     sc.plot_h);
  for (int t = 0; t <= 4; ++t) {
    const double v = sc.ymin + (sc.ymax - sc.ymin) * t / 4;
    svg += fmt::format(R"(<text class="tick" x="{:.1f}" y="{:.1f}">{:.4g}</text>)", kLeft - 6, sc.y(v) + 4, v);
  }
  svg += bands_svg(pts, sc);
  svg += environment_changes_svg(pts, sc);
  svg += change_points_svg(pts, changes, sc);
  svg += runs_svg(pts, sc);
  // Commit labels: the first, the last and those at changes.
  svg += fmt::format(R"(<text class="commit" x="{:.1f}" y="{}">{}</text>)", sc.x(0), kHeight - 8,
                     esc(short_commit(pts.front().point->commit)));
  if (pts.size() > 1)
    svg += fmt::format(R"(<text class="commit end" x="{:.1f}" y="{}">{}</text>)", sc.x(pts.size() - 1), kHeight - 8,
                       esc(short_commit(pts.back().point->commit)));
  return svg + "</svg>";
}

const char* const kStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:960px}
h1{font-size:22px}h2{font-size:16px;margin:28px 0 4px}p.unit{margin:0;color:#666}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;font-size:13px}
td.regression{color:#b00020;font-weight:600}td.improvement{color:#1b7f2a;font-weight:600}
svg.trend{display:block;background:#fff}rect.frame{fill:none;stroke:#999}
text.tick{font-size:11px;text-anchor:end;fill:#555}text.commit{font-size:11px;fill:#555}text.commit.end{text-anchor:end}
polygon.band{fill:#4a78c2;fill-opacity:.18;stroke:none}line.band{stroke:#4a78c2;stroke-opacity:.35;stroke-width:4}
circle.run{fill:#1f4e9c}circle.run.disturbed{fill:#e08a00}
g.change line{stroke-width:2}g.change text{font-size:11px}
g.regression line{stroke:#b00020}g.regression text{fill:#b00020}g.improvement line{stroke:#1b7f2a}g.improvement text{fill:#1b7f2a}
line.segment{stroke:#555;stroke-dasharray:6 4;stroke-width:1.5}line.envchange{stroke:#888;stroke-dasharray:2 3}
.legend span{margin-right:16px}
)";

}  // namespace

int run_report(const CommandLine& cl, std::ostream& out) {
  auto db = open_database(cl.db, false);
  require_readable(*db);
  const auto series = load_series(*db, SeriesFilter{cl.metric, ""});
  const std::string since = since_time(*db, cl.since);
  std::vector<FoundChange> changes;
  for (auto& c : find_changes(series, cl.detect))  // --since: the changes marked; the charts keep every run
    if (since.empty() || c.first_after().time >= since) changes.push_back(std::move(c));
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>cmh-history trend</title><style>";
  html += kStyle;
  html += "</style></head><body>\n<h1>Benchmark history</h1>\n";
  std::map<std::string, std::vector<const Series*>> charts;
  std::vector<std::string> order;
  for (const Series& s : series) {
    auto& v = charts[s.chart_key()];
    if (v.empty()) order.push_back(s.chart_key());
    v.push_back(&s);
  }
  html += fmt::format("<p id=\"summary\">{} chart(s), {} change point(s), store {}, metric {}.</p>\n", order.size(),
                      changes.size(), esc(db->name()), esc(cl.metric));
  html += "<p class=\"legend\"><span>● run (orange: disturbed iterations)</span><span>band: the run's interval</span>"
          "<span>solid line: change point</span><span>dashed: new environment (a new segment)</span>"
          "<span>dotted: other environment change</span></p>\n";
  html += "<h2>Latest changes</h2>\n<table id=\"latest\"><tr><th>direction</th><th>benchmark</th><th>metric</th>"
          "<th>effect</th><th>interval</th><th>p</th><th>last before</th><th>first after</th><th>also changed</th></tr>\n";
  const std::size_t shown = std::min<std::size_t>(changes.size(), 20);
  for (std::size_t i = changes.size(); i-- > changes.size() - shown;) {
    const auto& c = changes[i];
    std::string also;
    for (const auto& e : c.change.environment_changes) also += (also.empty() ? "" : "; ") + e;
    html += fmt::format(
        "<tr class=\"change\"><td class=\"{0}\">{0}</td><td>{1}</td><td>{2}</td><td>{3}</td><td>{4}</td><td>{5}</td>"
        "<td>{6}</td><td>{7}</td><td>{8}</td></tr>\n",
        c.change.direction, esc(describe_point(*c.series)), esc(c.series->metric), percent(c.change.effect),
        c.change.bounded ? percent(c.change.lo) + " .. " + percent(c.change.hi) : "-",
        c.change.p() ? fmt::format("{:.1e}", *c.change.p()) : "exact", esc(c.last_before().commit),
        esc(c.first_after().commit), esc(also));
  }
  if (changes.empty()) html += "<tr><td colspan=\"9\">no change point</td></tr>\n";
  html += "</table>\n";
  for (const auto& key : order) {
    const auto& segments = charts[key];
    std::vector<FoundChange> mine;
    for (const auto& c : changes)
      if (c.series->chart_key() == key) mine.push_back(c);
    const Series& first = *segments.front();
    html += fmt::format("<section class=\"chart\"><h2>{} — {}</h2><p class=\"unit\">{}; {} segment(s)</p>\n",
                        esc(describe_point(first)), esc(first.metric), esc(first.unit), segments.size());
    html += chart_svg(segments, mine) + "</section>\n";
  }
  html += "</body></html>\n";
  write_file(cl.output, html);
  out << "wrote " << cl.output << ": " << order.size() << " chart(s), " << changes.size() << " change point(s)\n";
  return 0;
}

}  // namespace cmh::history
