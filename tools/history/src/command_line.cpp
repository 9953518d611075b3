// SPDX-License-Identifier: MIT
#include "command_line.hpp"

#include <cmath>
#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <regex>

namespace cmh::history {

const char* const kUsage =
    R"(Usage: cmh-history COMMAND [options]

Keeps benchmark results over time and finds the commits that changed them.

Commands:
  add [options] FILE...     store result files (cmh JSON, Java JMH JSON, Google
                            Benchmark JSON) as one run: all shards of a suite together
      --commit SHA          the commit measured (default: git rev-parse HEAD here)
      --branch B            its branch (default: the current git branch)
      --time ISO-8601       when it was measured (default: now); orders the runs
      --tag K=V             a label kept with the run (repeatable)
  changes [options]         list the change points, one per line
      --metric M            score (default), a secondary metric (alloc.rate.norm,
                            cpu_time, ...) or all
      --since DATE|SHA      only changes from this date or commit on
      --json                a JSON array instead of text
  check --commit SHA        exit 1 if that commit starts a significant regression
                            against its branch's recent history, 0 otherwise
      --branch B            the branch (default: the commit's own)
      --window N            runs before the commit to judge against (default 30)
  series [--json]           list the series and their segments (a change of
                            compiler, flags, machine or allocator starts a segment)
  report [-o trend.html]    write a self-contained trend page (default trend.html)
  export --format F         write the latest run (or --commit SHA's) for another
                            service: F = bencher (Bencher Metric Format) or
                            github-action-benchmark (its customSmallerIsBetter input)
      -o FILE               write to FILE instead of standard output

Options of every command:
  --db URL                  the store: a SQLite file (default cmh-history.sqlite)
                            or postgresql://user@host/db (postgresql:// alone takes
                            everything from libpq's PG* environment variables)
  --alpha A                 significance level (default 0.001)
  --min-effect P%           smallest change reported (default 5%)
  -h, --help                this text

A change point is a split of a series (benchmark, parameters, mode, metric and
environment) found by E-divisive means on the runs' scores and confirmed on the
raw samples of the runs on either side (cmh-compare's tests: Mann-Whitney U below
--alpha decides, Welch's t is shown) with an effect of at least --min-effect.
docs/history.md has more.

Exit status: 0 done (check: no regression), 1 check found a regression, 2 bad
input, bad usage or an unusable store (one line on stderr; nothing written).
)";

namespace {

double parse_fraction(const std::string& text, const std::string& option, bool percent) {
  std::string t = text;
  const bool has_percent = !t.empty() && t.back() == '%';
  if (has_percent) t.pop_back();
  char* end = nullptr;
  const double v = t.empty() ? NAN : std::strtod(t.c_str(), &end);
  if (t.empty() || end != t.c_str() + t.size() || !std::isfinite(v) || v < 0)
    throw HistoryError(option + " " + text + (percent ? ": expected a percentage such as 5%" : ": expected a number"));
  return percent || has_percent ? v / 100.0 : v;
}

}  // namespace

std::string normalize_time(const std::string& text, const std::string& option) {
  static const std::regex iso(
      R"((\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?)");
  std::smatch m;
  if (!std::regex_match(text, m, iso)) throw HistoryError(option + " " + text + ": expected an ISO-8601 date or time");
  std::tm tm{};
  tm.tm_year = std::stoi(m[1]) - 1900;
  tm.tm_mon = std::stoi(m[2]) - 1;
  tm.tm_mday = std::stoi(m[3]);
  tm.tm_hour = m[4].matched ? std::stoi(m[4]) : 0;
  tm.tm_min = m[5].matched ? std::stoi(m[5]) : 0;
  tm.tm_sec = m[6].matched ? std::stoi(m[6]) : 0;
  if (tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
    throw HistoryError(option + " " + text + ": not a valid date or time");
  std::time_t t = timegm(&tm);
  if (m[7].matched && m[7].str() != "Z") {
    std::string z = m[7].str();
    z.erase(std::remove(z.begin(), z.end(), ':'), z.end());
    const int sign = z[0] == '-' ? -1 : 1;
    t -= sign * (std::stoi(z.substr(1, 2)) * 3600 + std::stoi(z.substr(3, 2)) * 60);
  }
  std::tm out{};
  gmtime_r(&t, &out);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &out);
  return buf;
}

namespace {

/// The arguments after the command, one at a time.
struct ArgumentReader {
  const std::vector<std::string>& args;
  std::size_t i = 1;

  /// The option's value: the next argument.
  const std::string& value() {
    if (i + 1 >= args.size()) throw HistoryError(args[i] + ": missing value");
    return args[++i];
  }
};

void only_for(const CommandLine& cl, const std::string& a, std::initializer_list<const char*> allowed) {
  for (const char* c : allowed)
    if (cl.command == c) return;
  throw HistoryError(a + ": not an option of " + cl.command + " (see cmh-history --help)");
}

/// Argument `a` (an option, its value read from `next`, or a file name) into `cl`.
void apply_argument(CommandLine& cl, const std::string& a, ArgumentReader& next) {
  if (a == "-h" || a == "--help") {
    cl.help = true;
  } else if (a == "--db") {
    cl.db = next.value();
  } else if (a == "--commit") {
    only_for(cl, a, {"add", "check", "export"});
    cl.commit = next.value();
    if (cl.commit.empty()) throw HistoryError("--commit: empty");
  } else if (a == "--branch") {
    only_for(cl, a, {"add", "check"});
    cl.branch = next.value();
  } else if (a == "--time") {
    only_for(cl, a, {"add"});
    cl.time = normalize_time(next.value(), a);
  } else if (a == "--tag") {
    only_for(cl, a, {"add"});
    const std::string& v = next.value();
    const std::size_t eq = v.find('=');
    if (eq == std::string::npos || eq == 0) throw HistoryError("--tag " + v + ": expected KEY=VALUE");
    cl.tags[v.substr(0, eq)] = v.substr(eq + 1);
  } else if (a == "--metric") {
    only_for(cl, a, {"changes", "check", "series", "report", "export"});
    cl.metric = next.value();
  } else if (a == "--since") {
    only_for(cl, a, {"changes", "report"});
    cl.since = next.value();
  } else if (a == "--json") {
    only_for(cl, a, {"changes", "check", "series"});
    cl.json = true;
  } else if (a == "--alpha") {
    const double alpha = parse_fraction(next.value(), a, false);
    if (!(alpha > 0 && alpha < 1)) throw HistoryError("--alpha: expected a number between 0 and 1");
    cl.detect.alpha = alpha;
  } else if (a == "--min-effect") {
    cl.detect.min_effect = parse_fraction(next.value(), a, true);
  } else if (a == "--window") {
    only_for(cl, a, {"check"});
    const std::string& v = next.value();
    char* end = nullptr;
    const long n = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || n < 1) throw HistoryError("--window " + v + ": expected a positive count of runs");
    cl.window = static_cast<std::size_t>(n);
  } else if (a == "-o" || a == "--output") {
    only_for(cl, a, {"report", "export"});
    cl.output = next.value();
  } else if (a == "--format") {
    only_for(cl, a, {"export"});
    cl.format = next.value();
    if (cl.format != "bencher" && cl.format != "github-action-benchmark")
      throw HistoryError("--format " + cl.format + ": expected bencher or github-action-benchmark");
  } else if (a.size() > 1 && a[0] == '-') {
    throw HistoryError(a + ": unknown option (see cmh-history --help)");
  } else {
    if (cl.command != "add") throw HistoryError(a + ": " + cl.command + " takes no file names");
    cl.files.push_back(a);
  }
}

/// What each command cannot do without, and report's default output.
void check_complete(CommandLine& cl) {
  if (cl.command == "add" && cl.files.empty()) throw HistoryError("add: expected one or more result files");
  if (cl.command == "check" && cl.commit.empty()) throw HistoryError("check: --commit SHA is required");
  if (cl.command == "export" && cl.format.empty()) throw HistoryError("export: --format bencher|github-action-benchmark is required");
  if (cl.command == "report" && cl.output.empty()) cl.output = "trend.html";
}

}  // namespace

CommandLine parse_command_line(const std::vector<std::string>& args) {
  CommandLine cl;
  static const std::vector<std::string> commands = {"add", "changes", "check", "series", "report", "export"};
  if (!args.empty() && (args[0] == "-h" || args[0] == "--help")) {
    cl.help = true;
    return cl;
  }
  if (args.empty()) throw HistoryError("expected a command: add, changes, check, series, report or export (see --help)");
  cl.command = args[0];
  if (std::find(commands.begin(), commands.end(), cl.command) == commands.end())
    throw HistoryError(cl.command + ": unknown command (expected add, changes, check, series, report or export)");
  for (ArgumentReader next{args}; next.i < args.size(); ++next.i) apply_argument(cl, args[next.i], next);
  if (!cl.help) check_complete(cl);
  return cl;
}

}  // namespace cmh::history
