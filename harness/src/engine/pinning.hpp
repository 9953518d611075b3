// SPDX-License-Identifier: MIT
// -pin: where a trial's worker threads run. "cpus" gives each worker its own
// logical CPU, "cores" its own physical core (its first SMT sibling, the others
// left idle), a list names the CPUs. Only CPUs of the process's affinity mask are
// used (a container's cpuset, taskset, --cpunodebind); on hybrid CPUs performance
// cores come first, and isolated CPUs before the others. The control thread goes
// to the CPUs the workers leave, where there are any.
#pragma once

#include <cmh/result.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <cmh/machine/topology.hpp>

namespace cmh::engine {

/// Why `spec` is not a -pin value (none, cpus, cores, or a CPU list such as
/// 0,2-3), or nullopt when it is one.
std::optional<std::string> pin_spec_problem(std::string_view spec);

/// True for every -pin value but "none" (and the empty default).
bool pins_workers(std::string_view spec);

struct PinPlan {
  std::vector<int> worker_cpus;   ///< by thread index
  std::vector<int> control_cpus;  ///< where the control thread goes; empty: where it is
  Pinning record;                 ///< what the result says (cmh.pinning)
};

struct PinOutcome {
  std::optional<PinPlan> plan;
  std::string error;  ///< one line when there is no plan, e.g. "-pin cores: 4 worker threads, ..."
};

/// Places `workers` threads on the CPUs of `allowed` (the affinity mask) described
/// by `topology`. CPUs missing from the topology count as cores of their own.
PinOutcome plan_pinning(std::string_view spec, int workers, const machine::Topology& topology,
                        const std::vector<int>& allowed);

/// `allowed` without the CPUs `pinning` gave the workers; `allowed` itself when that
/// leaves none. Where the host waits while a pinned fork runs.
std::vector<int> cpus_besides_workers(const Pinning& pinning, const std::vector<int>& allowed);

/// "thread 0 on CPU 1 (core 1, node 0), ...; control thread on 0" and the notes, for the report.
std::string pinning_summary(const Pinning& pinning);

/// Moves every thread the process has now (the calling one, the output flusher, the
/// allocator's purge thread, threads the benchmark started) to `cpus` for the scope's
/// lifetime, then each that still exists back to the affinity it had. A thread
/// started later inherits the mask of the thread that starts it: move_others()
/// moves those too.
class ProcessAffinityScope {
 public:
  explicit ProcessAffinityScope(const std::vector<int>& cpus);
  ~ProcessAffinityScope();
  ProcessAffinityScope(const ProcessAffinityScope&) = delete;
  ProcessAffinityScope& operator=(const ProcessAffinityScope&) = delete;

  /// Moves the threads started since, except those in `keep` (the pinned workers).
  void move_others(const std::vector<int>& keep);

 private:
  std::vector<int> cpus_;
  std::vector<std::pair<int, std::vector<int>>> previous_;  ///< thread id, its mask before
};

}  // namespace cmh::engine
