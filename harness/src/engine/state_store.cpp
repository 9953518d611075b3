// SPDX-License-Identifier: MIT
// StateStore: building the instance table of a trial and running its steps on
// the owning worker threads.
#include "engine/state_store.hpp"

#include <algorithm>

#include "engine/failure.hpp"

namespace cmh::engine {
namespace {

bool forward(StateStep s) {
  return s == StateStep::create || s == StateStep::setup_trial || s == StateStep::setup_iteration;
}

}  // namespace

StateStore::StateStore(const detail::BenchmarkCode& code, const std::vector<int>& member_of,
                       const ThreadLayout& layout, WorkerPool& pool, std::vector<detail::WorkerView*> views,
                       const detail::ParamValues& params)
    : params_(params), pool_(pool), views_(std::move(views)) {
  const std::vector<StateType> types = state_types(code);
  const SharedIndex shared_index = create_shared_instances(code, member_of, layout, types);
  create_own_instances(code, member_of);
  map_closures(code, member_of, layout, types, shared_index);
  failures_.resize(member_of.size());
}

// Every state type of every member, once; this order is a valid dependency
// order because each member's closure is (dependencies are a property of the type).
std::vector<StateStore::StateType> StateStore::state_types(const detail::BenchmarkCode& code) {
  const int members = static_cast<int>(code.members.size());
  std::vector<StateType> types;
  for (int m = 0; m < members; ++m) {
    const auto& states = code.members[m].states;
    for (int i = 0; i < static_cast<int>(states.size()); ++i) {
      auto it = std::find_if(types.begin(), types.end(),
                             [&](const StateType& g) { return *g.type == *states[i].type; });
      if (it == types.end()) {
        types.push_back({states[i].type, states[i].scope, std::vector<int>(members, -1)});
        it = types.end() - 1;
      }
      it->local[m] = i;
    }
  }
  return types;
}

// Benchmark scope first, then group scope; each instance owned by the first worker that uses it.
StateStore::SharedIndex StateStore::create_shared_instances(const detail::BenchmarkCode& code,
                                                            const std::vector<int>& member_of,
                                                            const ThreadLayout& layout,
                                                            const std::vector<StateType>& types) {
  const int workers = static_cast<int>(member_of.size());
  // The first worker of [from, to) whose member uses `type`, or -1.
  auto first_user = [&](const StateType& type, int from, int to) {
    for (int w = from; w < to; ++w)
      if (type.local[member_of[w]] >= 0) return w;
    return -1;
  };
  auto add = [&](const StateType& type, int owner) {
    Instance inst;
    inst.owner = owner;
    inst.ops = &code.members[member_of[owner]].states[type.local[member_of[owner]]];
    inst.lock = std::make_unique<detail::StateLock>();
    shared_.push_back(std::move(inst));
    return static_cast<int>(shared_.size()) - 1;
  };
  SharedIndex index(types.size(), std::vector<int>(layout.group_count, -1));
  for (std::size_t k = 0; k < types.size(); ++k) {
    if (types[k].scope != Scope::benchmark) continue;
    if (const int owner = first_user(types[k], 0, workers); owner >= 0)
      std::fill(index[k].begin(), index[k].end(), add(types[k], owner));
  }
  for (std::size_t k = 0; k < types.size(); ++k) {
    if (types[k].scope != Scope::group) continue;
    for (int g = 0; g < layout.group_count; ++g) {
      const int end = std::min((g + 1) * layout.group_size, workers);
      if (const int owner = first_user(types[k], g * layout.group_size, end); owner >= 0)
        index[k][g] = add(types[k], owner);
    }
  }
  return index;
}

void StateStore::create_own_instances(const detail::BenchmarkCode& code, const std::vector<int>& member_of) {
  own_.resize(member_of.size());
  for (std::size_t w = 0; w < member_of.size(); ++w) {
    for (const auto& ops : code.members[member_of[w]].states) {
      if (ops.scope != Scope::thread) continue;
      Instance inst;
      inst.owner = static_cast<int>(w);
      inst.ops = &ops;
      own_[w].push_back(std::move(inst));
    }
  }
}

// Once the instance vectors are final (where_ points into them).
void StateStore::map_closures(const detail::BenchmarkCode& code, const std::vector<int>& member_of,
                              const ThreadLayout& layout, const std::vector<StateType>& types,
                              const SharedIndex& shared_index) {
  const std::size_t workers = member_of.size();
  where_.resize(workers);
  tables_.resize(workers);
  locks_.resize(workers);
  for (std::size_t w = 0; w < workers; ++w) {
    const auto& states = code.members[member_of[w]].states;
    std::size_t next_own = 0;
    for (const auto& ops : states) {
      if (ops.scope == Scope::thread) {
        where_[w].push_back(&own_[w][next_own++]);
        continue;
      }
      auto it = std::find_if(types.begin(), types.end(), [&](const StateType& g) { return *g.type == *ops.type; });
      const int group = layout.threads[w].group_index;
      where_[w].push_back(&shared_[shared_index[it - types.begin()][group]]);
    }
    tables_[w].assign(states.size(), nullptr);
    locks_[w].assign(states.size(), nullptr);
  }
}

void StateStore::refresh_tables() {
  for (std::size_t w = 0; w < where_.size(); ++w) {
    for (std::size_t i = 0; i < where_[w].size(); ++i) {
      tables_[w][i] = where_[w][i]->object;
      locks_[w][i] = where_[w][i]->lock.get();
    }
  }
}

bool StateStore::runs_user_code(StateStep step, const Instance& inst) {
  const detail::StateOps& ops = *inst.ops;
  switch (step) {
    case StateStep::create: return inst.object == nullptr;
    case StateStep::setup_trial: return ops.setup_trial != nullptr;
    case StateStep::setup_iteration: return ops.setup_iteration != nullptr;
    case StateStep::teardown_iteration: return ops.teardown_iteration != nullptr;
    case StateStep::teardown_trial: return ops.teardown_trial != nullptr;
    case StateStep::destroy: return inst.object != nullptr;
  }
  return true;
}

bool StateStore::apply(StateStep step, Instance& inst, int worker) {
  const detail::StateOps& ops = *inst.ops;
  const detail::WorkerView& view = *views_[worker];
  try {
    switch (step) {
      case StateStep::create:
        if (inst.object == nullptr) inst.object = ops.create(params_);
        break;
      case StateStep::setup_trial:
        if (inst.object == nullptr || inst.trial_ready) break;
        if (ops.setup_trial) ops.setup_trial(inst.object, view);
        inst.trial_ready = true;
        break;
      case StateStep::setup_iteration:
        if (!inst.trial_ready || inst.iteration_ready) break;
        if (ops.setup_iteration) ops.setup_iteration(inst.object, view);
        inst.iteration_ready = true;
        break;
      case StateStep::teardown_iteration:
        if (!inst.iteration_ready) break;
        inst.iteration_ready = false;
        if (ops.teardown_iteration) ops.teardown_iteration(inst.object, view);
        break;
      case StateStep::teardown_trial:
        if (!inst.trial_ready) break;
        inst.trial_ready = false;
        if (ops.teardown_trial) ops.teardown_trial(inst.object, view);
        break;
      case StateStep::destroy:
        if (inst.object == nullptr) break;
        ops.destroy(inst.object);
        inst.object = nullptr;
        break;
    }
  } catch (...) {
    if (!failures_[worker]) failures_[worker] = failure_from_current_exception();
    return false;
  }
  return true;
}

void StateStore::run_job(void* context, int worker) {
  auto& job = *static_cast<StepJob*>(context);
  StateStore& store = *job.store;
  if (job.target != nullptr) {
    store.apply(job.step, *job.target, worker);
    return;
  }
  auto& own = store.own_[worker];
  auto visit = [&](Instance& inst) { return store.apply(job.step, inst, worker) || !store.stop_on_failure_; };
  if (forward(job.step)) {
    for (auto it = own.begin(); it != own.end(); ++it)
      if (!visit(*it)) return;
  } else {
    for (auto it = own.rbegin(); it != own.rend(); ++it)
      if (!visit(*it)) return;
  }
}

std::optional<Failure> StateStore::run(StateStep step) {
  stop_on_failure_ = forward(step);
  for (auto& f : failures_) f.reset();
  std::optional<Failure> first;
  auto collect = [&] {
    for (auto& f : failures_) {
      if (f && !first) first = std::move(f);
      f.reset();
    }
    return first.has_value();
  };
  auto run_shared = [&](Instance& inst) {
    if (!runs_user_code(step, inst)) {
      apply(step, inst, inst.owner);  // only flips readiness flags: no need to wake the owner
      return true;
    }
    job_ = {this, step, &inst};
    pool_.post(inst.owner, Job{&run_job, &job_});
    pool_.wait();
    return !collect() || !stop_on_failure_;
  };
  auto run_own = [&] {
    bool any = false;
    for (auto& own : own_)
      for (auto& inst : own) any = any || runs_user_code(step, inst);
    if (!any) {
      for (std::size_t w = 0; w < own_.size(); ++w)
        for (auto& inst : own_[w]) apply(step, inst, static_cast<int>(w));
      return true;
    }
    job_ = {this, step, nullptr};
    pool_.post_all(Job{&run_job, &job_});
    pool_.wait();
    return !collect() || !stop_on_failure_;
  };

  if (forward(step)) {
    bool ok = true;
    for (auto& inst : shared_)
      if (ok) ok = run_shared(inst);
    if (ok) run_own();
  } else {
    run_own();
    for (auto it = shared_.rbegin(); it != shared_.rend(); ++it) run_shared(*it);
  }
  if (step == StateStep::create || step == StateStep::destroy) refresh_tables();
  return first;
}

}  // namespace cmh::engine
