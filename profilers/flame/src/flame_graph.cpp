// SPDX-License-Identifier: MIT
// flame_graph_html(): the tree as JSON and a small canvas viewer, in one page (see
// flame_graph.hpp). The viewer is written here rather than taken from a flame-graph
// project: none is packaged for Debian as an embeddable, offline file, and vendoring
// is not allowed; what it needs (layout, zoom, search, tooltips, two colourings) is
// about two hundred lines.
#include <cmh/flame/flame_graph.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace cmh::flame {
namespace {

std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

void node_json(const FlameNode& n, bool differential, std::string& out) {
  out += "{\"n\":" + json_string(n.name) + ",\"v\":" + number(n.value) + ",\"s\":" + number(n.samples);
  if (differential) out += ",\"a\":" + number(n.before) + ",\"g\":" + std::to_string(n.significance);
  if (!n.note.empty()) out += ",\"t\":" + json_string(n.note);
  if (!n.children.empty()) {
    out += ",\"c\":[";
    bool first = true;
    for (const auto& [name, child] : n.children) {
      if (!first) out += ',';
      first = false;
      node_json(child, differential, out);
    }
    out += ']';
  }
  out += '}';
}

std::string html_text(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

constexpr const char* kStyle = R"CSS(
body{font:13px system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;padding:10px 14px;color:#222;background:#fff}
h1{font-size:17px;margin:0 0 2px}
.sub{margin:0 0 4px;color:#444}
.note{margin:0;color:#7a4b00}
#bar{display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin:8px 0}
#bar input{width:22em;padding:3px 5px}
#bar button{padding:3px 9px}
#matched{color:#7b1fa2;font-weight:600}
#crumbs{color:#555}
#legend span{display:inline-block;padding:0 6px;margin-right:4px;border-radius:2px}
#cv{display:block;width:100%;cursor:pointer}
#tip{position:fixed;pointer-events:none;background:#fffff4;border:1px solid #888;padding:5px 7px;
 font:12px ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap;display:none;max-width:70vw;z-index:2;
 box-shadow:0 2px 6px rgba(0,0,0,.2)}
)CSS";

// The viewer. Layout: the focused frame spans the width; its ancestors are drawn full
// width and dimmed; each child gets its share of the parent's width. Frames narrower
// than half a pixel are not drawn (their width still counts in their parent).
constexpr const char* kScript = R"JS(
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("flame-data").textContent);
  var root = D.root, unit = D.unit, diff = D.differential;
  var maxDepth = 0;
  (function walk(n, p, depth) {
    n.p = p; n.depth = depth; n.c = n.c || [];
    n.b = n.v;
    if (depth > maxDepth) maxDepth = depth;
    for (var i = 0; i < n.c.length; i++) walk(n.c[i], n, depth + 1);
    n.c.sort(function (x, y) { return x.n < y.n ? -1 : x.n > y.n ? 1 : 0; });
  })(root, null, 0);
  var ROW = 18, cv = document.getElementById("cv"), ctx = cv.getContext("2d");
  var tip = document.getElementById("tip"), focus = root, inverted = false, query = null, shape = "after";
  var rects = [];
  function width(n) { return diff && shape === "before" ? (isFinite(n.a) ? n.a : 0) : n.b; }
  function hash(s) { var h = 2166136261; for (var i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); } return h >>> 0; }
  function paint(n) {
    if (query && query.test(n.n)) return "#d64ee6";
    if (diff) {
      if (!n.g) return "#d8d8d8";
      var a = isFinite(n.a) ? n.a : 0, b = n.b, m = Math.max(a, b) || 1;
      var k = Math.min(1, Math.abs(b - a) / m), light = Math.round(88 - 40 * k);
      return n.g > 0 ? "hsl(0,80%," + light + "%)" : "hsl(215,80%," + light + "%)";
    }
    var h = hash(n.n);
    if (/^\[/.test(n.n)) return "hsl(0,0%," + (78 + h % 10) + "%)";
    return "hsl(" + (h % 50) + "," + (70 + (h >>> 8) % 25) + "%," + (55 + (h >>> 16) % 15) + "%)";
  }
  function fmt(v) {
    if (!isFinite(v)) return "-";
    var a = Math.abs(v);
    return a >= 1000 ? v.toFixed(0) : a >= 100 ? v.toFixed(1) : a >= 10 ? v.toFixed(2) : a >= 1 ? v.toFixed(3) : v.toPrecision(3);
  }
  function pct(x, total) { return total > 0 ? (100 * x / total).toFixed(2) + " %" : "-"; }
  function y(depth) { return inverted ? depth * ROW : (maxDepth - depth) * ROW; }
  function draw() {
    var W = cv.clientWidth, H = (maxDepth + 1) * ROW, dpr = window.devicePixelRatio || 1;
    cv.width = Math.round(W * dpr); cv.height = Math.round(H * dpr); cv.style.height = H + "px";
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, W, H);
    ctx.font = "12px system-ui, sans-serif";
    ctx.textBaseline = "middle";
    rects = [];
    for (var a = focus.p; a; a = a.p) box(a, 0, W, true);
    (function rec(n, x, w) {
      box(n, x, w, false);
      var total = width(n), cx = x;
      if (total <= 0) return;
      for (var i = 0; i < n.c.length; i++) {
        var cw = w * width(n.c[i]) / total;
        if (cw >= 0.5) rec(n.c[i], cx, cw);
        cx += cw;
      }
    })(focus, 0, W);
    var crumbs = [];
    for (var f = focus; f; f = f.p) crumbs.unshift(f.n);
    document.getElementById("crumbs").textContent = focus === root ? "" : "zoomed: " + crumbs.join(" > ");
    matched();
  }
  function box(n, x, w, dim) {
    var top = y(n.depth);
    ctx.globalAlpha = dim ? 0.55 : 1;
    ctx.fillStyle = paint(n);
    ctx.fillRect(x, top, Math.max(w - 1, 0.5), ROW - 1);
    if (w > 28) {
      ctx.fillStyle = "#111";
      var label = n.n, room = w - 8;
      if (ctx.measureText(label).width > room) {
        var lo = 0, hi = label.length;
        while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (ctx.measureText(label.slice(0, mid) + "…").width <= room) lo = mid; else hi = mid - 1; }
        label = lo > 0 ? label.slice(0, lo) + "…" : "";
      }
      ctx.fillText(label, x + 4, top + ROW / 2);
    }
    ctx.globalAlpha = 1;
    rects.push({ n: n, x: x, y: top, w: w });
  }
  function matched() {
    var out = document.getElementById("matched");
    if (!query) { out.textContent = ""; return; }
    var sum = 0;
    (function rec(n) { if (query.test(n.n)) { sum += width(n); return; } for (var i = 0; i < n.c.length; i++) rec(n.c[i]); })(focus);
    out.textContent = "matched: " + pct(sum, width(focus)) + (focus === root ? "" : " of the zoomed frame");
  }
  function at(ev) {
    var r = cv.getBoundingClientRect(), px = ev.clientX - r.left, py = ev.clientY - r.top;
    for (var i = rects.length - 1; i >= 0; i--) {
      var b = rects[i];
      if (px >= b.x && px < b.x + b.w && py >= b.y && py < b.y + ROW) return b.n;
    }
    return null;
  }
  cv.addEventListener("mousemove", function (ev) {
    var n = at(ev);
    if (!n) { tip.style.display = "none"; return; }
    var total = width(root), parent = n.p ? width(n.p) : width(n);
    var text = n.n + "\n";
    if (diff) {
      text += "before: " + fmt(n.a) + " " + unit + "   after: " + fmt(n.b) + " " + unit +
        "\nchange: " + (n.b - (isFinite(n.a) ? n.a : 0) >= 0 ? "+" : "") + fmt(n.b - (isFinite(n.a) ? n.a : 0)) + " " + unit +
        (n.g > 0 ? "  (more, beyond the forks' variance)" : n.g < 0 ? "  (less, beyond the forks' variance)" : "  (within the forks' variance)");
    } else {
      text += fmt(n.v) + " " + unit + "   " + Math.round(n.s) + " samples";
    }
    text += "\n" + pct(width(n), total) + " of all   " + pct(width(n), parent) + " of its caller";
    if (n.t) text += "\n" + n.t;
    tip.textContent = text;
    tip.style.display = "block";
    var x = ev.clientX + 14, yy = ev.clientY + 14;
    if (x + tip.offsetWidth > window.innerWidth - 4) x = Math.max(4, ev.clientX - tip.offsetWidth - 14);
    if (yy + tip.offsetHeight > window.innerHeight - 4) yy = Math.max(4, ev.clientY - tip.offsetHeight - 14);
    tip.style.left = x + "px"; tip.style.top = yy + "px";
  });
  cv.addEventListener("mouseleave", function () { tip.style.display = "none"; });
  cv.addEventListener("click", function (ev) { var n = at(ev); if (n) { focus = n; draw(); } });
  document.getElementById("reset").addEventListener("click", function () { focus = root; draw(); });
  document.getElementById("flip").addEventListener("click", function () {
    inverted = !inverted; this.textContent = inverted ? "Flame" : "Icicle"; draw();
  });
  var shapeButton = document.getElementById("shape");
  if (shapeButton) shapeButton.addEventListener("click", function () {
    shape = shape === "after" ? "before" : "after";
    this.textContent = shape === "after" ? "Sized by: after" : "Sized by: before"; draw();
  });
  document.getElementById("q").addEventListener("input", function () {
    var s = this.value;
    if (!s) { query = null; draw(); return; }
    try { query = new RegExp(s, "i"); } catch (e) { query = new RegExp(s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i"); }
    draw();
  });
  window.addEventListener("resize", draw);
  draw();
})();
)JS";

/// FNV-1a over the name, as the viewer's hash(): a frame has the same colour on every page.
std::uint32_t name_hash(std::string_view s) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : s) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

/// The viewer's paint(), without search highlighting.
std::string frame_colour(const FlameNode& n, bool differential) {
  char buf[48];
  if (differential) {
    if (n.significance == 0) return "#d8d8d8";
    const double a = std::isfinite(n.before) ? n.before : 0, b = n.value;
    const double m = std::max(a, b) > 0 ? std::max(a, b) : 1;
    const double k = std::min(1.0, std::fabs(b - a) / m);
    std::snprintf(buf, sizeof buf, "hsl(%d,80%%,%d%%)", n.significance > 0 ? 0 : 215,
                  static_cast<int>(std::lround(88 - 40 * k)));
    return buf;
  }
  const std::uint32_t h = name_hash(n.name);
  if (!n.name.empty() && n.name.front() == '[') {
    std::snprintf(buf, sizeof buf, "hsl(0,0%%,%u%%)", 78 + h % 10);
  } else {
    std::snprintf(buf, sizeof buf, "hsl(%u,%u%%,%u%%)", h % 50, 70 + (h >> 8) % 25, 55 + (h >> 16) % 15);
  }
  return buf;
}

std::size_t depth_of(const FlameNode& n) {
  std::size_t d = 0;
  for (const auto& [name, c] : n.children) d = std::max(d, depth_of(c) + 1);
  return d;
}

std::string svg_text(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

std::string format_value(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

void svg_frames(const FlameNode& n, double x, double w, std::size_t depth, std::size_t max_depth, double total,
                const FlamePage& page, std::string& out) {
  constexpr double kRow = 16;
  const double y = static_cast<double>(max_depth - depth) * kRow;
  std::string title = n.name + "\n";
  if (page.differential) {
    const double a = std::isfinite(n.before) ? n.before : 0;
    title += "before " + format_value(a) + " " + page.unit + ", after " + format_value(n.value) + " " + page.unit +
             ", change " + (n.value - a >= 0 ? "+" : "") + format_value(n.value - a) +
             (n.significance > 0   ? " (more, beyond the forks' variance)"
              : n.significance < 0 ? " (less, beyond the forks' variance)"
                                   : " (within the forks' variance)");
  } else {
    title += format_value(n.value) + " " + page.unit + ", " + format_value(total > 0 ? 100 * n.value / total : 0) + " %";
  }
  char rect[128];
  std::snprintf(rect, sizeof rect, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.0f\" fill=\"", x, y,
                std::max(w - 0.5, 0.5), kRow - 1);
  out += "<g><title>" + svg_text(title) + "</title>" + rect + frame_colour(n, page.differential) + "\"/>";
  // A label where about seven pixels per character fit.
  const auto chars = static_cast<std::size_t>((w - 6) / 7);
  if (chars >= 3) {
    std::string label = n.name.size() <= chars ? n.name : n.name.substr(0, chars - 1) + "…";
    char text[64];
    std::snprintf(text, sizeof text, "<text x=\"%.1f\" y=\"%.1f\">", x + 3, y + kRow - 4.5);
    out += text + svg_text(label) + "</text>";
  }
  out += "</g>";
  const double sum = n.value;
  if (sum <= 0) return;
  double cx = x;
  for (const auto& [name, c] : n.children) {
    const double cw = w * c.value / sum;
    if (cw >= 1) svg_frames(c, cx, cw, depth + 1, max_depth, total, page, out);
    cx += cw;
  }
}

}  // namespace

std::string flame_graph_svg(const FlamePage& page, double width) {
  const std::size_t max_depth = depth_of(page.root);
  const double height = static_cast<double>(max_depth + 1) * 16;
  char head[200];
  std::snprintf(head, sizeof head,
                "<svg class=\"flamegraph\" role=\"img\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                "font-size=\"11\" font-family=\"sans-serif\">",
                width, height, width, height);
  // Scoped by class, so a page's own "svg text" rule (smaller, grey) does not shrink the labels.
  std::string out = std::string(head) + "<style>svg.flamegraph text{font-size:11px;fill:#111}</style>";
  svg_frames(page.root, 0, width, 0, max_depth, page.root.value, page, out);
  return out + "</svg>";
}

void add_stack(FlameNode& root, const std::vector<std::string>& frames, double weight, double samples) {
  FlameNode* n = &root;
  n->value += weight;
  n->samples += samples;
  for (const auto& f : frames) {
    FlameNode& child = n->children[f];
    if (child.name.empty()) child.name = f;
    child.value += weight;
    child.samples += samples;
    n = &child;
  }
}

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '<': out += "\\u003c"; break;  // never "</script>" inside the data
      case '>': out += "\\u003e"; break;
      case '&': out += "\\u0026"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string folded_line(const std::vector<std::string>& frames, unsigned long long count) {
  std::string out;
  for (const auto& f : frames) {
    if (!out.empty()) out += ';';
    for (char c : f) out += c == ';' ? ':' : (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out + " " + std::to_string(count) + "\n";
}

std::string flame_graph_html(const FlamePage& page) {
  std::string data = "{\"unit\":" + json_string(page.unit) + ",\"differential\":" + (page.differential ? "true" : "false") +
                     ",\"root\":";
  node_json(page.root, page.differential, data);
  data += "}";
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>" + html_text(page.title) +
                    "</title>\n<style>" + kStyle + "</style></head><body>\n";
  out += "<h1>" + html_text(page.title) + "</h1>\n";
  if (!page.subtitle.empty()) out += "<p class=\"sub\">" + html_text(page.subtitle) + "</p>\n";
  for (const auto& n : page.notes) out += "<p class=\"note\">" + html_text(n) + "</p>\n";
  out += "<div id=\"bar\"><input id=\"q\" type=\"search\" placeholder=\"Search frames (regular expression)\">"
         "<button id=\"reset\" type=\"button\">Reset zoom</button><button id=\"flip\" type=\"button\">Icicle</button>";
  if (page.differential) out += "<button id=\"shape\" type=\"button\">Sized by: after</button>";
  out += "<span id=\"matched\"></span><span id=\"crumbs\"></span></div>\n";
  if (page.differential)
    out += "<p id=\"legend\"><span style=\"background:hsl(0,80%,60%)\">more per op</span><span "
           "style=\"background:hsl(215,80%,60%)\">less per op</span><span style=\"background:#d8d8d8\">no change "
           "beyond the forks' variance</span></p>\n";
  out += "<canvas id=\"cv\"></canvas><div id=\"tip\"></div>\n";
  out += "<script type=\"application/json\" id=\"flame-data\">" + data + "</script>\n";
  out += std::string("<script>") + kScript + "</script>\n</body></html>\n";
  return out;
}

}  // namespace cmh::flame
