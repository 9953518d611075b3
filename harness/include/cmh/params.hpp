// SPDX-License-Identifier: MIT
// Fully resolved run parameters: JMH's BenchmarkParams, IterationParams and ThreadParams.
//
// The host resolves an OptionSet (command line > benchmark > group > defaults) into
// one BenchmarkParams per benchmark x mode x parameter point. That object is the
// plan a worker runs: it crosses the fork channel unchanged, it is what profilers
// see, and benchmarks may take `const cmh::BenchmarkParams&` as an argument.
#pragma once

#include <cmh/options.hpp>
#include <cmh/thread_params.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cmh {

enum class IterationKind { warmup, measurement };

/// BenchmarkParams::subwindow for "-subwin auto".
inline constexpr Nanos kSubwindowAuto{-1};

struct IterationParams {
  IterationKind kind = IterationKind::measurement;
  int count = 0;      ///< number of iterations of this kind
  Nanos time{0};      ///< minimum time per iteration (ignored in single-shot mode)
  int batch_size = 1; ///< calls per op
};

struct BenchmarkParams {
  std::string benchmark;  ///< "Group.name", the full name JMH would print
  std::string group;      ///< "Group"
  std::string name;       ///< "name" (for @Group benchmarks: the group tag)
  BenchmarkMode mode = BenchmarkMode::throughput;
  TimeUnit time_unit = TimeUnit::s;
  IterationParams warmup{IterationKind::warmup, 3, std::chrono::seconds(1), 1};
  IterationParams measurement{IterationKind::measurement, 5, std::chrono::seconds(1), 1};
  int threads = 1;                         ///< total worker threads
  std::vector<int> thread_groups;          ///< threads per member, one entry per group member
  std::vector<std::string> group_members;  ///< member names for @Group benchmarks, else empty
  int ops_per_invocation = 1;
  Nanos timeout = std::chrono::minutes(10);
  bool sync_iterations = true;
  bool gc_between_iterations = false;
  int forks = 3;
  int warmup_forks = 0;
  /// -subwin: the target length of the sub-windows whose median is the sub-window score
  /// (time modes without invocation fixtures); 0: off, the plain timed loop;
  /// kSubwindowAuto: chosen by each fork from what a window costs there.
  Nanos subwindow{0};
  std::vector<std::string> fork_args;  ///< effective: prepend + (replace | inherited) + append
  /// Parameter values of this point, sorted by name.
  std::vector<std::pair<std::string, std::string>> params;
  /// Profiler specs as given to -prof ("alloc", "alloc:threads=live").
  std::vector<std::string> profilers;
  /// -prec: target 99.9 % error as a share of the score (0.02 for 2 %); 0 when off. With
  /// it, each fork keeps adding measurement iterations after `measurement.count`.
  double precision = 0;
  /// -prec: the time one fork (or the -f 0 trial) may take, its share of -maxTime.
  Nanos precision_budget{0};
  /// -pin: "none", "cpus", "cores" or a CPU list ("0,2-3"): where the workers run.
  std::string pin = "none";
  /// -prec X:robust: the target is the robust estimate's interval (stats/robust_estimate.hpp),
  /// and within a fork its iterations' clean sub-window means.
  bool precision_robust = false;

  /// The value of parameter `name`, or an empty string if there is none.
  std::string_view param(std::string_view key) const {
    for (const auto& [k, v] : params)
      if (k == key) return v;
    return {};
  }
};

}  // namespace cmh
