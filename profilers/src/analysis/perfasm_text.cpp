// SPDX-License-Identifier: MIT
// perfasm_text(): JMH's perfasm layout for cmh's hot code (see perfasm_text.hpp):
// the header with the event columns, "Hottest code regions" with one dotted block per
// hot region, then the top regions, the top functions after inlining and the
// distribution by owner, then the warnings.
#include "analysis/perfasm_text.hpp"

#include <fmt/format.h>

#include <cmath>

namespace cmh::profilers::analysis {
namespace {

constexpr std::size_t kRule = 100;

std::string dotted(const std::string& title) {
  std::string s = "....[" + title + "]";
  if (s.size() < kRule) s.append(kRule - s.size(), '.');
  return s + "\n";
}

std::string thousands(std::uint64_t v) {
  std::string digits = std::to_string(v);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

double share_of(const Weight& w, const Weight& total) {
  return total.samples == 0 ? 0.0 : static_cast<double>(w.samples) / static_cast<double>(total.samples);
}

/// One percentage column per event, blank where nothing was sampled, then the per-op cost.
std::string columns(const HotCode& hc, const std::vector<Weight>& w) {
  std::string out;
  for (std::size_t e = 0; e < hc.totals.size(); ++e) {
    const Weight x = e < w.size() ? w[e] : Weight{};
    out += x.samples == 0 ? std::string(8, ' ') : fmt::format("{:>7.2f}%", share_of(x, hc.totals[e]) * 100);
  }
  const Weight first = w.empty() ? Weight{} : w[0];
  out += first.samples == 0 ? std::string(10, ' ') : fmt::format("{:>10}", format_per_op(hc.per_op(first)));
  return out;
}

/// Characters shown, not bytes: the loop marks are three UTF-8 bytes each.
std::size_t display_width(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string owner_tag(CodeOwner owner) { return fmt::format("{:<11}", "[" + std::string(owner_name(owner)) + "]"); }

/// "divide_step(…) (a.cpp:29) <- division_chain (a.cpp:35)": every level with where it is
/// (the outermost: where it calls the next one); "" for an instruction not inlined.
std::string chain_text(const std::vector<InlineFrame>& chain) {
  if (chain.size() < 2) return "";
  std::string out;
  for (const auto& level : chain) {
    if (!out.empty()) out += " <- ";
    out += short_name(level.function);
    if (level.at.known()) out += fmt::format(" ({}:{})", base_name(level.at.file), level.at.line);
  }
  return out;
}

std::string source_text(const SourceLine& line) {
  return line.known() ? fmt::format("{}:{}", base_name(line.file), line.line) : std::string();
}

std::string region_block(const HotCode& hc, const HotRegion& r, std::size_t index) {
  std::string out = dotted(fmt::format("Hottest Region {}", index));
  out += fmt::format("{}{}  in {}", owner_tag(r.owner), r.function, base_name(r.module));
  if (r.size > 0) out += fmt::format(", 0x{:x}..0x{:x} ({} bytes)", r.start, r.start + r.size, r.size);
  out += "\n";
  for (const auto& loop : r.loops)
    out += fmt::format(" hot loop 0x{:x}..0x{:x} (backward branch at 0x{:x}): {:.2f}% of this region's samples\n",
                       loop.loop.start, loop.loop.end, loop.loop.end_jump, loop.share * 100);
  if (!r.listed) {
    out += " <not listed: " + r.not_listed + ">\n";
  } else {
    out += "\n";
    std::string last_chain;
    const std::string blank = columns(hc, {});
    for (const auto& ins : r.instructions) {
      if (ins.cold_bytes_before > 0)
        out += fmt::format("{}  ....  ({} cold bytes)\n", blank, ins.cold_bytes_before);
      const std::string chain = chain_text(ins.chain);
      if (chain != last_chain && (!chain.empty() || !last_chain.empty()))
        out += fmt::format("{}  {}  ; {}\n", blank, std::string(display_width(ins.loop_marks), ' '),
                           chain.empty() ? "not inlined: " + short_name(r.function) + "'s own code" : "inlined: " + chain);
      last_chain = chain;
      std::string line = fmt::format("{}  {}  0x{:x}: {}", columns(hc, ins.weights), ins.loop_marks, ins.address, ins.text);
      const std::string src = source_text(ins.line);
      if (!src.empty() || !ins.skid_hint.empty()) {
        const std::size_t shown = display_width(line);
        if (shown < 80) line.append(80 - shown, ' ');
        line += "  " + src;
        if (!ins.skid_hint.empty()) line += "  <- " + ins.skid_hint;
      }
      out += line + "\n";
    }
    if (r.cold_bytes_after > 0) out += fmt::format("{}  ....  ({} cold bytes)\n", blank, r.cold_bytes_after);
  }
  out += std::string(kRule, '.') + "\n";
  out += fmt::format("{}  <total for region {}>\n\n", columns(hc, r.weights), index);
  return out;
}

std::string summary_line(const HotCode& hc, const std::vector<Weight>& w, const std::string& text) {
  return fmt::format("{}  {}\n", columns(hc, w), text);
}

}  // namespace

std::string format_per_op(double value) {
  if (!std::isfinite(value)) return "-";
  const double a = std::fabs(value);
  if (a >= 1000) return fmt::format("{:.0f}", value);
  if (a >= 100) return fmt::format("{:.1f}", value);
  if (a >= 10) return fmt::format("{:.2f}", value);
  if (a >= 1) return fmt::format("{:.3f}", value);
  return fmt::format("{:.4f}", value);
}

std::string base_name(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string perfasm_text(const HotCode& hc, const PerfasmOptions& options) {
  std::string out;
  const Weight total = hc.totals.empty() ? Weight{} : hc.totals[0];
  const std::string event = hc.events.empty() ? std::string("?") : hc.events[0].name;
  out += fmt::format("Sampled: {} \"{}\" samples in the {} measurement iteration{} of {} fork{} ({} Hz per thread, {} thread{}{}{})\n",
                     thousands(total.samples), event, hc.iterations, hc.iterations == 1 ? "" : "s", hc.forks,
                     hc.forks == 1 ? "" : "s", hc.frequency, hc.threads, hc.threads == 1 ? "" : "s",
                     hc.user_only ? "; user space only" : "", hc.precise ? "; precise" : "");
  if (!hc.event_note.empty()) out += "Event: " + hc.event_note + "\n";
  if (!hc.events.empty())
    out += fmt::format("Per op: {} {} of \"{}\" = sum of sample periods / {} ops (every op of the sampled iterations)\n",
                       format_per_op(hc.per_op(total)), hc.per_op_unit(), event, thousands(hc.ops));
  out += "Code: " + hc.disassembler + "; symbols, source lines and inlining from DWARF (elfutils libdw)\n";
  for (std::size_t e = 0; e < hc.events.size(); ++e)
    out += fmt::format(" Column {}: {} ({} samples)\n", e + 1, hc.events[e].name, thousands(hc.totals[e].samples));
  out += fmt::format(" Column {}: {} of \"{}\"\n\n", hc.events.size() + 1, hc.per_op_unit(), event);

  out += fmt::format("Hottest code regions (>{:.2f}% \"{}\" events):\n", options.hot_threshold * 100, event);
  out += " Event counts are percents of total event count; the next column is the cost per op.\n";
  out += " Regions are functions (ELF symbols); [user] is the benchmark's code, [harness] cmh's loop and blackhole.\n\n";
  std::size_t index = 0;
  for (const auto& r : hc.regions) {
    if (share_of(r.weights.empty() ? Weight{} : r.weights[0], total) < options.hot_threshold) break;
    out += region_block(hc, r, ++index);
  }

  out += dotted("Hottest Regions");
  std::vector<Weight> rest(hc.totals.size());
  int warm = 0;
  for (std::size_t i = 0; i < hc.regions.size(); ++i) {
    const auto& r = hc.regions[i];
    if (static_cast<int>(i) < options.top) {
      out += summary_line(hc, r.weights, fmt::format("{}{}  ({})", owner_tag(r.owner), short_name(r.function), base_name(r.module)));
    } else {
      for (std::size_t e = 0; e < rest.size() && e < r.weights.size(); ++e) rest[e].add(r.weights[e]);
      ++warm;
    }
  }
  if (warm > 0) out += summary_line(hc, rest, fmt::format("<...other {} warm regions...>", warm));
  out += std::string(kRule, '.') + "\n";
  out += summary_line(hc, hc.totals, "<totals>") + "\n";

  out += dotted("Hottest Functions (innermost, after inlining)");
  for (std::size_t i = 0; i < hc.source_functions.size() && static_cast<int>(i) < options.top; ++i) {
    const auto& f = hc.source_functions[i];
    out += summary_line(hc, f.weights, fmt::format("{}{}  ({})", owner_tag(f.owner), short_name(f.name), base_name(f.where)));
  }
  out += std::string(kRule, '.') + "\n\n";

  out += dotted("Hottest Source Lines");
  for (std::size_t i = 0; i < hc.source_lines.size() && static_cast<int>(i) < options.top; ++i) {
    const auto& l = hc.source_lines[i];
    std::string instructions;
    for (const auto& m : l.instructions) instructions += (instructions.empty() ? "" : " ") + m;
    out += summary_line(hc, l.weights,
                        fmt::format("{}{}  {}{}", owner_tag(l.owner), base_name(l.name), short_name(l.where),
                                    instructions.empty() ? "" : "  [" + instructions + "]"));
  }
  out += std::string(kRule, '.') + "\n\n";

  out += dotted("Distribution by Owner");
  for (const auto& o : hc.owners) out += summary_line(hc, o.weights, o.name);
  out += std::string(kRule, '.') + "\n";
  out += summary_line(hc, hc.totals, "<totals>");

  if (!hc.precise && !hc.events.empty())
    out += "\nSkid: a sample names the instruction the CPU was at when the event's interrupt arrived, often one\n"
           "to a few instructions after the one that cost the time (a timer event such as cpu-clock always has\n"
           "skid). Read a hot instruction together with the ones just before it.\n";
  for (const auto& w : hc.warnings) out += "\nWARNING: " + w + "\n";
  return out;
}

}  // namespace cmh::profilers::analysis
