// SPDX-License-Identifier: MIT
// aggregate(): one benchmark's forks into JMH's scores. Every measurement
// iteration of every completed fork is pooled into one sample (no between-fork
// model, as JMH); secondaries are padded with zeros where an iteration lacks them.
#include "stats/nan.hpp"
#include "stats/aggregate.hpp"

#include "stats/histogram_statistics.hpp"
#include "stats/list_statistics.hpp"
#include "stats/time_per_op.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace cmh::stats {
namespace {


/// The forks whose iterations count: measurement forks that completed.
std::vector<const ForkResult*> pooled_forks(const BenchmarkRunResult& run) {
  std::vector<const ForkResult*> forks;
  for (const auto& fork : run.forks)
    if (!fork.warmup_fork && !fork.failure) forks.push_back(&fork);
  return forks;
}

/// Folds value number `seen` (0-based) of one label within one iteration into `acc`:
/// a profiler reporting a label twice is combined by the label's policy.
double combine(AggregationPolicy policy, double acc, double value, int seen) {
  if (seen == 0) return value;
  switch (policy) {
    case AggregationPolicy::sum: return acc + value;
    case AggregationPolicy::max: return std::max(acc, value);
    case AggregationPolicy::min: return std::min(acc, value);
    case AggregationPolicy::average: return acc + (value - acc) / (seen + 1);
  }
  return value;
}

/// A secondary metric's values, per fork, per iteration (zero where missing).
struct SecondaryGrid {
  std::string unit;
  AggregationPolicy policy = AggregationPolicy::average;
  std::vector<std::vector<double>> by_fork;
};

void aggregate_primary(const BenchmarkRunResult& run, const std::vector<const ForkResult*>& forks,
                       AggregatedMetric& primary, HistogramStatistics& samples_pool) {
  const BenchmarkParams& bp = run.params;
  primary.label = bp.benchmark;
  primary.unit = primary_unit(bp.mode, bp.time_unit);
  primary.policy = AggregationPolicy::average;
  bool first = true;
  bool any_samples = false;
  for (const ForkResult* fork : forks)
    for (const auto& it : fork->measurement) {
      if (first) {
        if (!it.primary.unit.empty()) primary.unit = it.primary.unit;
        primary.policy = it.primary.policy;
        first = false;
      }
      any_samples = any_samples || it.samples.has_value();
    }

  const bool sample_mode = bp.mode == BenchmarkMode::sample_time && any_samples;
  const double nanos_per_unit = nanos_per(bp.time_unit);
  ListStatistics scores;
  for (const ForkResult* fork : forks) {
    auto& raw = primary.raw_by_fork.emplace_back();
    if (sample_mode) primary.raw_histograms.emplace_back();
    for (const auto& it : fork->measurement) {
      if (sample_mode) {
        auto& iteration_counts = primary.raw_histograms.back().emplace_back();
        if (it.samples) {
          const HistogramStatistics one(*it.samples, nanos_per_unit);
          // JMH writes each bucket's lower bound (exact below 1024 ns), not the value the
          // statistics use for it.
          for (std::size_t b = 0; b < SampleHistogram::kBuckets; ++b)
            if (const std::uint64_t c = it.samples->count_at(b); c != 0)
              iteration_counts.emplace_back(static_cast<double>(SampleHistogram::lower_bound(b)) / nanos_per_unit, c);
          samples_pool.add(*it.samples, nanos_per_unit);
          raw.push_back(one.n() > 0 ? one.mean() : it.primary.value);
        } else {
          raw.push_back(it.primary.value);
        }
      } else {
        raw.push_back(it.primary.value);
        scores.add(it.primary.value);
      }
    }
  }
  const Statistics& stats = sample_mode ? static_cast<const Statistics&>(samples_pool) : scores;
  summarise(stats, primary);
  primary.has_distribution =
      bp.mode == BenchmarkMode::sample_time || bp.mode == BenchmarkMode::single_shot;
  if (primary.has_distribution) primary.distribution = stats.histogram();
}

std::map<std::string, SecondaryGrid> secondary_grids(const std::vector<const ForkResult*>& forks) {
  std::map<std::string, SecondaryGrid> grids;
  // First the labels, with the unit and policy of their first appearance.
  for (const ForkResult* fork : forks) {
    for (const auto& it : fork->measurement)
      for (const auto& s : it.secondaries) grids.try_emplace(s.label, SecondaryGrid{s.unit, s.policy, {}});
    for (const auto& s : fork->trial_secondaries)
      grids.try_emplace(s.label, SecondaryGrid{s.unit, s.policy, {}});
  }
  // Then the values: every iteration gets one, zero when the metric is missing from it
  // (JMH's getZeroResult); trial-level results add one value per fork that reported.
  for (auto& [label, grid] : grids) {
    bool from_iterations = false;
    for (const ForkResult* fork : forks)
      for (const auto& it : fork->measurement)
        for (const auto& s : it.secondaries) from_iterations = from_iterations || s.label == label;
    for (const ForkResult* fork : forks) {
      auto& row = grid.by_fork.emplace_back();
      if (from_iterations) {
        for (const auto& it : fork->measurement) {
          double value = 0;
          int seen = 0;
          for (const auto& s : it.secondaries)
            if (s.label == label) value = combine(grid.policy, value, s.value, seen++);
          row.push_back(value);
        }
      }
      for (const auto& s : fork->trial_secondaries)
        if (s.label == label) row.push_back(s.value);
    }
  }
  return grids;
}

AggregatedMetric single_value_metric(const ScalarResult& r) {
  AggregatedMetric m;
  m.label = r.label;
  m.unit = r.unit;
  m.policy = r.policy;
  m.raw_by_fork = {{r.value}};
  summarise(ListStatistics({r.value}), m);
  return m;
}

}  // namespace

void summarise(const Statistics& stats, AggregatedMetric& metric) {
  metric.n = stats.n();
  if (metric.n == 0) {
    metric.score = metric.error = metric.min = metric.mean = metric.max = metric.stdev = kNaN;
    metric.confidence = {kNaN, kNaN};
    metric.percentiles.fill(kNaN);
    return;
  }
  metric.min = stats.min();
  metric.mean = stats.mean();
  metric.max = stats.max();
  metric.stdev = stats.stdev();
  switch (metric.policy) {
    case AggregationPolicy::average: metric.score = metric.mean; break;
    case AggregationPolicy::sum: metric.score = stats.sum(); break;
    case AggregationPolicy::max: metric.score = metric.max; break;
    case AggregationPolicy::min: metric.score = metric.min; break;
  }
  if (metric.policy == AggregationPolicy::average) {
    metric.error = stats.mean_error_at(kConfidence);
    metric.confidence = stats.confidence_interval_at(kConfidence);
  } else {
    metric.error = kNaN;
    metric.confidence = {metric.score, metric.score};
  }
  for (std::size_t i = 0; i < kJsonPercentiles.size(); ++i)
    metric.percentiles[i] = stats.percentile(kJsonPercentiles[i]);
}

AggregatedBenchmark aggregate(const BenchmarkRunResult& run) {
  AggregatedBenchmark out;
  out.run = &run;
  const auto forks = pooled_forks(run);

  HistogramStatistics samples_pool;
  aggregate_primary(run, forks, out.primary, samples_pool);

  for (auto& [label, grid] : secondary_grids(forks)) {
    AggregatedMetric m;
    m.label = label;
    m.unit = grid.unit;
    m.policy = grid.policy;
    ListStatistics values;
    for (const auto& row : grid.by_fork)
      for (double v : row) values.add(v);
    m.raw_by_fork = std::move(grid.by_fork);
    summarise(values, m);
    out.secondaries.push_back(std::move(m));
  }

  // Sample-time mode's derived percentiles come from the pooled samples; like JMH they
  // replace any secondary of the same label.
  // The score is the pooled percentile, rawData the percentile of each iteration, as JMH.
  if (samples_pool.n() > 0) {
    const double nanos_per_unit = nanos_per(run.params.time_unit);
    for (const auto& derived : derived_percentiles(samples_pool, out.primary.unit)) {
      std::erase_if(out.secondaries, [&](const AggregatedMetric& m) { return m.label == derived.label; });
      AggregatedMetric m = single_value_metric(derived);
      double percentile = 0;
      for (const auto& d : kDerivedPercentiles)
        if (d.label == derived.label) percentile = d.percentile;
      m.raw_by_fork.clear();
      for (const ForkResult* fork : forks) {
        auto& row = m.raw_by_fork.emplace_back();
        for (const auto& it : fork->measurement)
          if (it.samples && it.samples->total_count() > 0)
            row.push_back(HistogramStatistics(*it.samples, nanos_per_unit).percentile(percentile));
      }
      out.secondaries.push_back(std::move(m));
    }
  }
  std::sort(out.secondaries.begin(), out.secondaries.end(),
            [](const AggregatedMetric& a, const AggregatedMetric& b) { return a.label < b.label; });
  out.cpu_time = aggregate_cpu_time(forks);
  out.total_time = aggregate_total_time(run.params, forks);
  out.disturbance = summarise_disturbance(forks);
  out.fork_interval = fork_interval(out.primary.raw_by_fork);
  out.median = median_of(out.primary.raw_by_fork);
  out.subwindow = subwindow_median(run.params, forks);
  out.robust = robust_estimate(run.params, forks, out.primary.raw_by_fork, out.disturbance);
  return out;
}

}  // namespace cmh::stats
