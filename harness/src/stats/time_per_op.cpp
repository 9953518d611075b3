// SPDX-License-Identifier: MIT
// cpu.time.norm and total.time.norm, per iteration and pooled like the primary.
#include "stats/nan.hpp"
#include "stats/time_per_op.hpp"

#include "stats/list_statistics.hpp"

#include <cmath>
#include <limits>
#include <string>

namespace cmh::stats {
namespace {


template <class PerIteration>
std::optional<AggregatedMetric> pooled(std::string label, std::string unit, const std::vector<const ForkResult*>& forks,
                                       PerIteration per_iteration) {
  AggregatedMetric m;
  m.label = std::move(label);
  m.unit = std::move(unit);
  m.policy = AggregationPolicy::average;
  ListStatistics values;
  for (const ForkResult* fork : forks) {
    auto& row = m.raw_by_fork.emplace_back();
    for (const auto& it : fork->measurement) {
      const double v = per_iteration(it);
      if (std::isnan(v)) return std::nullopt;
      row.push_back(v);
      values.add(v);
    }
  }
  if (values.n() == 0) return std::nullopt;
  summarise(values, m);
  return m;
}

}  // namespace

double cpu_time_per_op(const std::vector<ThreadMeasurement>& threads) {
  double cpu = 0;
  double ops = 0;
  for (const auto& t : threads) {
    if (t.cpu_ns < 0) return kNaN;  // a thread without a CPU reading: no honest sum
    cpu += static_cast<double>(t.cpu_ns);
    ops += static_cast<double>(t.measured_ops);
  }
  return threads.empty() || ops <= 0 ? kNaN : cpu / ops;
}

double total_time_per_op(TimeUnit unit, const std::vector<ThreadMeasurement>& threads) {
  double ops_per_ns = 0;
  for (const auto& t : threads)
    if (t.duration_ns > 0) ops_per_ns += static_cast<double>(t.measured_ops) / static_cast<double>(t.duration_ns);
  return ops_per_ns > 0 ? 1.0 / ops_per_ns / nanos_per(unit) : kNaN;
}

std::optional<AggregatedMetric> aggregate_cpu_time(const std::vector<const ForkResult*>& forks) {
  return pooled("cpu.time.norm", "ns/op", forks, [](const IterationResult& it) { return cpu_time_per_op(it.threads); });
}

std::optional<AggregatedMetric> aggregate_total_time(const BenchmarkParams& p,
                                                     const std::vector<const ForkResult*>& forks) {
  if (p.mode != BenchmarkMode::average_time || p.threads < 2) return std::nullopt;
  return pooled("total.time.norm", primary_unit(p.mode, p.time_unit), forks,
                [&](const IterationResult& it) { return total_time_per_op(p.time_unit, it.threads); });
}

std::string score_meaning(const BenchmarkParams& p) {
  const bool many = p.threads > 1;
  switch (p.mode) {
    case BenchmarkMode::throughput:
      return many ? "total throughput: ops of all threads per unit of time" : "ops per unit of time";
    case BenchmarkMode::average_time:
      return many ? "per-thread average time (JMH): each thread's window over its own ops, averaged over threads"
                  : "average wall time per op";
    case BenchmarkMode::sample_time: return "mean of the sampled per-op wall times, all threads pooled";
    case BenchmarkMode::single_shot: return many ? "per-thread time of one shot, averaged over threads"
                                                 : "wall time of one shot per op";
  }
  return {};
}

}  // namespace cmh::stats
