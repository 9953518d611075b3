// SPDX-License-Identifier: MIT
// Synthetic benchmark runs with a known undisturbed cost, for the robust estimate's
// tests: forks with their own offsets, iterations with theirs, sub-windows with noise,
// and injected descheduling bursts of a chosen length. Nothing here reads a clock: the
// numbers are drawn from a seeded generator written here (splitmix64 and Box-Muller), so
// every library and machine draws the same runs.
#pragma once

#include <cmh/detail/subwindow_log.hpp>

#include "stats/robust_interval.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

namespace synthetic {

class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  double normal() {
    const double u1 = 1.0 - uniform(), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

 private:
  std::uint64_t state_;
};

/// How one synthetic run is made. Shares are relative to the undisturbed cost `truth`.
struct Model {
  /// ns per call, undisturbed, over all forks: the mean a quiet machine gives, its
  /// unflagged slow windows included (a quiet machine has interrupts too).
  double truth = 100;
  double fork_sd = 0.01;       ///< each fork's offset (process, memory layout)
  double iteration_sd = 0.005; ///< each iteration's offset (the machine's state then)
  double window_sd = 0.02;     ///< each sub-window's own noise
  int forks = 3;
  int iterations = 5;
  int windows = 200;           ///< per iteration
  double calls = 300;          ///< calls per window
  /// Descheduling: a window holds a burst with this probability; the burst adds
  /// burst_windows window-lengths of wall time to it (any length lands in one window:
  /// windows are counted in calls) and the thread is seen switched out in it.
  double burst_probability = 0;
  double burst_windows = 1;
  /// The window after a burst refills the caches: this share slower, and not flagged.
  double refill_penalty = 0;
  /// The quiet machine's own unflagged slow windows (a timer tick, a hypervisor exit):
  /// probability, share. Part of the truth.
  double silent_probability = 0;
  double silent_penalty = 0;
  /// Under load: the share of those slow windows in which the thread is also switched
  /// out (the tick preempts it), so they are rejected with their stall.
  double silent_switch_probability = 0;
  /// Under load: more unflagged slow windows of the same penalty (other CPUs' work, a
  /// sibling's cache traffic), not part of the truth.
  double neighbour_probability = 0;
  bool evidence = true;        ///< the probe sees the bursts (false: no window is rejected)
  /// The time a switched-out window waited for a CPU is known (schedstat): the window is
  /// kept without it, as the worker does, and only the window after it is rejected.
  bool wait_known = false;
  /// A window's cost before its own noise: `truth` less the silent slow windows' share.
  double base() const { return truth / (1 + silent_probability * silent_penalty); }
};

/// One iteration's windows through the recording code of -subwin's loop (SubwindowLog).
struct IterationWindows {
  std::vector<double> buffer;
  cmh::detail::SubwindowLog log;
  /// As the worker computes it: the mean of the clean windows.
  double clean_mean() const {
    if (log.clean < cmh::detail::kMinCleanSubwindows) return std::nan("");
    return cmh::stats::mean_of(buffer.data(), buffer.data() + log.clean);
  }
  /// And their median.
  double clean_median() const {
    if (log.clean < cmh::detail::kMinCleanSubwindows) return std::nan("");
    std::vector<double> clean(buffer.begin(), buffer.begin() + log.clean);
    return cmh::stats::median_in_place(clean.data(), clean.data() + clean.size());
  }
  double all_median() {
    std::vector<double> all(buffer.begin(), buffer.begin() + log.clean);
    all.insert(all.end(), buffer.end() - log.rejected, buffer.end());
    return cmh::stats::median_in_place(all.data(), all.data() + all.size());
  }
};

inline IterationWindows iteration(const Model& m, double centre, Random& rng) {
  IterationWindows it;
  it.buffer.assign(static_cast<std::size_t>(m.windows), 0.0);
  it.log.buffer = it.buffer.data();
  it.log.capacity = static_cast<std::uint32_t>(it.buffer.size());
  bool after_burst = false;
  for (int w = 0; w < m.windows; ++w) {
    double per_call = centre * (1 + m.window_sd * rng.normal());
    const bool burst = rng.uniform() < m.burst_probability;
    if (after_burst) per_call *= 1 + m.refill_penalty;
    const bool silent = rng.uniform() < m.silent_probability;
    // (A draw only where a probability is set: the other tests' series stay as they were.)
    const bool switched_by_tick = silent && m.silent_switch_probability > 0 && rng.uniform() < m.silent_switch_probability;
    const bool neighbour = !silent && m.neighbour_probability > 0 && rng.uniform() < m.neighbour_probability;
    if (silent || neighbour) per_call *= 1 + m.silent_penalty;
    const bool switched = m.evidence && (burst || switched_by_tick);
    // burst_windows window-lengths, spread over the calls; the wait the worker takes out.
    if (burst && !(switched && m.wait_known)) per_call += m.burst_windows * centre;
    after_burst = burst || switched_by_tick;
    it.log.add(per_call, switched, switched && m.wait_known);
  }
  return it;
}

/// Per fork, per iteration: the clean sub-windows' mean (`clean`) and median
/// (`clean_median`), or the median of all windows (`all`), as the worker computes them.
struct Run {
  std::vector<std::vector<double>> clean;
  std::vector<std::vector<double>> clean_median;
  std::vector<std::vector<double>> all;
  std::int64_t windows = 0, rejected = 0;
};

inline Run run(const Model& m, Random& rng) {
  Run r;
  for (int f = 0; f < m.forks; ++f) {
    const double fork_centre = m.base() * (1 + m.fork_sd * rng.normal());
    auto& clean = r.clean.emplace_back();
    auto& clean_median = r.clean_median.emplace_back();
    auto& all = r.all.emplace_back();
    for (int i = 0; i < m.iterations; ++i) {
      IterationWindows it = iteration(m, fork_centre * (1 + m.iteration_sd * rng.normal()), rng);
      r.windows += it.log.clean + it.log.rejected;
      r.rejected += it.log.rejected;
      const double c = it.clean_mean();
      if (!std::isnan(c)) {
        clean.push_back(c);
        clean_median.push_back(it.clean_median());
      }
      all.push_back(it.all_median());
    }
  }
  return r;
}

}  // namespace synthetic
