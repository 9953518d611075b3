// SPDX-License-Identifier: MIT
// robust_estimate(): the method chosen by the evidence, then the clustered interval;
// see robust_estimate.hpp.
#include "stats/robust_estimate.hpp"

#include "stats/nan.hpp"
#include "stats/robust_interval.hpp"
#include "stats/time_per_op.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace cmh::stats {

const char* json_name(RobustMethod m) {
  switch (m) {
    case RobustMethod::clean_subwindows: return "cleanSubwindows";
    case RobustMethod::iteration_scores: return "iterationScores";
    case RobustMethod::cpu_time: return "cpuTime";
    case RobustMethod::undisturbed_iterations: return "undisturbedIterations";
  }
  return "";
}

const char* describe(RobustMethod m) {
  switch (m) {
    case RobustMethod::clean_subwindows: return "clean sub-windows (mean)";
    case RobustMethod::iteration_scores: return "iteration scores";
    case RobustMethod::cpu_time: return "CPU time per op";
    case RobustMethod::undisturbed_iterations: return "undisturbed iterations";
  }
  return "";
}

double RobustEstimate::relative_half_width() const {
  if (std::isnan(low) || std::isnan(high) || score == 0) return kNaN;
  return (high - low) / 2 / std::fabs(score);
}

double RobustEstimate::relative_statistical_half_width() const { return relative_half_width() - stall_share; }

double stall_share(BenchmarkMode mode, const std::vector<const ForkResult*>& forks) {
  std::vector<double> shares;
  for (const ForkResult* fork : forks)
    for (const auto& it : fork->measurement) {
      const double mean = it.subwindow_clean_mean, median = it.subwindow_clean_median;
      if (std::isnan(mean) || std::isnan(median) || mean <= 0 || median <= 0) continue;
      // Throughput scores are rates: the slower (stalled) time is the smaller score.
      const double ratio = mode == BenchmarkMode::throughput ? median / mean : mean / median;
      shares.push_back(std::max(0.0, ratio - 1));
    }
  if (shares.empty()) return 0;
  return median_in_place(shares.data(), shares.data() + shares.size());
}

void add_stall_margin(double share, RobustEstimate& out) {
  if (!(share > 0) || std::isnan(out.low) || std::isnan(out.high)) return;
  const double margin = share * std::fabs(out.score);
  out.low -= margin;
  out.high += margin;
  out.stall_share = share;
}

void interval_over(std::vector<std::vector<double>> values_by_fork, RobustEstimate& out) {
  int forks_with_values = 0;
  for (const auto& f : values_by_fork) forks_with_values += f.empty() ? 0 : 1;
  out.by_fork = forks_with_values >= 2;
  ClusterInterval ci;
  if (out.by_fork) {
    ci = cluster_bootstrap(values_by_fork, out.confidence);
  } else {
    // One fork: each iteration is its own cluster.
    std::vector<std::vector<double>> iterations;
    for (const auto& f : values_by_fork)
      for (double v : f) iterations.push_back({v});
    ci = cluster_bootstrap(iterations, out.confidence);
  }
  out.score = ci.estimate;
  out.low = ci.low;
  out.high = ci.high;
  out.clusters = ci.clusters;
  out.cluster_spread = ci.cluster_spread;
  out.raw_by_fork = std::move(values_by_fork);
}

namespace {

/// cpu.time.norm of one iteration as a score in the primary's unit and mode: average time
/// is per thread, which for threads that never wait is CPU time over all ops; throughput
/// is every thread's ops over its time.
double cpu_as_score(const BenchmarkParams& p, const IterationResult& it) {
  const double cpu_ns = cpu_time_per_op(it.threads);
  if (std::isnan(cpu_ns) || cpu_ns <= 0) return kNaN;
  if (p.mode == BenchmarkMode::throughput)
    return static_cast<double>(it.threads.size()) * nanos_per(p.time_unit) / cpu_ns;
  return cpu_ns / nanos_per(p.time_unit);
}

template <class Value>
std::vector<std::vector<double>> collect(const std::vector<const ForkResult*>& forks, Value value, int& used) {
  std::vector<std::vector<double>> out;
  used = 0;
  for (std::size_t f = 0; f < forks.size(); ++f) {
    auto& row = out.emplace_back();
    for (std::size_t i = 0; i < forks[f]->measurement.size(); ++i) {
      const double v = value(f, i, forks[f]->measurement[i]);
      if (std::isnan(v)) continue;
      row.push_back(v);
      ++used;
    }
  }
  return out;
}

std::string windows_text(const RobustEvidence& e) {
  return fmt::format("{} of {} sub-windows rejected", e.rejected, e.subwindows);
}

/// The evidence over every measurement iteration; whether any iteration had sub-windows.
bool gather_evidence(const std::vector<const ForkResult*>& forks, const DisturbanceSummary& d, RobustEvidence& e) {
  bool any_windows = false;
  for (const ForkResult* fork : forks)
    for (const auto& it : fork->measurement) {
      ++e.iterations;
      if (it.subwindows <= 0) continue;
      any_windows = true;
      e.subwindows += it.subwindows;
      e.rejected += it.subwindows_rejected;
      e.corrected += it.subwindows_corrected;
      e.length_ns = std::max(e.length_ns, it.subwindow_length_ns);
      e.window_evidence = std::max(e.window_evidence, it.subwindow_evidence);
      e.clean_iterations += std::isnan(it.subwindow_clean_mean) ? 0 : 1;
    }
  e.disturbed = d.disturbed;
  e.measured = d.measured;
  e.likely_inflated = d.likely_inflated();
  for (const auto& row : d.by_fork)
    for (const auto& it : row) e.blocking = e.blocking || it.blocking;
  return any_windows;
}

std::string why_no_clean_windows(const BenchmarkParams& params, const RobustEvidence& e, bool any_windows) {
  if (any_windows)
    return fmt::format("too few clean sub-windows ({} of {} iterations had at least 5 in every thread; {})",
                       e.clean_iterations, e.iterations, windows_text(e));
  if (params.subwindow.count() == 0) return "no sub-windows (-subwin auto gives the clean sub-window estimate)";
  return "no sub-windows in this mode (time modes without invocation fixtures have them)";
}

/// Without clean sub-windows: the iteration scores, CPU time per op or the undisturbed
/// iterations, as the evidence allows; sets out.method and adds to `why`.
std::vector<std::vector<double>> values_without_windows(const BenchmarkParams& params,
                                                        const std::vector<const ForkResult*>& forks,
                                                        const std::vector<std::vector<double>>& primary_by_fork,
                                                        const DisturbanceSummary& d, bool any_windows,
                                                        RobustEstimate& out, std::string& why) {
  RobustEvidence& e = out.evidence;
  const auto primary = [&](std::size_t f, std::size_t i, const IterationResult&) {
    return f < primary_by_fork.size() && i < primary_by_fork[f].size() ? primary_by_fork[f][i] : kNaN;
  };
  const bool cpu_known = std::all_of(forks.begin(), forks.end(), [](const ForkResult* f) {
    return std::all_of(f->measurement.begin(), f->measurement.end(),
                       [](const IterationResult& it) { return !std::isnan(cpu_time_per_op(it.threads)); });
  });
  if (!e.likely_inflated) {
    // Nothing to correct: the scores themselves, no note unless windows were asked for.
    out.method = RobustMethod::iteration_scores;
    if (!any_windows) why.clear();
    return collect(forks, primary, e.iterations_used);
  }
  if (!e.blocking && cpu_known) {
    out.method = RobustMethod::cpu_time;
    why += "; the score is likely inflated and the body does not block: CPU time per op stands in for its "
           "undisturbed wall time";
    return collect(forks, [&](std::size_t, std::size_t, const IterationResult& it) { return cpu_as_score(params, it); },
                   e.iterations_used);
  }
  const auto undisturbed = [&](std::size_t f, std::size_t i, const IterationResult& it) {
    const bool flagged = f < d.by_fork.size() && i < d.by_fork[f].size() && d.by_fork[f][i].disturbed();
    return flagged ? kNaN : primary(f, i, it);
  };
  int kept = 0;
  auto calm = collect(forks, undisturbed, kept);
  if (kept >= 2) {
    out.method = RobustMethod::undisturbed_iterations;
    e.iterations_used = kept;
    why += fmt::format("; the score is likely inflated{}: only the {} iterations the disturbance rule did not "
                       "flag",
                       e.blocking ? " and the body blocks" : "", kept);
    return calm;
  }
  out.method = RobustMethod::iteration_scores;
  why += "; the score is likely inflated and no better evidence is left: this estimate is likely inflated too";
  return collect(forks, primary, e.iterations_used);
}

/// What the interval's clusters mean, after the method's note.
void add_cluster_note(const RobustEstimate& out, std::string& why) {
  if (!out.by_fork && out.clusters >= 2) {
    why += why.empty() ? "" : "; ";
    why += "one fork: clustered by iteration, blind to fork-to-fork variance";
  } else if (out.clusters < 2) {
    why += why.empty() ? "" : "; ";
    why += "an interval needs two forks or two iterations";
  }
}

}  // namespace

RobustEstimate robust_estimate(const BenchmarkParams& params, const std::vector<const ForkResult*>& forks,
                               const std::vector<std::vector<double>>& primary_by_fork, const DisturbanceSummary& d) {
  RobustEstimate out;
  RobustEvidence& e = out.evidence;
  const bool any_windows = gather_evidence(forks, d, e);
  if (e.iterations == 0) return out;
  out.available = true;

  std::vector<std::vector<double>> values;
  std::string why;
  if (any_windows && e.clean_iterations >= std::max(2.0, kMinCleanIterationShare * e.iterations)) {
    out.method = RobustMethod::clean_subwindows;
    values = collect(forks, [](std::size_t, std::size_t, const IterationResult& it) { return it.subwindow_clean_mean; },
                     e.iterations_used);
    if (e.window_evidence == 0)
      why = "no descheduling evidence per window here (neither rseq nor getrusage): no window was rejected";
  } else {
    why = why_no_clean_windows(params, e, any_windows);
    values = values_without_windows(params, forks, primary_by_fork, d, any_windows, out, why);
  }
  interval_over(std::move(values), out);
  if (out.method == RobustMethod::clean_subwindows) add_stall_margin(stall_share(params.mode, forks), out);
  add_cluster_note(out, why);
  out.note = std::move(why);
  return out;
}

}  // namespace cmh::stats
