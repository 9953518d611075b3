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
#include <vector>

#include "machine/topology.hpp"

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

/// Moves the calling thread to `cpus` for the scope's lifetime, then back to the
/// affinity it had. A failure to move leaves it where it was.
class ThreadAffinityScope {
 public:
  explicit ThreadAffinityScope(const std::vector<int>& cpus);
  ~ThreadAffinityScope();
  ThreadAffinityScope(const ThreadAffinityScope&) = delete;
  ThreadAffinityScope& operator=(const ThreadAffinityScope&) = delete;

 private:
  std::vector<int> previous_;
  bool moved_ = false;
};

}  // namespace cmh::engine
