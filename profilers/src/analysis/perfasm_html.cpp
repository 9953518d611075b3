// SPDX-License-Identifier: MIT
// perfasm_html(): the hot code as a section of the -rf html report: the summary, the
// top regions, and every hot region's listing with a bar per instruction, the source
// line and the inline chain. Plain HTML and CSS, nothing fetched, no script.
#include "analysis/perfasm_text.hpp"
#include <cmh/common/escape.hpp>

#include <fmt/format.h>

namespace cmh::profilers::analysis {
namespace {

std::string esc(const std::string& s) { return formats::html_escape(s); }

double html_share_of(const std::vector<Weight>& w, const HotCode& hc) {
  if (w.empty() || hc.totals.empty() || hc.totals[0].samples == 0) return 0;
  return static_cast<double>(w[0].samples) / static_cast<double>(hc.totals[0].samples);
}

std::string bar_cell(double share) {
  if (share <= 0) return "<td class=\"pa-share\"></td>";
  return fmt::format("<td class=\"pa-share\"><span class=\"pa-bar\" style=\"width:{:.1f}%\"></span>{:.2f}%</td>",
                     share * 100, share * 100);
}

std::string per_op_cell(const HotCode& hc, const std::vector<Weight>& w) {
  if (w.empty() || w[0].samples == 0) return "<td class=\"pa-num\"></td>";
  return "<td class=\"pa-num\">" + format_per_op(hc.per_op(w[0])) + "</td>";
}

std::string chain_title(const std::vector<InlineFrame>& chain) {
  std::string out;
  for (const auto& f : chain) {
    if (!out.empty()) out += "\n  inlined into ";
    out += f.function;
    if (f.at.known()) out += fmt::format(" at {}:{}", f.at.file, f.at.line);
  }
  return out;
}

constexpr const char* kStyle = R"(<style>
.cmh-perfasm table{border-collapse:collapse;font:12px ui-monospace,Menlo,Consolas,monospace;margin:.4em 0}
.cmh-perfasm td,.cmh-perfasm th{padding:1px 6px;text-align:left;white-space:pre}
.cmh-perfasm th{border-bottom:1px solid #bbb}
.cmh-perfasm .pa-share{position:relative;min-width:5em;text-align:right}
.cmh-perfasm .pa-bar{position:absolute;left:0;top:1px;bottom:1px;background:#f4a582;opacity:.55;z-index:-1}
.cmh-perfasm .pa-num{text-align:right;color:#333}
.cmh-perfasm .pa-loop{color:#b2182b}
.cmh-perfasm .pa-src{color:#555}
.cmh-perfasm .pa-inl td{color:#2166ac;font-style:italic}
.cmh-perfasm .pa-cold td{color:#999}
.cmh-perfasm .pa-user{color:#1b7837}.cmh-perfasm .pa-harness{color:#762a83}
.cmh-perfasm .pa-warn{background:#fff3cd;border:1px solid #e0c36c;padding:.4em .6em;margin:.4em 0}
</style>)";

}  // namespace

std::string perfasm_html(const HotCode& hc, const PerfasmOptions& options) {
  std::string out = "<section class=\"cmh-perfasm\">";
  out += kStyle;
  const std::string event = hc.events.empty() ? std::string("?") : hc.events[0].name;
  out += fmt::format("<h4>Hot code (-prof perfasm)</h4><p>{} samples of <b>{}</b> in {} measurement iterations of {} "
                     "fork(s), {} Hz per thread{}. Per op: <b>{} {}</b> ({} ops).",
                     hc.totals.empty() ? 0 : hc.totals[0].samples, esc(event), hc.iterations, hc.forks, hc.frequency,
                     hc.user_only ? ", user space only" : "", format_per_op(hc.per_op(hc.totals.empty() ? Weight{} : hc.totals[0])),
                     esc(hc.per_op_unit()), hc.ops);
  if (!hc.event_note.empty()) out += "<br>" + esc(hc.event_note);
  out += "</p>";
  for (const auto& w : hc.warnings) out += "<p class=\"pa-warn\">" + esc(w) + "</p>";

  out += "<table class=\"pa-regions\"><tr><th>share</th><th>" + esc(hc.per_op_unit()) +
         "</th><th>owner</th><th>region (function)</th><th>object</th></tr>";
  for (std::size_t i = 0; i < hc.regions.size() && static_cast<int>(i) < options.top; ++i) {
    const auto& r = hc.regions[i];
    out += "<tr>" + bar_cell(html_share_of(r.weights, hc)) + per_op_cell(hc, r.weights) +
           fmt::format("<td class=\"pa-{0}\">{0}</td><td title=\"{1}\">{2}</td><td>{3}</td></tr>", owner_name(r.owner),
                       esc(r.function), esc(short_name(r.function)), esc(base_name(r.module)));
  }
  out += "</table>";

  std::size_t index = 0;
  for (const auto& r : hc.regions) {
    if (html_share_of(r.weights, hc) < options.hot_threshold) break;
    ++index;
    out += fmt::format("<details{}><summary>Hottest region {}: <span class=\"pa-{}\">[{}]</span> {} — {:.2f}%</summary>",
                       index == 1 ? " open" : "", index, owner_name(r.owner), owner_name(r.owner), esc(short_name(r.function)),
                       html_share_of(r.weights, hc) * 100);
    for (const auto& loop : r.loops)
      out += fmt::format("<div class=\"pa-loop\">hot loop 0x{:x}..0x{:x}: {:.2f}% of this region</div>", loop.loop.start,
                         loop.loop.end, loop.share * 100);
    if (!r.listed) {
      out += "<p>not listed: " + esc(r.not_listed) + "</p></details>";
      continue;
    }
    out += "<table class=\"pa-asm\"><tr><th>share</th><th>" + esc(hc.per_op_unit()) +
           "</th><th></th><th>address</th><th>instruction</th><th>source</th></tr>";
    std::string last_chain;
    for (const auto& ins : r.instructions) {
      if (ins.cold_bytes_before > 0)
        out += fmt::format("<tr class=\"pa-cold\"><td></td><td></td><td></td><td colspan=\"3\">…  {} cold bytes</td></tr>",
                           ins.cold_bytes_before);
      const std::string title = chain_title(ins.chain);
      std::string inl;
      for (std::size_t i = 0; i + 1 < ins.chain.size(); ++i)
        inl += (inl.empty() ? "" : " ← ") + short_name(ins.chain[i].function);
      if (inl != last_chain && !inl.empty())
        out += "<tr class=\"pa-inl\"><td></td><td></td><td></td><td colspan=\"3\">inlined: " + esc(inl) + "</td></tr>";
      last_chain = inl;
      const std::string src = ins.line.known() ? fmt::format("{}:{}", base_name(ins.line.file), ins.line.line) : "";
      out += "<tr>" + bar_cell(html_share_of(ins.weights, hc)) + per_op_cell(hc, ins.weights) +
             fmt::format("<td class=\"pa-loop\">{}</td><td>0x{:x}</td><td class=\"pa-{}\">{}</td><td class=\"pa-src\" "
                         "title=\"{}\">{}{}</td></tr>",
                         esc(ins.loop_marks), ins.address, owner_name(ins.owner), esc(ins.text), esc(title), esc(src),
                         ins.skid_hint.empty() ? "" : "  ← " + esc(ins.skid_hint));
    }
    out += "</table></details>";
  }
  out += "<table class=\"pa-lines\"><tr><th>share</th><th>" + esc(hc.per_op_unit()) +
         "</th><th>source line</th><th>function</th><th>instructions</th></tr>";
  for (std::size_t i = 0; i < hc.source_lines.size() && static_cast<int>(i) < options.top; ++i) {
    const auto& l = hc.source_lines[i];
    std::string instructions;
    for (const auto& m : l.instructions) instructions += (instructions.empty() ? "" : " ") + m;
    out += "<tr>" + bar_cell(html_share_of(l.weights, hc)) + per_op_cell(hc, l.weights) +
           fmt::format("<td title=\"{}\">{}</td><td>{}</td><td>{}</td></tr>", esc(l.name), esc(base_name(l.name)),
                       esc(short_name(l.where)), esc(instructions));
  }
  out += "</table>";
  out += "<table class=\"pa-owners\"><tr><th>share</th><th>" + esc(hc.per_op_unit()) + "</th><th>owner</th></tr>";
  for (const auto& o : hc.owners)
    out += "<tr>" + bar_cell(html_share_of(o.weights, hc)) + per_op_cell(hc, o.weights) + "<td>" + esc(o.name) + "</td></tr>";
  out += "</table></section>";
  return out;
}

}  // namespace cmh::profilers::analysis
