// SPDX-License-Identifier: MIT
// assess() and summarise_disturbance(): see disturbance.hpp for the rule.
#include "stats/disturbance.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace cmh::stats {

std::int64_t switch_bound(std::int64_t window_ns) {
  const auto per_window = static_cast<std::int64_t>(kMaxSwitchesPerSecond * static_cast<double>(window_ns) / 1e9);
  return std::max(kMinSwitches, per_window);
}

IterationDisturbance assess(const IterationResult& it) {
  IterationDisturbance d;
  d.cpu_wall = 1;
  bool first = true;
  for (const auto& t : it.threads) {
    if (t.involuntary_switches < 0 || t.voluntary_switches < 0 || t.window_ns <= 0) return IterationDisturbance{};
    const double ratio = static_cast<double>(t.cpu_ns) / static_cast<double>(t.window_ns);
    const std::int64_t bound = switch_bound(t.window_ns);
    // Blocking of its own accord: more voluntary switches than the bound and than involuntary ones.
    const bool blocks = t.voluntary_switches > bound && t.voluntary_switches > t.involuntary_switches;
    d.blocking = d.blocking || blocks;
    if (t.involuntary_switches > bound) d.preempted = true;
    if (!blocks && t.window_ns >= kMinRatioWindowNs && ratio < kMinCpuWallRatio) d.off_cpu = true;
    d.cpu_wall = first ? ratio : std::min(d.cpu_wall, ratio);
    d.involuntary = std::max(d.involuntary, t.involuntary_switches);
    d.voluntary = std::max(d.voluntary, t.voluntary_switches);
    first = false;
  }
  d.measured = !first;
  return d;
}

bool DisturbanceSummary::likely_inflated() const {
  if (measured == 0 || disturbed == 0) return false;
  return disturbed * 5 >= measured || mean_cpu_wall < kMinCpuWallRatio;
}

DisturbanceSummary summarise_disturbance(const std::vector<const ForkResult*>& forks) {
  DisturbanceSummary s;
  double ratio_sum = 0;
  int ratio_n = 0;
  for (const ForkResult* fork : forks) {
    auto& row = s.by_fork.emplace_back();
    for (const auto& it : fork->measurement) {
      const IterationDisturbance d = assess(it);
      row.push_back(d);
      if (!std::isnan(it.host.steal_fraction)) s.most_steal = std::max(s.most_steal, it.host.steal_fraction);
      if (!std::isnan(it.host.load_average)) s.most_load = std::max(s.most_load, it.host.load_average);
      if (!d.measured) continue;
      ++s.measured;
      s.disturbed += d.disturbed() ? 1 : 0;
      s.lowest_cpu_wall = s.measured == 1 ? d.cpu_wall : std::min(s.lowest_cpu_wall, d.cpu_wall);
      s.most_involuntary = std::max(s.most_involuntary, d.involuntary);
      // A blocking body's ratio says nothing about other work: it stays out of the mean.
      if (!d.blocking) {
        ratio_sum += d.cpu_wall;
        ++ratio_n;
      }
    }
  }
  s.mean_cpu_wall = ratio_n > 0 ? ratio_sum / ratio_n : 1.0;
  return s;
}

std::string describe(const DisturbanceSummary& s) {
  std::string text = fmt::format("{} of {} measurement iteration{} disturbed (lowest CPU/wall {:.2f}, up to {} "
                                 "involuntary context switch{} in a thread's window",
                                 s.disturbed, s.measured, s.measured == 1 ? "" : "s", s.lowest_cpu_wall,
                                 s.most_involuntary, s.most_involuntary == 1 ? "" : "es");
  if (s.most_steal >= 0) text += fmt::format(", host steal up to {:.1f} %", s.most_steal * 100);
  if (s.most_load >= 0) text += fmt::format(", load average up to {:.2f}", s.most_load);
  return text + ")";
}

}  // namespace cmh::stats
