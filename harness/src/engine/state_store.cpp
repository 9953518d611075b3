// SPDX-License-Identifier: MIT
// StateStore: building the instance table of a trial and running its steps on
// the owning worker threads.
#include "engine/state_store.hpp"

#include <algorithm>

#include "engine/failure.hpp"

namespace cmh::engine {
namespace {

struct GlobalType {
  const std::type_info* type = nullptr;
  Scope scope = Scope::thread;
  std::vector<int> local;  // per member: index in its closure, or -1
};

bool forward(StateStep s) {
  return s == StateStep::create || s == StateStep::setup_trial || s == StateStep::setup_iteration;
}

}  // namespace

StateStore::StateStore(const detail::BenchmarkCode& code, const std::vector<int>& member_of,
                       const ThreadLayout& layout, WorkerPool& pool, std::vector<detail::WorkerView*> views,
                       const detail::ParamValues& params)
    : params_(params), pool_(pool), views_(std::move(views)) {
  const int members = static_cast<int>(code.members.size());
  const int workers = static_cast<int>(member_of.size());

  // Every state type of every member, once; this order is a valid dependency
  // order because each member's closure is (dependencies are a property of the type).
  std::vector<GlobalType> types;
  for (int m = 0; m < members; ++m) {
    const auto& states = code.members[m].states;
    for (int i = 0; i < static_cast<int>(states.size()); ++i) {
      auto it = std::find_if(types.begin(), types.end(),
                             [&](const GlobalType& g) { return *g.type == *states[i].type; });
      if (it == types.end()) {
        types.push_back({states[i].type, states[i].scope, std::vector<int>(members, -1)});
        it = types.end() - 1;
      }
      it->local[m] = i;
    }
  }

  auto uses = [&](int worker, const GlobalType& g) { return g.local[member_of[worker]] >= 0; };
  auto make_shared_instance = [&](const GlobalType& g, int owner) {
    Instance inst;
    inst.owner = owner;
    inst.ops = &code.members[member_of[owner]].states[g.local[member_of[owner]]];
    inst.lock = std::make_unique<detail::StateLock>();
    shared_.push_back(std::move(inst));
  };
  // Which shared instance serves (type, group): index into shared_, or -1.
  std::vector<std::vector<int>> shared_index(types.size(), std::vector<int>(layout.group_count, -1));
  for (int pass = 0; pass < 2; ++pass) {
    const Scope scope = pass == 0 ? Scope::benchmark : Scope::group;
    for (std::size_t k = 0; k < types.size(); ++k) {
      if (types[k].scope != scope) continue;
      if (scope == Scope::benchmark) {
        for (int w = 0; w < workers; ++w) {
          if (!uses(w, types[k])) continue;
          make_shared_instance(types[k], w);
          std::fill(shared_index[k].begin(), shared_index[k].end(), static_cast<int>(shared_.size()) - 1);
          break;
        }
      } else {
        for (int g = 0; g < layout.group_count; ++g) {
          for (int w = g * layout.group_size; w < (g + 1) * layout.group_size && w < workers; ++w) {
            if (!uses(w, types[k])) continue;
            make_shared_instance(types[k], w);
            shared_index[k][g] = static_cast<int>(shared_.size()) - 1;
            break;
          }
        }
      }
    }
  }

  own_.resize(workers);
  for (int w = 0; w < workers; ++w) {
    const auto& states = code.members[member_of[w]].states;
    for (const auto& ops : states) {
      if (ops.scope != Scope::thread) continue;
      Instance inst;
      inst.owner = w;
      inst.ops = &ops;
      own_[w].push_back(std::move(inst));
    }
  }

  // Now that the vectors are final, map each worker's closure slots to instances.
  where_.resize(workers);
  tables_.resize(workers);
  locks_.resize(workers);
  for (int w = 0; w < workers; ++w) {
    const int m = member_of[w];
    const auto& states = code.members[m].states;
    std::size_t next_own = 0;
    for (const auto& ops : states) {
      if (ops.scope == Scope::thread) {
        where_[w].push_back(&own_[w][next_own++]);
        continue;
      }
      auto it = std::find_if(types.begin(), types.end(), [&](const GlobalType& g) { return *g.type == *ops.type; });
      const int group = layout.threads[w].group_index;
      where_[w].push_back(&shared_[shared_index[it - types.begin()][group]]);
    }
    tables_[w].assign(states.size(), nullptr);
    locks_[w].assign(states.size(), nullptr);
  }
  failures_.resize(workers);
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
