// SPDX-License-Identifier: MIT
#include <cmh/compare/comparison.hpp>
#include "environment_diff.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cmh::compare {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Seconds in the time unit of "ns/op", "ops/us", ...: the part after "/" or before "/op".
std::optional<double> seconds_in(const std::string& u) {
  if (u == "ns") return 1e-9;
  if (u == "us" || u == "\xC2\xB5s") return 1e-6;
  if (u == "ms") return 1e-3;
  if (u == "s" || u == "sec") return 1.0;
  if (u == "min") return 60.0;
  if (u == "hr") return 3600.0;
  if (u == "day") return 86400.0;
  return std::nullopt;
}

/// The factor that turns values in `from` into values in `to`, when both are time
/// per op or both ops per time; nullopt when they cannot be converted.
std::optional<double> unit_factor(const std::string& from, const std::string& to) {
  if (from == to) return 1.0;
  const auto per_op = [](const std::string& u) -> std::optional<double> {
    if (u.size() > 3 && u.compare(u.size() - 3, 3, "/op") == 0) return seconds_in(u.substr(0, u.size() - 3));
    return std::nullopt;
  };
  const auto ops_per = [](const std::string& u) -> std::optional<double> {
    if (u.rfind("ops/", 0) == 0) return seconds_in(u.substr(4));
    return std::nullopt;
  };
  if (auto f = per_op(from), t = per_op(to); f && t) return *f / *t;
  if (auto f = ops_per(from), t = ops_per(to); f && t) return *t / *f;
  return std::nullopt;
}

Metric scaled(Metric m, double factor) {
  m.score *= factor;
  m.error *= factor;
  for (auto& fork : m.raw)
    for (auto& v : fork) v *= factor;
  if (m.summary) {
    m.summary->mean *= factor;
    m.summary->stddev *= factor;
  }
  return m;
}

std::size_t nonempty_forks(const Metric& m) {
  return static_cast<std::size_t>(
      std::count_if(m.raw.begin(), m.raw.end(), [](const auto& f) { return !f.empty(); }));
}

std::vector<double> fork_means(const Metric& m) {
  std::vector<double> out;
  for (const auto& f : m.raw)
    if (!f.empty()) out.push_back(moments_of(f).mean);
  return out;
}

std::vector<double> all_values(const Metric& m) {
  std::vector<double> out;
  for (const auto& f : m.raw) out.insert(out.end(), f.begin(), f.end());
  return out;
}

Moments summary_moments(const Summary& s) { return Moments{s.mean, s.stddev * s.stddev, static_cast<double>(s.n)}; }

/// The samples the tests run on: forks when both sides have several, Google Benchmark
/// repetitions, iterations otherwise; summaries when a side has no raw values.
struct Samples {
  std::vector<double> a, b;
  std::optional<Moments> ma, mb;  ///< set when a side has only a summary
  std::string kind;
};

Samples choose_samples(const Metric& base, const Metric& contender) {
  Samples s;
  if (base.raw.empty() || contender.raw.empty()) {
    s.kind = "summary";
    if (base.summary) s.ma = summary_moments(*base.summary);
    if (contender.summary) s.mb = summary_moments(*contender.summary);
    if (!s.ma) s.a = all_values(base);
    if (!s.mb) s.b = all_values(contender);
    return s;
  }
  if (base.raw_are_forks && contender.raw_are_forks) {
    s.kind = "repetitions";
    s.a = all_values(base);
    s.b = all_values(contender);
  } else if (nonempty_forks(base) >= 2 && nonempty_forks(contender) >= 2) {
    s.kind = "forks";
    s.a = fork_means(base);
    s.b = fork_means(contender);
  } else {
    s.kind = "iterations";
    s.a = all_values(base);
    s.b = all_values(contender);
  }
  return s;
}

std::optional<double> gate_for(const std::string& key, bool primary, bool exact, const CompareOptions& o) {
  if (const auto it = o.metric_thresholds.find(primary ? "score" : key); it != o.metric_thresholds.end())
    return it->second;
  if (primary || exact) return o.threshold;
  return std::nullopt;
}

std::string param_text(const std::map<std::string, std::string>& params, const std::set<std::string>& ignore) {
  std::string s;
  for (const auto& [k, v] : params)
    if (!ignore.count(k)) s += k + '\x1f' + v + '\x1e';
  return s;
}

std::string match_key(const Record& r, const std::set<std::string>& ignore) {
  return r.name + '\x1d' + r.mode + '\x1d' + std::to_string(r.threads) + '\x1d' + param_text(r.params, ignore);
}

BenchmarkComparison compare_records(const Record& base, const Record& contender, const CompareOptions& o) {
  BenchmarkComparison bc;
  bc.name = contender.name;
  bc.base_name = base.name;
  bc.mode = contender.mode;
  bc.params = contender.params;
  bc.base_params = base.params;
  if (base.failed || contender.failed) {
    bc.skipped = base.failed ? "failed in the base run" : "failed in the new run";
    return bc;
  }
  if (o.robust && (!base.robust || !contender.robust)) {
    bc.skipped = std::string("no robust estimate (cmh.robustEstimate) in the ") + (base.robust ? "new" : "base") + " run";
    return bc;
  }
  const Metric& base_primary = o.robust ? *base.robust : base.primary;
  const Metric& new_primary = o.robust ? *contender.robust : contender.primary;
  const auto factor = unit_factor(new_primary.unit, base_primary.unit);
  if (!factor) {
    bc.skipped = "units differ (" + base_primary.unit + " vs " + new_primary.unit + ")";
    return bc;
  }
  MetricComparison primary = compare_metric(base_primary, scaled(new_primary, *factor), o, true);
  if (*factor != 1.0) primary.note = "new converted from " + new_primary.unit;
  bc.metrics.push_back(std::move(primary));
  for (const auto& s : contender.secondaries) {
    const auto it = std::find_if(base.secondaries.begin(), base.secondaries.end(),
                                 [&](const Metric& m) { return m.key == s.key; });
    if (it == base.secondaries.end()) continue;
    const auto f = unit_factor(s.unit, it->unit);
    if (!f && s.unit != it->unit) continue;  // same name, incomparable units: not the same metric
    bc.metrics.push_back(compare_metric(*it, scaled(s, f.value_or(1.0)), o, false));
  }
  // Counted metrics right after the score they stand beside.
  std::stable_partition(bc.metrics.begin() + 1, bc.metrics.end(),
                        [](const MetricComparison& m) { return is_icount_metric(m.key); });
  return bc;
}

void add_warnings(Comparison& c, const ResultFile& f, const std::string& side) {
  for (const auto& w : f.warnings) c.warnings.push_back(side + ": " + w);
}

}  // namespace

bool Comparison::regression() const {
  for (const auto& b : benchmarks)
    for (const auto& m : b.metrics)
      if (m.regression) return true;
  return false;
}

MetricComparison compare_metric(const Metric& base, const Metric& contender, const CompareOptions& o, bool primary) {
  MetricComparison mc;
  mc.label = contender.label;
  mc.key = contender.key;
  mc.unit = base.unit;
  mc.base_score = base.score;
  mc.base_error = base.error;
  mc.new_score = contender.score;
  mc.new_error = contender.error;
  mc.exact = base.exact && contender.exact;
  mc.higher_is_better = base.higher_is_better;
  mc.threshold = gate_for(mc.key, primary, mc.exact, o);
  mc.ratio_point = base.score != 0 ? contender.score / base.score
                   : contender.score == 0 ? 1.0
                                          : std::copysign(INFINITY, contender.score);
  if (!primary && is_icount_metric(mc.key)) {
    gate_counted(base, contender, o, mc);
    return mc;
  }
  // How much worse, as a fraction: positive = worse.
  const double worsening = mc.higher_is_better ? 1.0 - mc.ratio_point : mc.ratio_point - 1.0;

  if (mc.exact) {
    // Counts per op: the harness allocates nothing in the window, so any change is real.
    mc.samples = "exact";
    const double tol = 1e-9 * std::max(std::fabs(base.score), std::fabs(contender.score));
    const bool same = std::fabs(contender.score - base.score) <= tol;
    mc.verdict = same ? "same" : worsening > 0 ? "worse" : "better";
    mc.significant = !same;
  } else {
    const Samples s = choose_samples(base, contender);
    mc.samples = s.kind;
    const Moments ma = s.ma ? *s.ma : moments_of(s.a);
    const Moments mb = s.mb ? *s.mb : moments_of(s.b);
    mc.base_samples = s.a;
    mc.new_samples = s.b;
    mc.base_n = static_cast<int>(ma.n);
    mc.new_n = static_cast<int>(mb.n);
    mc.welch = welch_t_test(ma, mb);
    if (!s.ma && !s.mb) mc.mwu = mann_whitney_u(s.a, s.b);
    mc.ratio = fieller_ratio(ma, mb, 1.0 - o.alpha);
    if (!mc.welch) {
      mc.verdict = "no test (n < 2)";
    } else {
      const bool welch_says = mc.welch->p < o.alpha;
      const bool u_says = mc.mwu ? mc.mwu->p < o.alpha : welch_says;
      mc.significant = o.test == Test::welch ? welch_says : o.test == Test::u ? u_says : welch_says && u_says;
      mc.verdict = !mc.significant ? "no change" : worsening > 0 ? "worse" : "better";
    }
  }
  mc.regression = mc.verdict == "worse" && mc.threshold && worsening > *mc.threshold;
  return mc;
}

std::string describe(const std::string& name, const std::map<std::string, std::string>& params,
                     const std::string& mode) {
  std::string s = name;
  if (!params.empty()) {
    s += " (";
    bool first = true;
    for (const auto& [k, v] : params) {
      s += (first ? "" : ", ") + k + "=" + v;
      first = false;
    }
    s += ")";
  }
  return s + " " + mode;
}

Comparison compare_files(const ResultFile& base, const ResultFile& contender, const CompareOptions& o) {
  Comparison c;
  c.base_path = base.path;
  c.new_path = contender.path;
  c.base_format = base.format;
  c.new_format = contender.format;
  add_warnings(c, base, "base");
  add_warnings(c, contender, "new");
  for (auto& w : environment_differences(base, contender)) c.warnings.push_back(std::move(w));
  std::map<std::string, const Record*> by_key;
  for (const auto& r : base.records) by_key.try_emplace(match_key(r, o.ignore_params), &r);
  std::set<std::string> matched;
  for (const auto& r : contender.records) {
    const std::string key = match_key(r, o.ignore_params);
    const auto it = by_key.find(key);
    if (it == by_key.end()) {
      c.only_in_new.push_back(describe(r.name, r.params, r.mode));
      continue;
    }
    if (!matched.insert(key).second) continue;  // a duplicate point in the new file
    c.benchmarks.push_back(compare_records(*it->second, r, o));
  }
  for (const auto& r : base.records)
    if (!matched.count(match_key(r, o.ignore_params))) c.only_in_base.push_back(describe(r.name, r.params, r.mode));
  return c;
}

Comparison compare_within(const ResultFile& file, const std::string& selector, const CompareOptions& o) {
  std::string name = selector;
  std::map<std::string, std::string> fixed;
  if (const std::size_t colon = selector.find(':'); colon != std::string::npos) {
    name = selector.substr(0, colon);
    std::string rest = selector.substr(colon + 1);
    while (!rest.empty()) {
      const std::size_t comma = rest.find(',');
      const std::string pair = rest.substr(0, comma);
      const std::size_t eq = pair.find('=');
      if (eq == std::string::npos || eq == 0)
        throw InputError("--baseline " + selector + ": expected NAME or NAME:key=value[,key=value]");
      fixed[pair.substr(0, eq)] = pair.substr(eq + 1);
      rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    }
  }
  Comparison c;
  c.base_path = c.new_path = file.path;
  c.base_format = c.new_format = file.format;
  add_warnings(c, file, "run");
  std::set<std::string> free_keys = o.ignore_params;
  for (const auto& [k, v] : fixed) free_keys.insert(k);
  const auto is_baseline = [&](const Record& r) {
    if (r.name != name) return false;
    for (const auto& [k, v] : fixed) {
      const auto it = r.params.find(k);
      if (it == r.params.end() || it->second != v) return false;
    }
    return true;
  };
  std::vector<const Record*> baselines;
  for (const auto& r : file.records)
    if (is_baseline(r)) baselines.push_back(&r);
  if (baselines.empty()) throw InputError(file.path + ": no benchmark matches --baseline " + selector);
  for (const auto& r : file.records) {
    if (is_baseline(r)) continue;
    const Record* match = nullptr;
    for (const Record* b : baselines)
      if (b->mode == r.mode && b->threads == r.threads &&
          param_text(b->params, free_keys) == param_text(r.params, free_keys)) {
        match = b;
        break;
      }
    if (!match) {
      c.only_in_new.push_back(describe(r.name, r.params, r.mode));
      continue;
    }
    c.benchmarks.push_back(compare_records(*match, r, o));
  }
  return c;
}

}  // namespace cmh::compare
