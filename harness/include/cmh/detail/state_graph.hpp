// SPDX-License-Identifier: MIT
// Compile-time view of a benchmark's states: which argument types are
// injectable, the closure of states a body needs (dependencies first, each type
// once, cycles rejected), how an argument is found for a worker, and how
// fixtures are called with their injected arguments.
#pragma once

#include <cmh/aux_counters.hpp>
#include <cmh/blackhole.hpp>
#include <cmh/control.hpp>
#include <cmh/detail/loop_interface.hpp>
#include <cmh/detail/type_list.hpp>
#include <cmh/state.hpp>

#include <tuple>
#include <type_traits>
#include <utility>

namespace cmh::detail {

template <class P>
using Bare = std::remove_cvref_t<P>;

// ---- Fixtures: member functions with fixed names, detected by address ----

enum class Fixture {
  setup_trial,
  setup_iteration,
  setup_invocation,
  teardown_invocation,
  teardown_iteration,
  teardown_trial
};

template <class T, Fixture F>
struct FixtureOf {
  static constexpr bool present = false;
  using args = TypeList<>;
};
#define CMH_DETAIL_FIXTURE_OF(fname)                                   \
  template <class T>                                                   \
    requires requires { &T::fname; }                                   \
  struct FixtureOf<T, Fixture::fname> {                                \
    static constexpr bool present = true;                              \
    static constexpr auto pointer = &T::fname;                         \
    using args = typename Signature<decltype(&T::fname)>::args;        \
  };
CMH_DETAIL_FIXTURE_OF(setup_trial)
CMH_DETAIL_FIXTURE_OF(setup_iteration)
CMH_DETAIL_FIXTURE_OF(setup_invocation)
CMH_DETAIL_FIXTURE_OF(teardown_invocation)
CMH_DETAIL_FIXTURE_OF(teardown_iteration)
CMH_DETAIL_FIXTURE_OF(teardown_trial)
#undef CMH_DETAIL_FIXTURE_OF

template <class T>
inline constexpr bool kHasInvocationFixtures =
    FixtureOf<T, Fixture::setup_invocation>::present ||
    FixtureOf<T, Fixture::teardown_invocation>::present;

// ---- Injectable argument types ----

template <class P>
constexpr bool check_injectable() {
  using D = Bare<P>;
  constexpr bool infra_params = std::is_same_v<D, BenchmarkParams> ||
                                std::is_same_v<D, IterationParams> || std::is_same_v<D, ThreadParams>;
  static_assert(std::is_lvalue_reference_v<P>,
                "cmh: take benchmark and fixture arguments by reference (cmh::Blackhole&, "
                "const cmh::BenchmarkParams&, MyState&, ...)");
  static_assert(std::is_same_v<D, Blackhole> || std::is_same_v<D, Control> || infra_params ||
                    StateType<D>,
                "cmh: an argument must be cmh::Blackhole&, cmh::Control&, const cmh::BenchmarkParams&, "
                "const cmh::IterationParams&, const cmh::ThreadParams& or a state (a class deriving "
                "from cmh::ThreadState, cmh::GroupState or cmh::BenchmarkState)");
  static_assert(!infra_params || std::is_const_v<std::remove_reference_t<P>>,
                "cmh: BenchmarkParams, IterationParams and ThreadParams are read-only: take them "
                "as const&");
  return true;
}

/// The state types among an argument list, each once, in order.
template <class Args, class Acc = TypeList<>>
struct StatesIn {
  using type = Acc;
};
template <class P, class... Rest, class Acc>
struct StatesIn<TypeList<P, Rest...>, Acc> {
  static_assert(check_injectable<P>());
  using next = std::conditional_t<StateType<Bare<P>>, typename PushUnique<Acc, Bare<P>>::type, Acc>;
  using type = typename StatesIn<TypeList<Rest...>, next>::type;
};

template <class A, class B>
struct Concat;
template <class... A, class... B>
struct Concat<TypeList<A...>, TypeList<B...>> {
  using type = TypeList<A..., B...>;
};

/// The states a state's fixtures take (its direct dependencies).
template <class T>
struct StateDeps {
  using all_args = typename Concat<
      typename Concat<typename Concat<typename FixtureOf<T, Fixture::setup_trial>::args,
                                      typename FixtureOf<T, Fixture::setup_iteration>::args>::type,
                      typename Concat<typename FixtureOf<T, Fixture::setup_invocation>::args,
                                      typename FixtureOf<T, Fixture::teardown_invocation>::args>::type>::type,
      typename Concat<typename FixtureOf<T, Fixture::teardown_iteration>::args,
                      typename FixtureOf<T, Fixture::teardown_trial>::args>::type>::type;
  using type = typename StatesIn<all_args>::type;
};

template <class T, class Deps>
struct CheckScopes;
template <class T, class... D>
struct CheckScopes<T, TypeList<D...>> {
  static_assert(((scope_rank(D::cmh_scope) >= scope_rank(T::cmh_scope)) && ...),
                "cmh: a state may depend only on states of the same or a wider scope "
                "(thread -> group -> benchmark)");
  static_assert(!(std::is_same_v<T, D> || ...), "cmh: a state's fixture cannot take the state itself");
  static constexpr bool value = true;
};

template <class T>
constexpr bool check_state() {
  static_assert(std::is_default_constructible_v<T>, "cmh: a state must be default-constructible");
  static_assert(!HasAuxCounters<T> || T::cmh_scope == Scope::thread,
                "cmh: aux counters belong in a thread-scoped state (cmh::ThreadState), as in JMH");
  return CheckScopes<T, typename StateDeps<T>::type>::value;
}

// ---- The closure: depth-first, post-order (dependencies first) ----

template <class Roots, class Visited, class Stack>
struct VisitAll;
template <class T, class Visited, class Stack, bool Skip>
struct VisitBody {
  using type = Visited;
};
template <class T, class Visited, class Stack>
struct Visit {
  static_assert(!kContains<Stack, T>, "cmh: the dependencies between states form a cycle");
  static_assert(check_state<T>());
  using type = typename VisitBody<T, Visited, Stack, kContains<Visited, T> || kContains<Stack, T>>::type;
};
template <class T, class Visited, class Stack>
struct VisitBody<T, Visited, Stack, false> {
  using after = typename VisitAll<typename StateDeps<T>::type, Visited,
                                  typename PushUnique<Stack, T>::type>::type;
  using type = typename PushUnique<after, T>::type;
};
template <class Visited, class Stack>
struct VisitAll<TypeList<>, Visited, Stack> {
  using type = Visited;
};
template <class R, class... Rs, class Visited, class Stack>
struct VisitAll<TypeList<R, Rs...>, Visited, Stack> {
  using type = typename VisitAll<TypeList<Rs...>, typename Visit<R, Visited, Stack>::type, Stack>::type;
};

template <class Roots>
using Closure = typename VisitAll<Roots, TypeList<>, TypeList<>>::type;

// ---- Finding an argument for a worker ----

template <class Closure, class P>
[[gnu::always_inline]] inline auto* resolve(const WorkerView& v) {
  using D = Bare<P>;
  if constexpr (std::is_same_v<D, Blackhole>) return v.blackhole;
  else if constexpr (std::is_same_v<D, Control>) return v.control;
  else if constexpr (std::is_same_v<D, BenchmarkParams>) return v.benchmark;
  else if constexpr (std::is_same_v<D, IterationParams>) return v.iteration;
  else if constexpr (std::is_same_v<D, ThreadParams>) return v.thread;
  else return static_cast<D*>(v.instances[kIndexOf<Closure, D>]);
}

template <class Closure, class S, Fixture F>
[[gnu::always_inline]] inline void call_fixture(S& self, const WorkerView& v) {
  using Of = FixtureOf<S, F>;
  [&]<class... A>(TypeList<A...>) { (self.*Of::pointer)(*resolve<Closure, A>(v)...); }(typename Of::args{});
}

template <class Closure, class S, Fixture F>
void fixture_thunk(void* self, const WorkerView& v) {
  call_fixture<Closure, S, F>(*static_cast<S*>(self), v);
}

template <class Closure, Fixture F, std::size_t K>
[[gnu::always_inline]] inline void invocation_fixture_at(const WorkerView& v) {
  using S = typename TypeAt<K, Closure>::type;
  if constexpr (FixtureOf<S, F>::present) {
    S& self = *static_cast<S*>(v.instances[K]);
    if constexpr (S::cmh_scope == Scope::thread) {
      call_fixture<Closure, S, F>(self, v);
    } else {
      StateLockGuard hold(v.locks[K]);
      call_fixture<Closure, S, F>(self, v);
    }
  }
}

/// Runs fixture F of every state in the closure that has one: setups in
/// dependency order, teardowns in reverse. Shared states are locked, because
/// every thread runs invocation fixtures around its own calls.
template <class Closure, Fixture F>
[[gnu::always_inline]] inline void run_invocation_fixtures(const WorkerView& v) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    if constexpr (F == Fixture::teardown_invocation) {
      (invocation_fixture_at<Closure, F, Closure::size - 1 - I>(v), ...);
    } else {
      (invocation_fixture_at<Closure, F, I>(v), ...);
    }
  }(std::make_index_sequence<Closure::size>{});
}

}  // namespace cmh::detail
