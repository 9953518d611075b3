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

namespace {
bool known(double share) { return !std::isnan(share) && share >= 0; }
}  // namespace

IterationDisturbance assess(const IterationResult& it) {
  IterationDisturbance d;
  d.cpu_wall = 1;
  const bool shares = known(it.host.others_share) && known(it.host.idle_share);
  if (shares) {
    d.others_share = it.host.others_share;
    d.idle_share = it.host.idle_share;
  }
  bool first = true;
  for (const auto& t : it.threads) {
    if (t.cpu_ns < 0 || t.involuntary_switches < 0 || t.voluntary_switches < 0 || t.window_ns <= 0)
      return IterationDisturbance{};
    const double ratio = static_cast<double>(t.cpu_ns) / static_cast<double>(t.window_ns);
    const std::int64_t bound = switch_bound(t.window_ns);
    // Blocking of its own accord: more voluntary switches than the bound and than involuntary ones.
    const bool blocks = t.voluntary_switches > bound && t.voluntary_switches > t.involuntary_switches;
    const std::int64_t runnable = t.cpu_ns + t.run_delay_ns;
    const bool wait_known = t.run_delay_ns >= 0 && runnable > 0;
    const double wait = wait_known ? static_cast<double>(t.run_delay_ns) / static_cast<double>(runnable) : -1;
    d.blocking = d.blocking || blocks;
    if (blocks) {
      // Judged by its CPUs; its own waits include hand-offs between its own threads.
      // Where the shares are unknown (a short iteration), its wait, then its switches, decide.
      if (shares)
        d.crowded = d.crowded || (d.idle_share < kMaxCrowdedIdle && d.others_share >= kMinOthersShare);
      else if (wait_known)
        d.waited = d.waited || wait > kMaxWaitShare;
      else if (t.involuntary_switches > bound)
        d.preempted = true;
    } else {
      if (wait_known)
        d.waited = d.waited || wait > kMaxWaitShare;
      else if (t.involuntary_switches > bound)
        d.preempted = true;
      if (t.window_ns >= kMinRatioWindowNs && ratio < kMinCpuWallRatio) d.off_cpu = true;
    }
    if (first || ratio < d.cpu_wall) {
      d.cpu_wall = ratio;
      d.cpu_ns = t.cpu_ns;
      d.window_ns = t.window_ns;
    }
    d.wait_share = std::max(d.wait_share, wait);
    d.involuntary = std::max(d.involuntary, t.involuntary_switches);
    d.voluntary = std::max(d.voluntary, t.voluntary_switches);
    first = false;
  }
  d.measured = !first;
  d.own_threads_only = d.measured && shares && d.others_share < kMinOthersShare;
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
      s.most_wait = std::max(s.most_wait, d.wait_share);
      s.most_others = std::max(s.most_others, d.others_share);
      // A blocking body's ratio says nothing about other work, nor does the ratio of a
      // body among its own threads only: they stay out of the mean.
      if (!d.blocking && !d.own_threads_only) {
        ratio_sum += d.cpu_wall;
        ++ratio_n;
      }
    }
  }
  s.mean_cpu_wall = ratio_n > 0 ? ratio_sum / ratio_n : 1.0;
  return s;
}

std::string rule_text() {
  const auto pct = [](double share) { return fmt::format("{:.0f} %", share * 100); };
  return fmt::format(
      "nothing is flagged when other processes used less than {0} of the process's allowed CPUs (own threads "
      "only); otherwise a measurement iteration is disturbed when a worker thread that does not block waited "
      "more than {1} of its runnable time for a CPU (or, where the wait is unknown, had more than max({2}, {3} "
      "per second of its window) involuntary context switches), or ran less than {4} of a window of at least "
      "1 ms; a body that blocks of its own accord is disturbed when its CPUs were crowded: less than {5} idle "
      "while other processes used at least {0} (where the shares are unknown, it is judged by its wait, else "
      "its switches)",
      pct(kMinOthersShare), pct(kMaxWaitShare), kMinSwitches, kMaxSwitchesPerSecond, pct(kMinCpuWallRatio),
      pct(kMaxCrowdedIdle));
}

std::string describe(const IterationDisturbance& d) {
  std::string text = fmt::format("CPU/wall {:.2f}", d.cpu_wall);
  if (d.wait_share >= 0) text += fmt::format(", waited {:.0f} % of its runnable time", d.wait_share * 100);
  if (d.others_share >= 0) text += fmt::format(", others used {:.0f} % of its CPUs", d.others_share * 100);
  return text + fmt::format(", {} involuntary context switch{}", d.involuntary, d.involuntary == 1 ? "" : "es");
}

std::string describe(const DisturbanceSummary& s) {
  std::string text = fmt::format("{} of {} measurement iteration{} disturbed (lowest CPU/wall {:.2f}, up to {} "
                                 "involuntary context switch{} in a thread's window",
                                 s.disturbed, s.measured, s.measured == 1 ? "" : "s", s.lowest_cpu_wall,
                                 s.most_involuntary, s.most_involuntary == 1 ? "" : "es");
  if (s.most_wait >= 0) text += fmt::format(", waited up to {:.0f} % of its runnable time", s.most_wait * 100);
  if (s.most_others >= 0) text += fmt::format(", others used up to {:.0f} % of its CPUs", s.most_others * 100);
  if (s.most_steal >= 0) text += fmt::format(", host steal up to {:.1f} %", s.most_steal * 100);
  if (s.most_load >= 0) text += fmt::format(", load average up to {:.2f}", s.most_load);
  return text + ")";
}

}  // namespace cmh::stats
