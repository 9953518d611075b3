// SPDX-License-Identifier: MIT
// translate_flags (see flags.hpp). Reading follows Google Benchmark's own rules:
//  - a flag is --name=value; a boolean flag may stand alone (true), and any value
//    other than false/no/off/0/f/n is true;
//  - BENCHMARK_<NAME> in the environment (V for --v) is the flag's default, the
//    command line wins; a flag given again replaces the earlier value;
//  - an unknown --benchmark_* flag is an error (Google Benchmark's BENCHMARK_MAIN
//    fails on it too, as an unrecognized flag).
// Then each flag is honoured, as cmh's options or, where Google Benchmark lets a
// family's own setting win (MinTime, Repetitions, Unit...), as the default of the
// families that set none; or accepted and ignored with a line saying why.
// docs/google-benchmark.md has the table.
#include "flags.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>

#include <cmh/profilers/perf_events.hpp>

namespace benchmark::internal {
namespace {

enum class Kind { boolean, value };

struct FlagSpec {
  const char* name;
  Kind kind;
};

// Every flag of Google Benchmark 1.7 to 1.9 (1.9 added benchmark_dry_run).
constexpr FlagSpec kFlags[] = {
    {"benchmark_list_tests", Kind::boolean},
    {"benchmark_filter", Kind::value},
    {"benchmark_min_time", Kind::value},
    {"benchmark_min_warmup_time", Kind::value},
    {"benchmark_repetitions", Kind::value},
    {"benchmark_dry_run", Kind::boolean},
    {"benchmark_enable_random_interleaving", Kind::boolean},
    {"benchmark_report_aggregates_only", Kind::boolean},
    {"benchmark_display_aggregates_only", Kind::boolean},
    {"benchmark_format", Kind::value},
    {"benchmark_out_format", Kind::value},
    {"benchmark_out", Kind::value},
    {"benchmark_color", Kind::value},
    {"benchmark_counters_tabular", Kind::boolean},
    {"benchmark_perf_counters", Kind::value},
    {"benchmark_context", Kind::value},
    {"benchmark_time_unit", Kind::value},
    {"v", Kind::value},
};

const FlagSpec* find_flag(const std::string& name) {
  for (const auto& f : kFlags)
    if (name == f.name) return &f;
  return nullptr;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
  return s;
}

/// Google Benchmark's truth rule: false, no, off, 0, f, n (any case) are false; so is
/// a single character that is not a letter or digit; everything else, empty included, is true.
bool truthy(const std::string& value) {
  if (value.size() == 1) {
    const unsigned char c = static_cast<unsigned char>(value[0]);
    return std::isalnum(c) && std::string("0fFnN").find(static_cast<char>(c)) == std::string::npos;
  }
  const std::string v = lower(value);
  return !(v == "false" || v == "no" || v == "off");
}

bool is_integer(const std::string& s) {
  if (s.empty()) return false;
  std::size_t i = s[0] == '-' || s[0] == '+' ? 1 : 0;
  return i < s.size() && std::all_of(s.begin() + static_cast<long>(i), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

/// One flag as it was last given.
struct Given {
  std::string value;
  std::string spelled;  ///< "--benchmark_filter=x", or "BENCHMARK_FILTER=x (environment)"
};

double parse_seconds(const Given& g, std::string text) {
  if (!text.empty() && text.back() == 's') text.pop_back();
  char* end = nullptr;
  const double d = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !(d >= 0) || !std::isfinite(d))
    throw FlagError(g.spelled + ": expected seconds (0.5s or 0.5)");
  return d;
}

/// Seconds as cmh's whole-number time syntax: 0.02 -> "20ms", 1.5 -> "1500ms".
std::string cmh_time(double seconds) {
  const long long whole = std::llround(static_cast<long double>(seconds) * 1e9L);
  if (whole < 1) return "1ns";
  for (auto [unit, per] : {std::pair{"s", 1000000000LL}, {"ms", 1000000LL}, {"us", 1000LL}})
    if (whole % per == 0) return std::to_string(whole / per) + unit;
  return std::to_string(whole) + "ns";
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

/// --benchmark_perf_counters names (libpfm's, any case) for the events cmh counts.
const char* cmh_perf_event(const std::string& name) {
  static const std::map<std::string, const char*> kAliases = {
      {"cycles", "cycles"},
      {"cpu-cycles", "cycles"},
      {"unhalted_core_cycles", "cycles"},
      {"instructions", "instructions"},
      {"instruction_retired", "instructions"},
      {"instructions_retired", "instructions"},
      {"branches", "branches"},
      {"branch-instructions", "branches"},
      {"branch-misses", "branch-misses"},
      {"l1-dcache-load-misses", "L1-dcache-load-misses"},
      {"llc-load-misses", "LLC-load-misses"},
      {"task-clock", "task-clock"},
      {"page-faults", "page-faults"},
      {"faults", "page-faults"},
      {"context-switches", "context-switches"},
      {"cs", "context-switches"},
      {"cpu-migrations", "cpu-migrations"},
      {"migrations", "cpu-migrations"},
  };
  const auto it = kAliases.find(lower(name));
  return it == kAliases.end() ? nullptr : it->second;
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = text.find(sep, start);
    out.push_back(text.substr(start, at - start));
    if (at == std::string::npos) break;
    start = at + 1;
  }
  return out;
}

/// Reads the arguments (and the environment) into the last value of each flag.
class Reader {
 public:
  Reader(Translation& t, const EnvLookup& env) : t_(t) {
    for (const auto& f : kFlags) {
      const std::string var = f.name == std::string("v") ? "V" : upper(f.name);
      const char* value = env ? env(var.c_str()) : std::getenv(var.c_str());
      if (value == nullptr) continue;
      // V is too common a name to fail on: only a number is Google Benchmark's --v.
      if (var == "V" && !is_integer(value)) continue;
      given_[f.name] = {value, var + "=" + value + " (environment)"};
    }
  }

  void read(const std::vector<std::string>& args) {
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string& a = args[i];
      if ((a == "-v" || a == "--v") && i + 1 < args.size()) t_.verbose_extra = lower(args[i + 1]) == "extra";
      if (a == "-h" || a == "-help" || a == "--help" || a == "--h") t_.help = true;
      if (!read_flag(a)) t_.cmh_args.push_back(a);
    }
  }

  const Given* get(const char* name) const {
    const auto it = given_.find(name);
    return it == given_.end() ? nullptr : &it->second;
  }
  bool flag(const char* name) const {
    const Given* g = get(name);
    return g != nullptr && truthy(g->value);
  }

 private:
  /// True when `a` is one of Google Benchmark's flags (then recorded), false for cmh's.
  /// Google Benchmark's flags take two dashes; "-v=2" is accepted for --v too.
  bool read_flag(const std::string& a) {
    if (a.size() < 3 || a[0] != '-') return false;
    const bool two_dashes = a[1] == '-';
    const std::string body = a.substr(two_dashes ? 2 : 1);
    const auto eq = body.find('=');
    const std::string name = body.substr(0, eq);
    const bool has_value = eq != std::string::npos;
    const std::string value = has_value ? body.substr(eq + 1) : "";
    if (name == "v") {
      // -v EXTRA and -v=extra are cmh's verbosity; --v=2 (a number) is Google Benchmark's.
      if (!has_value) return false;
      if (!is_integer(value)) {
        t_.verbose_extra = lower(value) == "extra";
        return false;
      }
    } else if (!two_dashes || name.rfind("benchmark_", 0) != 0) {
      return false;  // cmh's (-benchmark_x is not a Google Benchmark spelling either: cmh rejects it)
    }
    const FlagSpec* spec = find_flag(name);
    if (spec == nullptr)
      throw FlagError(a + ": not a Google Benchmark flag (1.7 to 1.9 have no such flag; see -h for cmh's options)");
    if (!has_value && spec->kind != Kind::boolean)
      throw FlagError("--" + name + " needs a value: --" + name + "=...");
    given_[name] = {value, a};
    return true;
  }

  Translation& t_;
  std::map<std::string, Given> given_;
};

class Translator {
 public:
  Translator(Translation& t, const Reader& r) : t_(t), r_(r) {}

  void run() {
    if (const Given* g = r_.get("benchmark_list_tests")) {
      t_.list_tests = truthy(g->value);
      t_.notes.push_back(g->spelled + "  ->  the instance names, one per line (cmh's own list is -l)");
    }
    filter();
    timing();
    output();
    ignored();
    context();
    if (const Given* g = r_.get("benchmark_time_unit")) {
      static const std::pair<const char*, TimeUnit> kUnits[] = {
          {"ns", kNanosecond}, {"us", kMicrosecond}, {"ms", kMillisecond}, {"s", kSecond}};
      const auto it = std::find_if(std::begin(kUnits), std::end(kUnits),
                                   [&](const auto& u) { return g->value == u.first; });
      if (it == std::end(kUnits)) throw FlagError(g->spelled + ": expected ns, us, ms or s");
      t_.defaults.unit = it->second;
      t_.notes.push_back(g->spelled + "  ->  -tu " + g->value + " where the benchmark sets no Unit()");
    }
    if (const Given* g = r_.get("v")) {
      if (!is_integer(g->value)) throw FlagError(g->spelled + ": expected a number (the verbosity level)");
      if (std::atoi(g->value.c_str()) >= 1) {
        add(*g, {"-v", "EXTRA"});
        t_.verbose_extra = true;
      } else {
        add(*g, {});
      }
    }
  }

 private:
  /// A flag that becomes a default of the families that do not set it themselves.
  void by_default(const Given& g, const std::string& cmh, const std::string& unless) {
    t_.notes.push_back(g.spelled + "  ->  " + cmh + " where the benchmark sets no " + unless + "()");
  }
  void add(const Given& g, std::vector<std::string> cmh, const std::string& why = "") {
    t_.notes.push_back(g.spelled + "  ->  " + (cmh.empty() ? "(nothing: the default)" : joined(cmh)) +
                       (why.empty() ? "" : " (" + why + ")"));
    t_.cmh_args.insert(t_.cmh_args.end(), cmh.begin(), cmh.end());
  }
  void ignore(const Given& g, const std::string& why) { t_.ignored.push_back(g.spelled + ": accepted and ignored: " + why); }

  void filter() {
    const Given* g = r_.get("benchmark_filter");
    if (g == nullptr) return;
    const std::string& v = g->value;
    if (v.empty() || v == "all") {
      add(*g, {}, "every benchmark");
    } else if (v[0] == '-') {
      t_.filter = v.substr(1);
      t_.negative_filter = true;
      add(*g, {"-e", v.substr(1)});
    } else {
      t_.filter = v;
      add(*g, {v});
    }
  }

  void timing() {
    if (r_.flag("benchmark_dry_run")) {
      // One iteration of one pass, one repetition, no warmup: Google Benchmark's dry run.
      add(*r_.get("benchmark_dry_run"), {"-bm", "ss", "-bs", "1", "-wbs", "1", "-opi", "1", "-wi", "0", "-i", "1", "-f", "1"},
          "one single pass, one fork");
      for (const char* overridden : {"benchmark_min_time", "benchmark_min_warmup_time", "benchmark_repetitions"})
        if (const Given* g = r_.get(overridden)) t_.notes.push_back(g->spelled + "  ->  (nothing: --benchmark_dry_run wins)");
      return;
    }
    if (const Given* g = r_.get("benchmark_dry_run")) add(*g, {});
    if (const Given* g = r_.get("benchmark_min_time")) {
      std::string v = g->value;
      const bool count = !v.empty() && v.back() == 'x';
      if (count) {
        v.pop_back();
        char* end = nullptr;
        const long long n = std::strtoll(v.c_str(), &end, 10);
        if (v.empty() || end != v.c_str() + v.size() || n < 1 || n > (1 << 30))
          throw FlagError(g->spelled + ": expected an iteration count such as 100x (1 to 2^30)");
        t_.defaults.iterations = n;
        by_default(*g, "-bm ss -bs " + v + " (a fixed batch of " + v + " passes)", "Iterations");
      } else {
        const double seconds = parse_seconds(*g, v);
        if (seconds == 0) {
          // Google Benchmark then stops after its first trial, of one pass.
          t_.defaults.iterations = 1;
          by_default(*g, "-bm ss -bs 1 (0 s: one pass, as 1x)", "MinTime");
        } else {
          t_.defaults.min_time = seconds;
          by_default(*g, "-r " + cmh_time(seconds) + " (each measurement iteration)", "MinTime");
        }
      }
    }
    if (const Given* g = r_.get("benchmark_min_warmup_time")) {
      const double seconds = parse_seconds(*g, g->value);
      t_.defaults.min_warmup_time = seconds;
      by_default(*g, seconds == 0 ? std::string("-wi 0 (no warmup, Google Benchmark's default)")
                                  : "-w " + cmh_time(seconds) + " (each warmup iteration)",
                 "MinWarmUpTime");
    }
    if (const Given* g = r_.get("benchmark_repetitions")) {
      char* end = nullptr;
      const long n = std::strtol(g->value.c_str(), &end, 10);
      if (g->value.empty() || end != g->value.c_str() + g->value.size() || n < 1 || n > 1000000)
        throw FlagError(g->spelled + ": expected a positive integer");
      t_.defaults.repetitions = static_cast<int>(n);
      by_default(*g, "-f " + g->value + " (each repetition is a fork)", "Repetitions");
    }
  }

  void output() {
    if (const Given* g = r_.get("benchmark_format")) {
      const std::string& v = g->value;
      if (v == "console") {
        add(*g, {}, "cmh's report");
      } else if (v == "json" || v == "csv") {
        t_.display_format = v == "json" ? "gbench" : "csv";
        t_.notes.push_back(g->spelled + "  ->  -rf " + *t_.display_format +
                           " printed on stdout after the run; the report goes to stderr");
      } else {
        throw FlagError(g->spelled + ": expected console, json or csv");
      }
    }
    if (const Given* g = r_.get("benchmark_out_format")) {
      const std::string& v = g->value;
      if (v != "json" && v != "console" && v != "csv") throw FlagError(g->spelled + ": expected json, console or csv");
      t_.out_format = v == "json" ? "gbench" : v == "console" ? "text" : "csv";
      t_.notes.push_back(g->spelled + "  ->  -rf " + t_.out_format + (r_.get("benchmark_out") ? "" : " (no --benchmark_out: unused)"));
    }
    if (const Given* g = r_.get("benchmark_out")) {
      if (g->value.empty()) {
        t_.notes.push_back(g->spelled + "  ->  (nothing: no file)");
      } else {
        t_.out_file = g->value;
        t_.notes.push_back(g->spelled + "  ->  -rff " + g->value);
      }
    }
    t_.report_aggregates_only = r_.flag("benchmark_report_aggregates_only");
    t_.display_aggregates_only = r_.flag("benchmark_display_aggregates_only");
    const bool gbench_out = t_.out_file && t_.out_format == "gbench";
    const bool gbench_display = t_.display_format == std::string("gbench");
    if (const Given* g = r_.get("benchmark_report_aggregates_only")) {
      if (!t_.report_aggregates_only)
        t_.notes.push_back(g->spelled + "  ->  (nothing: the default)");
      else if (gbench_out || gbench_display)
        t_.notes.push_back(g->spelled + "  ->  the JSON rows of each repetition are left out where there are aggregates");
      else
        ignore(*g, "it shapes Google Benchmark's JSON, and no JSON is written (cmh's report and CSV have one row per "
                   "benchmark, an aggregate already)");
    }
    if (const Given* g = r_.get("benchmark_display_aggregates_only")) {
      if (!t_.display_aggregates_only)
        t_.notes.push_back(g->spelled + "  ->  (nothing: the default)");
      else if (gbench_display)
        t_.notes.push_back(g->spelled + "  ->  the stdout JSON's repetition rows are left out where there are aggregates");
      else
        ignore(*g, "it shapes the display, and cmh's console report has one row per benchmark (an aggregate already)");
    }
  }

  void ignored() {
    if (const Given* g = r_.get("benchmark_color"))
      ignore(*g, "cmh's report is plain text, without colours");
    if (const Given* g = r_.get("benchmark_counters_tabular"))
      ignore(*g, "cmh's report shows each counter as a secondary result on its own line");
    if (const Given* g = r_.get("benchmark_enable_random_interleaving"); g && truthy(g->value))
      ignore(*g, "each repetition runs in a fresh fork already, one benchmark after another; cmh does not shuffle them");
    else if (g)
      t_.notes.push_back(g->spelled + "  ->  (nothing: the default)");
    if (const Given* g = r_.get("benchmark_perf_counters")) perf_counters(*g);
  }

  void perf_counters(const Given& g) {
    std::vector<std::string> events;
    std::vector<std::string> dropped;
    for (const auto& name : split(g.value, ',')) {
      if (name.empty()) continue;
      const char* event = cmh_perf_event(name);
      const cmh::profilers::PerfEventSpec* spec = event ? cmh::profilers::find_perf_event(event) : nullptr;
      if (spec == nullptr) {
        dropped.push_back(name + " (cmh has no such counter)");
      } else if (auto reason = cmh::profilers::probe_perf_event(*spec)) {
        dropped.push_back(name + " (" + *reason + ")");
      } else if (std::find(events.begin(), events.end(), event) == events.end()) {
        events.push_back(event);
      }
    }
    std::string list;
    for (const auto& e : events) list += (list.empty() ? "" : ",") + e;
    // As Google Benchmark, counters it cannot count are dropped with a warning, not an error.
    for (const auto& d : dropped) t_.ignored.push_back(g.spelled + ": counter " + d + " not counted");
    if (events.empty()) {
      t_.notes.push_back(g.spelled + "  ->  (nothing: no counter cmh can count here)");
      return;
    }
    add(g, {"-prof", "perfnorm:events=" + list}, "per pass, as Google Benchmark reports them");
  }

  void context() {
    const Given* g = r_.get("benchmark_context");
    if (g == nullptr) return;
    if (!g->value.empty())
      for (const auto& pair : split(g->value, ',')) {
        const auto parts = split(pair, '=');
        if (parts.size() != 2 || parts[0].empty())
          throw FlagError(g->spelled + ": expected key=value pairs separated by commas");
        const auto same = [&](const auto& kv) { return kv.first == parts[0]; };
        if (std::any_of(t_.context.begin(), t_.context.end(), same))
          throw FlagError(g->spelled + ": the key \"" + parts[0] + "\" is given twice");
        t_.context.emplace_back(parts[0], parts[1]);
      }
    t_.notes.push_back(g->spelled + "  ->  the JSON files' context (and the report's header)");
  }

  Translation& t_;
  const Reader& r_;
};

}  // namespace

Translation translate_flags(const std::vector<std::string>& args, const EnvLookup& env) {
  Translation t;
  Reader reader(t, env);
  reader.read(args);
  Translator(t, reader).run();
  return t;
}

}  // namespace benchmark::internal
