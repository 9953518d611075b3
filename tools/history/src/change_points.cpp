// SPDX-License-Identifier: MIT
// Why E-divisive means and not a permutation test or a z-score: it needs no model of
// the noise, finds steps of any size in a series of any length, and, with its
// candidates confirmed by tests rather than by random permutations (as Hunter does),
// it is deterministic. Unlike Hunter, the confirmation runs on the raw samples of the
// runs on either side (forks or iterations, as cmh-compare would choose them), not on
// one number per run, so a run's own spread counts.
//
// Mann-Whitney U decides; Welch's t is computed and reported beside it. "No change"
// means both sides come from one distribution, which is U's null hypothesis exactly,
// and U's exact distribution holds for any sample size. Welch's t would make the CI
// gate useless: a new commit has one run, three forks say, and Welch-Satterthwaite
// then gives about 2 degrees of freedom: a run 12 % slower than the twelve before it
// (re-scaled copies of one real result file) gave Welch p = 0.02, U p = 0.0002.
#include "change_points.hpp"

#include <cmh/compare/comparison.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace cmh::history {

std::optional<double> ChangePoint::p() const { return p_mann_whitney ? p_mann_whitney : p_welch; }

std::optional<Split> best_split(const std::vector<double>& x, std::size_t begin, std::size_t end,
                                const std::vector<bool>& allowed) {
  // Energy statistic of a split at t (Matteson & James 2014, alpha = 1):
  //   Q = m k / (m + k) * (2/(m k) B - W_left / C(m, 2) - W_right / C(k, 2)),
  // B the sum of |x_i - x_j| across the split, W the sums within each side (a side
  // of one value has no pairs: its term is 0). The sums are updated as t moves right,
  // so one segment costs O(n^2).
  const std::size_t n = end - begin;
  if (n < 2) return std::nullopt;
  const auto dist = [&](std::size_t i, std::size_t j) { return std::fabs(x[i] - x[j]); };
  double within_left = 0, within_right = 0, between = 0;
  for (std::size_t i = begin; i < end; ++i)
    for (std::size_t j = i + 1; j < end; ++j) within_right += dist(i, j);
  std::optional<Split> best;
  for (std::size_t t = begin + 1; t < end; ++t) {
    // Move x[t-1] from the right side to the left.
    const std::size_t moved = t - 1;
    double to_left = 0, to_right = 0;
    for (std::size_t i = begin; i < moved; ++i) to_left += dist(moved, i);
    for (std::size_t j = t; j < end; ++j) to_right += dist(moved, j);
    within_right -= to_right;
    between += to_right - to_left;
    within_left += to_left;
    if (!allowed[t]) continue;
    const double m = static_cast<double>(t - begin), k = static_cast<double>(end - t);
    const double wl = m > 1 ? within_left / (m * (m - 1) / 2) : 0.0;
    const double wr = k > 1 ? within_right / (k * (k - 1) / 2) : 0.0;
    const double q = m * k / (m + k) * (2 * between / (m * k) - wl - wr);
    if (!best || q > best->q) best = Split{t, q};
  }
  return best;
}

std::vector<std::string> environment_differences(const std::map<std::string, std::string>& before,
                                                 const std::map<std::string, std::string>& after) {
  std::set<std::string> keys;
  for (const auto& [k, v] : before) keys.insert(k);
  for (const auto& [k, v] : after) keys.insert(k);
  std::vector<std::string> out;
  for (const auto& k : keys) {
    const auto b = before.find(k), a = after.find(k);
    const std::string old_value = b == before.end() ? "(none)" : b->second;
    const std::string new_value = a == after.end() ? "(none)" : a->second;
    if (old_value != new_value) out.push_back(k + ": " + old_value + " -> " + new_value);
  }
  return out;
}

namespace {

/// The runs [begin, end) as one side of a comparison: their forks side by side.
results::Metric pooled(const Series& s, std::size_t begin, std::size_t end) {
  results::Metric m = s.points[begin].metric;
  m.raw.clear();
  m.summary.reset();
  bool all_forks = true, all_raw = true;
  double sum = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const auto& pm = s.points[i].metric;
    all_forks = all_forks && pm.raw_are_forks;
    all_raw = all_raw && !pm.raw.empty();
    sum += pm.score;
  }
  m.score = sum / static_cast<double>(end - begin);
  m.raw_are_forks = all_forks;
  for (std::size_t i = begin; i < end; ++i) {
    const auto& pm = s.points[i].metric;
    if (all_raw) m.raw.insert(m.raw.end(), pm.raw.begin(), pm.raw.end());
    else m.raw.push_back({pm.score});  // a file with summaries only: each run is one value
  }
  if (!all_raw) m.raw_are_forks = false;
  return m;
}

std::optional<ChangePoint> confirm(const Series& s, std::size_t begin, std::size_t at, std::size_t end,
                                   const DetectOptions& o) {
  compare::CompareOptions co;
  co.alpha = o.alpha;
  co.test = compare::Test::u;
  const results::Metric before = pooled(s, begin, at), after = pooled(s, at, end);
  const compare::MetricComparison mc = compare::compare_metric(before, after, co, s.metric == "score");
  if (!mc.significant) return std::nullopt;
  ChangePoint cp;
  cp.index = at;
  cp.effect = mc.ratio_point - 1;
  if (!mc.exact && std::fabs(cp.effect) < o.min_effect) return std::nullopt;
  cp.direction = mc.verdict == "worse" ? "regression" : "improvement";
  cp.samples = mc.samples;
  if (mc.ratio && mc.ratio->bounded) {
    cp.lo = mc.ratio->lo - 1;
    cp.hi = mc.ratio->hi - 1;
    cp.bounded = true;
  } else if (mc.exact) {
    cp.lo = cp.hi = cp.effect;
    cp.bounded = true;
  }
  if (mc.welch) cp.p_welch = mc.welch->p;
  if (mc.mwu) cp.p_mann_whitney = mc.mwu->p;
  cp.runs_before = at - begin;
  cp.runs_after = end - at;
  cp.environment_changes = environment_differences(s.points[at - 1].environment, s.points[at].environment);
  return cp;
}

}  // namespace

std::vector<ChangePoint> detect_changes(const Series& s, const DetectOptions& o) {
  const std::size_t n = s.points.size();
  if (n < 2) return {};
  std::vector<double> scores;
  for (const auto& p : s.points) scores.push_back(p.metric.score);
  // A change can only start where the commit changes: re-runs of one commit are one level.
  std::vector<bool> allowed(n, false);
  for (std::size_t i = 1; i < n; ++i) allowed[i] = s.points[i].commit != s.points[i - 1].commit && std::isfinite(scores[i]);

  // Split greedily: the segment whose best split has the largest statistic first; a
  // split the tests do not confirm closes its segment.
  std::set<std::size_t> cuts;
  struct Segment {
    std::size_t begin, end;
  };
  std::vector<Segment> open{{0, n}};
  while (!open.empty()) {
    std::size_t pick = 0;
    std::optional<Split> pick_split;
    for (std::size_t i = 0; i < open.size(); ++i) {
      const auto split = best_split(scores, open[i].begin, open[i].end, allowed);
      if (split && (!pick_split || split->q > pick_split->q)) {
        pick = i;
        pick_split = split;
      }
    }
    if (!pick_split) break;
    const Segment seg = open[pick];
    open.erase(open.begin() + static_cast<std::ptrdiff_t>(pick));
    if (!confirm(s, seg.begin, pick_split->at, seg.end, o)) continue;  // the segment is closed
    cuts.insert(pick_split->at);
    open.push_back({seg.begin, pick_split->at});
    open.push_back({pick_split->at, seg.end});
  }

  // Each change must still hold against its neighbours alone (Hunter's merge step):
  // drop the first that does not, then test again.
  while (true) {
    std::vector<std::size_t> points(cuts.begin(), cuts.end());
    std::vector<ChangePoint> confirmed;
    std::optional<std::size_t> failing;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const std::size_t begin = i == 0 ? 0 : points[i - 1];
      const std::size_t end = i + 1 == points.size() ? n : points[i + 1];
      if (auto cp = confirm(s, begin, points[i], end, o)) {
        confirmed.push_back(std::move(*cp));
      } else if (!failing) {
        failing = points[i];
      }
    }
    if (!failing) return confirmed;
    cuts.erase(*failing);
  }
}

}  // namespace cmh::history
