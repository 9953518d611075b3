// SPDX-License-Identifier: MIT
// TextReport: JMH's console text. Blank lines are managed by counting the
// newlines at the end of the output, so the layout stays the same whatever order
// the host's calls arrive in (a fork's output can even interrupt an iteration line).
#include "report/text_report.hpp"

#include "fork/output_capture.hpp"

#include "report/failure_text.hpp"
#include "report/result_block.hpp"
#include "report/score_format.hpp"
#include "report/summary_table.hpp"
#include "stats/aggregate.hpp"
#include "stats/histogram_statistics.hpp"
#include "stats/time_per_op.hpp"

#include <cmh/version.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ostream>

namespace cmh::report {
namespace {

std::string plural(long long n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

std::string iteration_prefix(IterationKind kind, int index) {
  return kind == IterationKind::warmup ? fmt::format("# Warmup Iteration {:3}: ", index)
                                       : fmt::format("Iteration {:3}: ", index);
}

std::string iteration_line(const BenchmarkParams& bp, std::string_view what, const IterationParams& ip) {
  if (ip.count <= 0) return fmt::format("# {}: <none>\n", what);
  std::string line = fmt::format("# {}: {}, ", what, plural(ip.count, "iteration"));
  line += bp.mode == BenchmarkMode::single_shot ? "single-shot each" : format_time(ip.time) + " each";
  if (ip.batch_size > 1) line += fmt::format(", {} calls per op", ip.batch_size);
  return line + "\n";
}

std::string threads_line(const BenchmarkParams& bp) {
  std::string line = "# Threads: " + plural(bp.threads, "thread");
  if (!bp.group_members.empty() && bp.thread_groups.size() == bp.group_members.size()) {
    int per_group = 0;
    for (int t : bp.thread_groups) per_group += t;
    const int groups = per_group > 0 ? bp.threads / per_group : 0;
    std::string members;
    for (std::size_t i = 0; i < bp.group_members.size(); ++i)
      members += fmt::format("{}{}x \"{}\"", i == 0 ? "" : ", ", bp.thread_groups[i], bp.group_members[i]);
    line += fmt::format(" ({}; {} in each group)", plural(groups, "group"), members);
  }
  if (bp.mode != BenchmarkMode::single_shot)
    line += bp.sync_iterations ? ", will synchronize iterations"
                               : ", ***WARNING: Synchronize iterations are disabled!***";
  return line + "\n";
}

std::string timeout_line(const BenchmarkParams& bp) {
  std::string line = "# Timeout: " + format_time(bp.timeout) + " per iteration";
  const bool too_low = bp.mode != BenchmarkMode::single_shot &&
                       ((bp.measurement.count > 0 && bp.timeout <= bp.measurement.time) ||
                        (bp.warmup.count > 0 && bp.timeout <= bp.warmup.time));
  if (too_low) line += ", ***WARNING: The timeout might be too low!***";
  return line + "\n";
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

/// The primary result of one iteration: "12.744 ns/op", or with an error when the
/// iteration alone has more than two observations (sample-time mode).
std::string primary_text(const BenchmarkParams& bp, const IterationResult& r) {
  const std::string unit = r.primary.unit.empty() ? primary_unit(bp.mode, bp.time_unit) : r.primary.unit;
  std::string text = r.timed_out ? "(benchmark timed out) " : "";
  if (bp.mode == BenchmarkMode::sample_time && r.samples && r.samples->total_count() > 0) {
    const stats::HistogramStatistics samples(*r.samples, nanos_per(bp.time_unit));
    const double score = samples.mean();
    const double error = samples.mean_error_at(stats::kConfidence);
    if (!std::isnan(error) && !is_approximate(score))
      return text + fmt::format("{} ±(99.9%) {} {}", format_score(score), format_error(error), unit);
    return text + format_score(score) + " " + unit;
  }
  return text + format_score(r.primary.value) + " " + unit;
}

/// The secondaries shown under a measurement iteration, sorted by label (with
/// sample-time mode's percentiles of this iteration's samples).
std::vector<ScalarResult> iteration_secondaries(const BenchmarkParams& bp, const IterationResult& r) {
  std::vector<ScalarResult> shown = r.secondaries;
  if (bp.mode == BenchmarkMode::sample_time && r.samples && r.samples->total_count() > 0) {
    const stats::HistogramStatistics samples(*r.samples, nanos_per(bp.time_unit));
    const std::string unit = r.primary.unit.empty() ? primary_unit(bp.mode, bp.time_unit) : r.primary.unit;
    for (auto& d : stats::derived_percentiles(samples, unit)) {
      std::erase_if(shown, [&](const ScalarResult& s) { return s.label == d.label; });
      shown.push_back(std::move(d));
    }
  }
  std::stable_sort(shown.begin(), shown.end(),
                   [](const ScalarResult& a, const ScalarResult& b) { return a.label < b.label; });
  return shown;
}

}  // namespace

std::string header_text(const BenchmarkParams& bp, const model::RunContext& context,
                        const std::vector<std::string>& warnings) {
  std::string out;
  out += "# cmh version: " + (context.cmh_version.empty() ? std::string(CMH_VERSION_STRING) : context.cmh_version) + "\n";
  out += "# Compiler: " + context.compiler + ", flags " +
         (context.compiler_flags.empty() ? "<none>" : context.compiler_flags) + "\n";
  out += "# Executable: " + context.executable + "\n";
  if (!context.custom.empty()) {
    std::string pairs;
    for (const auto& [k, v] : context.custom) pairs += (pairs.empty() ? "" : ", ") + k + "=" + v;
    out += "# Context: " + forking::printable(pairs) + "\n";
  }
  std::string fork_options = bp.fork_args.empty() ? "<none>" : joined(bp.fork_args);
  if (bp.forks == 0 && !bp.fork_args.empty()) fork_options += " (not applied: the benchmark runs in the host process)";
  out += "# Fork options: " + fork_options + "\n";

  // The environment's warnings and the host's own, each once.
  std::vector<std::string> all = context.warnings;
  for (const auto& w : warnings)
    if (std::find(all.begin(), all.end(), w) == all.end()) all.push_back(w);
  for (const auto& w : all) out += w.starts_with("#") ? w + "\n" : "# *** WARNING: " + w + " ***\n";

  out += iteration_line(bp, "Warmup", bp.warmup);
  out += iteration_line(bp, "Measurement", bp.measurement);
  out += timeout_line(bp);
  out += threads_line(bp);
  out += "# Benchmark mode: " + std::string(mode_long_label(bp.mode)) + "\n";
  // With several threads "the score" has more than one reasonable meaning: name it.
  if (bp.threads > 1) out += "# Score: " + stats::score_meaning(bp) + "\n";
  out += "# Benchmark: " + bp.benchmark + "\n";
  if (!bp.params.empty()) {
    std::string params;
    for (const auto& [k, v] : bp.params) params += (params.empty() ? "" : ", ") + k + " = " + v;
    out += "# Parameters: (" + params + ")\n";
  }
  return out;
}

std::string_view closing_reminder() {
  return "Keep in mind: these numbers are measurements, not explanations. Before you rely on one, find\n"
         "out why it is what it is: profile the benchmark (-prof, -lprof), change one thing at a time,\n"
         "compare against a baseline and against a variant that should make no difference, heed the\n"
         "warnings above and keep the machine quiet, and have someone who knows the code review both\n"
         "the benchmark and your conclusion. A number nobody can explain is not a result yet.\n";
}

TextReport::TextReport(std::FILE* out, model::RunContext context, Verbosity verbosity, std::FILE* err)
    : context_(std::move(context)), verbosity_(verbosity) {
  out_ = [out](std::string_view s) { std::fwrite(s.data(), 1, s.size(), out); };
  std::FILE* err_file = err != nullptr ? err : out;
  err_ = [err_file](std::string_view s) { std::fwrite(s.data(), 1, s.size(), err_file); };
  flush_ = [out, err_file] {
    std::fflush(out);
    if (err_file != out) std::fflush(err_file);
  };
}

TextReport::TextReport(std::ostream& out, model::RunContext context, Verbosity verbosity)
    : context_(std::move(context)), verbosity_(verbosity) {
  out_ = [&out](std::string_view s) { out.write(s.data(), static_cast<std::streamsize>(s.size())); };
  err_ = out_;
  flush_ = [&out] { out.flush(); };
}

void TextReport::write(std::string_view text) {
  if (verbosity_ == Verbosity::silent || text.empty()) return;
  out_(text);
  const auto last = text.find_last_not_of('\n');
  const int newlines = static_cast<int>(last == std::string_view::npos ? text.size() : text.size() - 1 - last);
  trailing_newlines_ =
      last == std::string_view::npos ? std::max(trailing_newlines_, 0) + newlines : newlines;
}

void TextReport::break_open_line() {
  if (!line_open_) return;
  write("\n");
  line_open_ = false;
  line_broken_ = true;
}

void TextReport::blank_lines(int count) {
  if (trailing_newlines_ < 0) return;  // nothing above to separate from
  while (trailing_newlines_ < count + 1) write("\n");
}

void TextReport::benchmark_header(const BenchmarkParams& bp, const std::vector<std::string>& warnings) {
  break_open_line();
  blank_lines(2);
  write(header_text(bp, context_, warnings));
  write("\n");
  after_progress_ = false;
}

void TextReport::run_progress(double fraction_done, std::chrono::seconds eta) {
  break_open_line();
  blank_lines(1);
  write(fmt::format("# Run progress: {:.2f}% complete, ETA {}\n", std::clamp(fraction_done, 0.0, 1.0) * 100.0,
                    format_duration(eta)));
  after_progress_ = true;
  flush_();
}

void TextReport::fork_start(int index, int total, bool warmup_fork) {
  break_open_line();
  if (!after_progress_) blank_lines(1);
  after_progress_ = false;
  if (total == 0) {
    write("# Fork: N/A, test runs in the host process\n");
    write("# *** WARNING: Non-forked runs share the host's heap, threads and caches, ignore the fork options "
          "(allocator settings included) and can confuse profilers. ***\n");
    write("# *** WARNING: Run in the host process only to debug a benchmark, never to measure one. ***\n");
  } else {
    write(fmt::format("# {}: {} of {}\n", warmup_fork ? "Warmup Fork" : "Fork", index, total));
  }
  flush_();
}

void TextReport::iteration_start(const BenchmarkParams&, const IterationParams& ip, int index) {
  break_open_line();
  open_prefix_ = iteration_prefix(ip.kind, index);
  write(open_prefix_);
  line_open_ = true;
  line_broken_ = false;
  after_progress_ = false;
  flush_();
}

void TextReport::iteration_result(const BenchmarkParams& bp, const IterationResult& r) {
  // Output that interrupted the line (or a missing iteration_start): repeat the prefix.
  if (!line_open_) write(iteration_prefix(r.kind, r.index));
  std::string text = primary_text(bp, r) + "\n";
  if (r.kind == IterationKind::measurement) {
    // Flagged iterations say so on a line of their own: the iteration line keeps JMH's shape.
    if (const auto d = stats::assess(r); d.disturbed())
      text += fmt::format("{}  (disturbed: {})\n",
                          std::string(iteration_prefix(IterationKind::measurement, r.index).size(), ' '),
                          stats::describe(d));
    const auto shown = iteration_secondaries(bp, r);
    if (!r.label.empty())  // the benchmark's own text (SetLabel), on a line of its own
      text += fmt::format("{}  label: {}\n", std::string(iteration_prefix(IterationKind::measurement, r.index).size(), ' '),
                          forking::printable(r.label));
    if (!shown.empty()) {
      const std::size_t indent = iteration_prefix(IterationKind::measurement, r.index).size();
      std::size_t key_width = 0;
      for (const auto& s : shown) key_width = std::max(key_width, display_width(s.label));
      for (const auto& s : shown) {
        std::string value = format_score(s.value);
        if (!s.unit.empty()) value += " " + s.unit;
        if (!s.note.empty()) value += "  (" + s.note + ")";  // e.g. why NUMA mode is off
        text += std::string(indent, ' ') + "  " + pad_right(s.label + ":", key_width + 1) + " " + value + "\n";
      }
      text += "\n";
    }
  }
  write(text);
  line_open_ = false;
  line_broken_ = false;
  open_prefix_.clear();
  flush_();
}

void TextReport::iteration_failure(const BenchmarkParams&, const Failure& f) {
  if (!line_open_ && line_broken_ && !open_prefix_.empty()) write(open_prefix_);
  write("<failure>\n\n");
  write(describe_failure(f) + "\n\n");
  line_open_ = false;
  line_broken_ = false;
  open_prefix_.clear();
  flush_();
}

void TextReport::fork_failure(const BenchmarkParams&, const Failure& f) {
  break_open_line();
  blank_lines(0);
  std::string text = "<" + describe_failure(f) + ">\n";
  auto tail = [&](std::string_view name, const std::vector<std::string>& lines) {
    if (lines.empty()) return;
    text += fmt::format("<{} last='{}'>\n", name, plural(static_cast<long long>(lines.size()), "line"));
    for (const auto& l : lines) text += l + "\n";
    text += fmt::format("</{}>\n", name);
  };
  tail("stdout", f.stdout_tail);
  tail("stderr", f.stderr_tail);
  if (!f.stack.empty()) {
    text += "<stack>\n";
    for (const auto& l : f.stack) text += l + "\n";
    text += "</stack>\n";
  }
  write(text + "\n");
  line_broken_ = false;
  open_prefix_.clear();
  flush_();
}

void TextReport::fork_output(bool is_stderr, std::string_view line) {
  if (verbosity_ == Verbosity::silent) return;
  break_open_line();
  std::string text(line);
  if (text.empty() || text.back() != '\n') text += '\n';
  if (is_stderr) {
    flush_();  // keep the order of the two streams on a terminal
    err_(text);
    // Only the stream the layout is tracked on counts; a newline ends the line either way.
    if (trailing_newlines_ == 0) trailing_newlines_ = 1;
  } else {
    write(text);
  }
  flush_();
}

void TextReport::benchmark_end(const BenchmarkRunResult& result) {
  break_open_line();
  blank_lines(2);
  const std::string& name = result.params.benchmark;
  if (result.failed()) {
    write(fmt::format("Result \"{}\": FAILED ({})\n", name, describe_failure(*result.failure)));
  } else {
    const auto agg = stats::aggregate(result);
    if (agg.has_results())
      write(result_blocks(name, agg));
    else
      write(fmt::format("Result \"{}\": no measurement iterations\n", name));
  }
  // Profilers' whole-benchmark reports (perfasm's hot code), as JMH prints text results.
  for (const auto& r : result.reports) {
    if (!r.notice.empty()) {
      blank_lines(1);
      write(r.notice + "\n");
    }
    if (!r.text.empty()) {
      blank_lines(2);
      write(fmt::format("Secondary result \"{}:{}\":\n", name, r.label));
      write(r.text.back() == '\n' ? r.text : r.text + "\n");
    }
  }
  blank_lines(2);
  flush_();
}

void TextReport::run_end(const RunResults& results, std::chrono::seconds total_time) {
  break_open_line();
  blank_lines(2);
  // An interrupted run (or one -foe stopped) must not claim to be complete.
  write(std::string(results.complete ? "# Run complete." : "# Run stopped early.") +
        " Total time: " + format_duration(total_time) + "\n\n");
  write(closing_reminder());
  const std::string table = summary_table(results);
  if (!table.empty()) {
    write("\n");
    write(table);
  }
  // Repeated under the table, where a reader of the numbers looks last.
  std::string warnings;
  for (const auto& b : results.benchmarks)
    if (!b.failed())
      if (const auto agg = stats::aggregate(b); agg.disturbance.likely_inflated())
        warnings += disturbance_warning(b.params.benchmark) + "\n";
  if (!warnings.empty()) {
    blank_lines(1);
    write(warnings);
  }
  flush_();
}

void TextReport::println(std::string_view line) {
  break_open_line();
  write(std::string(line) + "\n");
  flush_();
}

void TextReport::verbose_println(std::string_view line) {
  if (verbosity_ == Verbosity::extra) println(line);
}

}  // namespace cmh::report
