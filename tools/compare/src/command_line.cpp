// SPDX-License-Identifier: MIT
#include "command_line.hpp"

#include <cmath>
#include <cstdlib>

namespace cmh::compare {

const char* const kUsage =
    R"(Usage: cmh-compare [options] BASE NEW [NEW...]
       cmh-compare [options] --base FILE... --new FILE...
       cmh-compare [options] --baseline NAME[:key=value,...] FILE

Compares benchmark result files: cmh's JSON (-rf json), Java JMH's JSON (1.21 on,
either gc.* spelling), Google Benchmark's JSON (from Google Benchmark or cmh -rf gbench).
Benchmarks are matched by name, mode and parameters. For the score and every secondary
metric present on both sides it prints both scores, the ratio new/base with a Fieller
confidence interval, Welch's t and Mann-Whitney U p-values, and a verdict. The samples
are the forks when both sides have several, else the iterations (Google Benchmark: the
repetitions). Exact counts per op (B/op, allocs/op) are compared without a test and
printed with every digit, the difference beside the ratio (1.000016 (+16)); so are
counts under Callgrind (icount.*), by their difference, when both runs used the same
counting model.

Options:
  --threshold P[%]          allowed worsening of the score and of the exact metrics
                            before a regression fails the run (default 0%)
  --threshold METRIC=P[%]   the same for one metric (score, alloc.rate.norm, cpu_time,
                            rusage.utime.norm, ...); METRIC=off: never fails the run.
                            Other secondary metrics are reported but fail nothing.
  --icount-threshold P[%]   counted metrics (cmh -prof icount: icount.ir.norm and
                            icount.cycles.norm): allowed relative growth, no test, since
                            the same code counts the same (default: --threshold's)
  --icount-threshold METRIC=P[%]|off   the same for one counted metric (ir, cycles,
                            l1miss, llmiss, branchmiss); the miss counts gate only so
  --icount-limit METRIC=N   fail when the new count per op exceeds N (hard limit)
  --icount-limit METRIC=+N  fail when the count per op grew by more than N
  --metric score|robust     what stands for each benchmark: JMH's score (default), or
                            cmh's robust estimate of the undisturbed cost (cmh.robustEstimate,
                            its per-iteration values as the samples); --threshold gates it
  --alpha A                 significance level, and 1-A for the intervals (default 0.05)
  --test welch|u|both       which test decides "significant" (default welch)
  --ignore-param KEY        leave parameter KEY out of the matching (repeatable)
  --base FILE... --new FILE...
                            several files per side (the parts of a run split with
                            -shard, or repeated runs): each side is read as one run,
                            a benchmark in several of its files pools their forks
  --baseline SELECTOR       one file: compare every benchmark with benchmark NAME
                            (NAME:key=value compares the other values of key)
  --format text|markdown|json   output format (default text)
  -o, --output FILE         write the output to FILE
  --html FILE               also write a self-contained HTML report (inline SVG ratio
                            charts with intervals, gates, samples and verdicts)
  --flame BASE_DIR NEW_DIR  where the runs differ, from -prof flame:dir= (or perfasm's
                            saveLogTo=) of each: the functions by change of their cost
                            per op, and a differential flame graph per benchmark,
                            coloured where a change exceeds the fork-to-fork variance
  --flame-out DIR           where the differential pages go (default .)
  -h, --help                this text

Exit status: 0 no regression past a threshold, 1 regression, 2 bad input or usage.
)";

double parse_percent(const std::string& text, const std::string& option) {
  std::string t = text;
  if (!t.empty() && t.back() == '%') t.pop_back();
  char* end = nullptr;
  const double v = t.empty() ? NAN : std::strtod(t.c_str(), &end);
  if (t.empty() || end != t.c_str() + t.size() || !std::isfinite(v) || v < 0)
    throw InputError(option + " " + text + ": expected a percentage such as 5% or 0");
  return v / 100.0;
}

namespace {

/// --threshold P% for every metric, or METRIC=P% (METRIC=off) for one.
void parse_threshold(const std::string& v, const std::string& a, CompareOptions& options) {
  const std::size_t eq = v.find('=');
  if (eq == std::string::npos) {
    options.threshold = parse_percent(v, a);
    return;
  }
  const std::string metric = v.substr(0, eq), limit = v.substr(eq + 1);
  if (metric.empty()) throw InputError(a + " " + v + ": expected METRIC=P%");
  const std::string key = metric == "score" || metric == "primary" ? "score" : metric_key(metric);
  options.metric_thresholds[key] =
      limit == "off" ? std::nullopt : std::optional<double>(parse_percent(limit, a + " " + metric + "="));
}

double parse_alpha(const std::string& v) {
  char* end = nullptr;
  const double alpha = std::strtod(v.c_str(), &end);
  if (v.empty() || end != v.c_str() + v.size() || !(alpha > 0 && alpha < 1))
    throw InputError("--alpha " + v + ": expected a number between 0 and 1");
  return alpha;
}

Test parse_test(const std::string& v) {
  if (v == "welch") return Test::welch;
  if (v == "u") return Test::u;
  if (v == "both") return Test::both;
  throw InputError("--test " + v + ": expected welch, u or both");
}

OutputFormat parse_format(const std::string& v) {
  if (v == "text") return OutputFormat::text;
  if (v == "markdown" || v == "md") return OutputFormat::markdown;
  if (v == "json") return OutputFormat::json;
  throw InputError("--format " + v + ": expected text, markdown or json");
}

/// The result files the command line names, by --base/--new (`sides`) or in order.
void check_files(const CommandLine& cl, bool sides) {
  if (sides) {
    if (cl.base_side.empty() || cl.new_side.empty())
      throw InputError("--base and --new each need one or more result files");
    if (!cl.baseline.empty()) throw InputError("--baseline takes one file, not --base and --new");
    return;
  }
  if (!cl.baseline.empty() && cl.files.size() != 1)
    throw InputError("--baseline takes exactly one result file");
  if (cl.baseline.empty() && cl.files.size() < 2)
    throw InputError("expected two or more result files (BASE NEW...), or --baseline NAME with one");
}

}  // namespace

CommandLine parse_command_line(const std::vector<std::string>& args) {
  CommandLine cl;
  std::vector<std::string>* side = nullptr;  // after --base or --new: the files go there
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw InputError(a + ": missing value");
      return args[++i];
    };
    if (a == "-h" || a == "--help") {
      cl.help = true;
    } else if (a == "--threshold") {
      parse_threshold(value(), a, cl.options);
    } else if (a == "--metric") {
      const std::string& v = value();
      if (v != "score" && v != "robust") throw InputError("--metric " + v + ": expected score or robust");
      cl.options.robust = v == "robust";
    } else if (a == "--icount-threshold") {
      parse_icount_threshold(value(), cl.options.icount);
    } else if (a == "--icount-limit") {
      parse_icount_limit(value(), cl.options.icount);
    } else if (a == "--alpha") {
      cl.options.alpha = parse_alpha(value());
    } else if (a == "--test") {
      cl.options.test = parse_test(value());
    } else if (a == "--ignore-param") {
      cl.options.ignore_params.insert(value());
    } else if (a == "--baseline") {
      cl.baseline = value();
    } else if (a == "--format") {
      cl.format = parse_format(value());
    } else if (a == "--html") {
      cl.html = value();
    } else if (a == "--flame") {
      cl.flame = {value(), value()};
    } else if (a == "--flame-out") {
      cl.flame_out = value();
    } else if (a == "-o" || a == "--output") {
      cl.output = value();
    } else if (a == "--base" || a == "--new") {
      side = a == "--base" ? &cl.base_side : &cl.new_side;
    } else if (a.size() > 1 && a[0] == '-') {
      throw InputError(a + ": unknown option (see cmh-compare --help)");
    } else {
      (side ? *side : cl.files).push_back(a);
    }
  }
  if (!cl.help) check_files(cl, side != nullptr);
  return cl;
}

}  // namespace cmh::compare
