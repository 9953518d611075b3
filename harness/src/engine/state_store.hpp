// SPDX-License-Identifier: MIT
// The state instances of one trial and the steps that create, set up, tear down
// and destroy them. Every instance belongs to one worker thread, its owner,
// which runs all of its steps (so thread_locals and first-touch NUMA placement
// are the owner's): a thread-scoped state is owned by its thread, a shared one
// by the lowest-numbered thread that uses it. Steps run widest scope first
// (benchmark, group, thread) and in dependency order, teardowns in reverse, so
// a fixture always finds its dependencies ready.
#pragma once

#include <cmh/detail/benchmark_code.hpp>
#include <cmh/result.hpp>

#include <memory>
#include <mutex>
#include <optional>
#include <typeinfo>
#include <vector>

#include "engine/thread_layout.hpp"
#include "engine/worker_pool.hpp"

namespace cmh::engine {

enum class StateStep { create, setup_trial, setup_iteration, teardown_iteration, teardown_trial, destroy };

class StateStore {
 public:
  /// `views` are the workers' views (fixtures run with their owner's view);
  /// `member_of` gives each worker's member (index into code.members).
  StateStore(const detail::BenchmarkCode& code, const std::vector<int>& member_of,
             const ThreadLayout& layout, WorkerPool& pool, std::vector<detail::WorkerView*> views,
             const detail::ParamValues& params);
  StateStore(const StateStore&) = delete;
  StateStore& operator=(const StateStore&) = delete;

  /// Runs `step` on every instance that is ready for it. Creation and setups stop
  /// at the first failure; teardowns and destruction always visit every instance.
  /// Returns the first failure.
  std::optional<Failure> run(StateStep step);

  /// Worker `w`'s instances and locks, in its member's closure order (after create).
  void* const* instances(int w) const { return tables_[w].data(); }
  detail::StateLock* const* locks(int w) const { return locks_[w].data(); }

 private:
  struct Instance {
    const detail::StateOps* ops = nullptr;  // the owner member's operations for this type
    int owner = 0;
    void* object = nullptr;
    std::unique_ptr<detail::StateLock> lock;  // shared instances: serialises invocation fixtures
    bool trial_ready = false;
    bool iteration_ready = false;
  };
  struct StepJob {
    StateStore* store = nullptr;
    StateStep step = StateStep::create;
    Instance* target = nullptr;  // a shared instance; nullptr: each worker's own instances
  };

  /// One state type of the benchmark, over all its members.
  struct StateType {
    const std::type_info* type = nullptr;
    Scope scope = Scope::thread;
    std::vector<int> local;  // per member: index in its closure, or -1
  };
  /// Which shared instance serves (type, group): index into shared_, or -1.
  using SharedIndex = std::vector<std::vector<int>>;

  static std::vector<StateType> state_types(const detail::BenchmarkCode& code);
  SharedIndex create_shared_instances(const detail::BenchmarkCode& code, const std::vector<int>& member_of,
                                      const ThreadLayout& layout, const std::vector<StateType>& types);
  void create_own_instances(const detail::BenchmarkCode& code, const std::vector<int>& member_of);
  /// Each worker's closure slots to instances, and its (empty) tables.
  void map_closures(const detail::BenchmarkCode& code, const std::vector<int>& member_of, const ThreadLayout& layout,
                    const std::vector<StateType>& types, const SharedIndex& shared_index);
  static void run_job(void* context, int worker);
  /// Whether `step` on `instance` calls user code (and so must run on its owner).
  static bool runs_user_code(StateStep step, const Instance& instance);
  /// Runs `step` on one instance on the calling (owner) thread; false if it failed.
  bool apply(StateStep step, Instance& instance, int worker);
  void refresh_tables();

  const detail::ParamValues& params_;
  WorkerPool& pool_;
  std::vector<detail::WorkerView*> views_;
  std::vector<Instance> shared_;              // benchmark scope, then group scope; dependency order
  std::vector<std::vector<Instance>> own_;    // per worker: thread scope, dependency order
  std::vector<std::vector<Instance*>> where_; // per worker: closure slot -> instance
  std::vector<std::vector<void*>> tables_;
  std::vector<std::vector<detail::StateLock*>> locks_;
  std::vector<std::optional<Failure>> failures_;  // per worker, for the current step
  bool stop_on_failure_ = true;
  StepJob job_;
};

}  // namespace cmh::engine
