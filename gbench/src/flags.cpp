// SPDX-License-Identifier: MIT
// The translation table (the README's "Coming from Google Benchmark" lists it):
//   --benchmark_filter=R           R as a cmh regexp; -R as -e R; "all" selects everything
//   --benchmark_min_time=Ts | T    -r T (the time of each measurement iteration, as 20ms, 2s...)
//   --benchmark_min_time=Nx        -bm ss -bs N -wbs N -opi N (a fixed batch of N passes)
//   --benchmark_min_warmup_time=T  -w T
//   --benchmark_repetitions=N      -f N (each repetition is a fork)
//   --benchmark_time_unit=U        -tu U
//   --benchmark_out=F              -rff F with -rf gbench (json), text (console) or csv
//   --benchmark_out_format=X       the -rf above
//   --benchmark_format=json|csv    the gbench JSON / cmh's CSV on stdout, cmh's report on stderr
//   --benchmark_list_tests         the instance names, one per line
// Every other --benchmark_* flag (and --v) is an error: it has no cmh equivalent.
#include "flags.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <utility>

namespace benchmark::internal {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

bool parse_bool(const std::string& flag, const std::string& value) {
  const std::string v = lower(value);
  if (v.empty() || v == "true" || v == "1" || v == "yes" || v == "t" || v == "y") return true;
  if (v == "false" || v == "0" || v == "no" || v == "f" || v == "n") return false;
  throw FlagError("--" + flag + "=" + value + ": not a boolean (true or false)");
}

/// "0.5", "0.5s", "100x": a number of seconds, or an iteration count.
struct MinTime {
  bool iterations = false;
  std::string text;  ///< seconds as written, or the count
};

MinTime parse_min_time(const std::string& flag, const std::string& value) {
  MinTime m;
  std::string v = value;
  if (!v.empty() && (v.back() == 'x' || v.back() == 's')) {
    m.iterations = v.back() == 'x';
    v.pop_back();
  }
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (v.empty() || end != v.c_str() + v.size() || !(d > 0) || (m.iterations && d != static_cast<long long>(d)))
    throw FlagError("--" + flag + "=" + value + ": expected seconds (0.5s or 0.5) or an iteration count (100x)");
  m.text = v;
  return m;
}

std::string positive_int(const std::string& flag, const std::string& value) {
  char* end = nullptr;
  const long n = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || end != value.c_str() + value.size() || n < 1)
    throw FlagError("--" + flag + "=" + value + ": expected a positive integer");
  return value;
}

/// Seconds as cmh's whole-number time syntax: 0.02 -> "20ms", 1.5 -> "1500ms".
std::string cmh_time(const std::string& seconds) {
  const long double ns = std::strtold(seconds.c_str(), nullptr) * 1e9L;
  const long long whole = std::llround(ns);
  if (whole < 1) return "1ns";
  for (auto [unit, per] : {std::pair{"s", 1000000000LL}, {"ms", 1000000LL}, {"us", 1000LL}})
    if (whole % per == 0) return std::to_string(whole / per) + unit;
  return std::to_string(whole) + "ns";
}

const char* const kNoEquivalent[] = {
    "benchmark_enable_random_interleaving", "benchmark_report_aggregates_only",
    "benchmark_display_aggregates_only", "benchmark_counters_tabular", "benchmark_color",
    "benchmark_context", "benchmark_perf_counters", "benchmark_dry_run", "benchmark_min_iters",
    "benchmark_max_iters", "v",
};

}  // namespace

Translation translate_flags(const std::vector<std::string>& args) {
  Translation t;
  std::optional<std::string> out_file;
  std::string out_format = "json";
  bool out_format_given = false;
  auto add = [&](const std::string& original, std::vector<std::string> cmh) {
    std::string became;
    for (const auto& a : cmh) became += (became.empty() ? "" : " ") + a;
    t.notes.push_back(original + "  ->  " + (became.empty() ? "(nothing: the default)" : became));
    t.cmh_args.insert(t.cmh_args.end(), cmh.begin(), cmh.end());
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if ((a == "-v" || a == "--v") && i + 1 < args.size()) t.verbose_extra = lower(args[i + 1]) == "extra";
    if (a.rfind("-v=", 0) == 0) t.verbose_extra = lower(a.substr(3)) == "extra";
    const bool gbench = a.rfind("--benchmark_", 0) == 0 || a.rfind("--v=", 0) == 0;
    if (!gbench) {
      t.cmh_args.push_back(a);
      continue;
    }
    const std::string body = a.substr(2);
    const auto eq = body.find('=');
    const std::string flag = body.substr(0, eq);
    const bool has_value = eq != std::string::npos;
    const std::string value = has_value ? body.substr(eq + 1) : "";
    if (std::find(std::begin(kNoEquivalent), std::end(kNoEquivalent), flag) != std::end(kNoEquivalent))
      throw FlagError("--" + flag + " is a Google Benchmark flag with no cmh equivalent (see -h for cmh's options)");
    auto need_value = [&] {
      if (!has_value || value.empty()) throw FlagError("--" + flag + " needs a value: --" + flag + "=...");
    };
    if (flag == "benchmark_filter") {
      need_value();
      if (value == "all") {
        add(a, {});
      } else if (value[0] == '-') {
        t.filter = value.substr(1);
        t.negative_filter = true;
        add(a, {"-e", value.substr(1)});
      } else {
        t.filter = value;
        add(a, {value});
      }
    } else if (flag == "benchmark_min_time") {
      need_value();
      const MinTime m = parse_min_time(flag, value);
      if (m.iterations) {
        add(a, {"-bm", "ss", "-bs", m.text, "-wbs", m.text, "-opi", m.text});
      } else {
        add(a, {"-r", cmh_time(m.text)});
      }
    } else if (flag == "benchmark_min_warmup_time") {
      need_value();
      const MinTime m = parse_min_time(flag, value);
      if (m.iterations) throw FlagError("--" + flag + "=" + value + ": expected seconds");
      add(a, {"-w", cmh_time(m.text)});
    } else if (flag == "benchmark_repetitions") {
      need_value();
      add(a, {"-f", positive_int(flag, value)});
    } else if (flag == "benchmark_time_unit") {
      need_value();
      if (value != "ns" && value != "us" && value != "ms" && value != "s")
        throw FlagError("--" + flag + "=" + value + ": expected ns, us, ms or s");
      add(a, {"-tu", value});
    } else if (flag == "benchmark_out") {
      need_value();
      out_file = value;
      t.notes.push_back(a + "  ->  -rff " + value + " (with -rf from --benchmark_out_format)");
    } else if (flag == "benchmark_out_format") {
      need_value();
      if (value != "json" && value != "console" && value != "csv")
        throw FlagError("--" + flag + "=" + value + ": expected json, console or csv");
      out_format = value;
      out_format_given = true;
    } else if (flag == "benchmark_format") {
      need_value();
      if (value == "console") {
        add(a, {});
      } else if (value == "json" || value == "csv") {
        t.stdout_format = value == "json" ? "gbench" : "csv";
        t.notes.push_back(a + "  ->  -rf " + *t.stdout_format +
                          " to a temporary file printed on stdout after the run; the report goes to stderr (-o)");
      } else {
        throw FlagError("--" + flag + "=" + value + ": expected console, json or csv");
      }
    } else if (flag == "benchmark_list_tests") {
      t.list_tests = parse_bool(flag, value);
      t.notes.push_back(a + "  ->  the instance names, one per line (cmh's own list is -l)");
    } else {
      throw FlagError("--" + flag + " is not a Google Benchmark flag cmh knows (see -h for cmh's options)");
    }
  }
  if (out_file) {
    if (t.stdout_format) throw FlagError("--benchmark_out and --benchmark_format=json|csv cannot be combined under cmh");
    const std::string rf = out_format == "json" ? "gbench" : out_format == "console" ? "text" : "csv";
    t.cmh_args.insert(t.cmh_args.end(), {"-rf", rf, "-rff", *out_file});
    t.notes.push_back("--benchmark_out_format=" + out_format + (out_format_given ? "" : " (the default)") +
                      "  ->  -rf " + rf);
  } else if (out_format_given) {
    t.notes.push_back("--benchmark_out_format=" + out_format + "  ->  (nothing: there is no --benchmark_out)");
  }
  return t;
}

}  // namespace benchmark::internal
