// SPDX-License-Identifier: MIT
// The end-of-benchmark blocks. The error printed here is the half-width of the
// confidence interval, so a Sum or Max metric (interval [score, score]) shows the
// floor 0.001, exactly as JMH prints it, while its table row leaves Error blank.
#include "report/result_block.hpp"

#include "report/robust_line.hpp"
#include "report/score_format.hpp"
#include "stats/histogram_statistics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace cmh::report {
namespace {

bool is_derived_percentile(std::string_view label) {
  for (const auto& d : stats::kDerivedPercentiles)
    if (d.label == label) return true;
  return false;
}

/// The note a wrapping profiler gave a fork-level result (icount's model and run), the
/// last fork's; "" if none.
std::string trial_note(const BenchmarkRunResult* run, const std::string& label) {
  std::string note;
  if (run != nullptr)
    for (const auto& fork : run->forks)
      for (const auto& s : fork.trial_secondaries)
        if (s.label == label && !s.note.empty()) note = s.note;
  return note;
}

std::string half_width(const stats::AggregatedMetric& m) {
  return format_error((m.confidence.second - m.confidence.first) / 2);
}

}  // namespace

std::string simple_block(const stats::AggregatedMetric& m) {
  if (m.n <= 2) return fmt::format("  {} {}\n", format_score(m.score), m.unit);
  std::string out;
  out += fmt::format("  {} ±(99.9%) {} {} [{}]\n", format_score(m.score), half_width(m), m.unit,
                     policy_label(m.policy));
  // The stdev is a plain number: a constant metric shows 0.000, not the error floor.
  out += fmt::format("  (min, avg, max) = ({}, {}, {}), stdev = {:.{}f}\n", format_score(m.min), format_score(m.mean),
                     format_score(m.max), m.stdev, kScorePrecision);
  out += fmt::format("  CI (99.9%): [{}, {}] (assumes normal distribution)\n", format_score(m.confidence.first),
                     format_score(m.confidence.second));
  return out;
}

std::string distribution_block(const stats::AggregatedMetric& m) {
  if (m.n <= 2) return simple_block(m);
  std::string out;
  out += fmt::format("  N = {}\n", m.n);
  out += fmt::format("  mean = {} ±(99.9%) {} {}\n", format_score(m.mean, 10), half_width(m), m.unit);

  out += fmt::format("\n  Histogram, {}:\n", m.unit);
  // Bin edges are exact round numbers: plain decimals, never "≈ 0".
  auto edge = [](double v) { return fmt::format("{:.{}f}", v, kScorePrecision); };
  std::size_t edge_width = 0;
  for (const auto& bin : m.distribution) edge_width = std::max({edge_width, edge(bin.lo).size(), edge(bin.hi).size()});
  for (const auto& bin : m.distribution)
    out += fmt::format("    [{:>{}}, {:>{}}) = {}\n", edge(bin.lo), edge_width, edge(bin.hi), edge_width, bin.count);

  out += fmt::format("\n  Percentiles, {}:\n", m.unit);
  for (std::size_t i = 0; i < stats::kJsonPercentiles.size(); ++i)
    out += fmt::format("    {} = {} {}\n", pad_left(fmt::format("p({:.4f})", stats::kJsonPercentiles[i]), 11),
                       format_score(m.percentiles[i], 10), m.unit);
  return out;
}

std::string result_blocks(std::string_view benchmark, const stats::AggregatedBenchmark& b) {
  std::string out = fmt::format("Result \"{}\":\n", benchmark);
  out += b.primary.has_distribution ? distribution_block(b.primary) : simple_block(b.primary);
  out += "\n";
  const bool sample_mode = b.run != nullptr && b.run->params.mode == BenchmarkMode::sample_time;
  std::string last_note;
  for (const auto& m : b.secondaries) {
    if (sample_mode && is_derived_percentile(m.label)) continue;
    out += fmt::format("Secondary result \"{}:{}\":\n", benchmark, m.label);
    out += simple_block(m);
    // A note shared by several results is shown once, under the first.
    if (std::string note = trial_note(b.run, m.label); !note.empty() && note != last_note) {
      out += "  (" + note + ")\n";
      last_note = std::move(note);
    }
    out += "\n";
  }
  // cmh's own figures: error bars that see fork-to-fork variance, a robust score,
  // CPU time beside wall time, and whether other work disturbed the measurement.
  if (b.primary.n > 0 && !b.primary.has_distribution) out += robust_line(benchmark, b) + "\n\n";
  if (b.cpu_time) {
    out += fmt::format("CPU time \"{}:cpu.time.norm\" (CPU time of all threads per op):\n", benchmark);
    out += simple_block(*b.cpu_time) + "\n";
  }
  if (b.total_time) {
    out += fmt::format("Whole-process time \"{}:total.time.norm\" (wall time per op of all threads together; "
                       "the primary score above is per thread):\n",
                       benchmark);
    out += simple_block(*b.total_time) + "\n";
  }
  if (b.disturbance.measured > 0) {
    out += fmt::format("Disturbance \"{}\": {}\n", benchmark, stats::describe(b.disturbance));
    if (b.disturbance.likely_inflated()) out += disturbance_warning(benchmark) + "\n";
    out += "\n";
  }
  return out;
}

std::string disturbance_warning(std::string_view benchmark) {
  return fmt::format("# *** WARNING: {}: the score is likely inflated by other work on this machine (the benchmark's "
                     "threads were preempted or off the CPU); see cpu.time.norm, or rerun on a quieter machine. ***",
                     benchmark);
}

}  // namespace cmh::report
