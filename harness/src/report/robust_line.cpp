// SPDX-License-Identifier: MIT
// robust_line(): see robust_line.hpp.
#include "report/robust_line.hpp"

#include "report/score_format.hpp"

#include <cmh/detail/subwindow_log.hpp>

#include <fmt/format.h>

#include <cmath>

namespace cmh::report {

std::string describe_robust(const stats::RobustEstimate& r, const std::string& unit) {
  std::string text = format_score(r.score);
  if (!std::isnan(r.low) && !std::isnan(r.high))
    text += fmt::format(" [{}, {}]", format_score(r.low), format_score(r.high));
  text += fmt::format(" {} ({:.0f} %, {}, {} {}", unit, r.confidence * 100, stats::describe(r.method), r.clusters,
                      r.by_fork ? (r.clusters == 1 ? "fork" : "forks") : (r.clusters == 1 ? "iteration" : "iterations"));
  const auto& e = r.evidence;
  if (r.method == stats::RobustMethod::clean_subwindows) {
    const char* how = e.window_evidence == static_cast<std::uint8_t>(detail::WindowEvidence::rseq) ? "rseq"
                      : e.window_evidence == static_cast<std::uint8_t>(detail::WindowEvidence::getrusage)
                          ? "getrusage"
                          : "no evidence";
    text += fmt::format("; {} of {} sub-windows of ~{} rejected: switched out or right after ({})", e.rejected,
                        e.subwindows, format_time(Nanos(e.length_ns)), how);
    if (e.corrected > 0) text += fmt::format(", {} kept without their run-queue wait", e.corrected);
  }
  if (r.stall_share > 0) text += fmt::format("; stall margin ±{:.1f} % included", r.stall_share * 100);
  if (r.by_fork && r.clusters >= 2 && !std::isnan(r.cluster_spread))
    text += fmt::format("; forks differ by {:.1f} % (SD)", r.cluster_spread * 100);
  if (!r.note.empty()) text += "; " + r.note;
  return text + ")";
}

std::string robust_line(std::string_view benchmark, const stats::AggregatedBenchmark& b) {
  std::string line = fmt::format("Robust \"{}\": ", benchmark);
  if (b.robust.available) line += describe_robust(b.robust, b.primary.unit) + "; ";
  line += fmt::format("median {} {}", format_score(b.median), b.primary.unit);
  const auto& fi = b.fork_interval;
  if (!std::isnan(fi.error))
    line += fmt::format("; fork-aware {} ±(99.9%) {} {} over {} forks ({})", format_score(fi.score),
                        format_error(fi.error), b.primary.unit, fi.forks, stats::kForkIntervalMethod);
  else
    line += "; fork-aware interval: needs 2 forks";
  if (const auto& sw = b.subwindow)
    line += fmt::format("; sub-window median {} {} ({} sub-windows of ~{} in {} iterations)", format_score(sw->score),
                        b.primary.unit, sw->subwindows, format_time(Nanos(sw->target_ns)), sw->iterations);
  return line;
}

}  // namespace cmh::report
