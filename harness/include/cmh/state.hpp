// SPDX-License-Identifier: MIT
// States (JMH's @State): user classes injected into benchmarks by type. A state
// derives from one of the three scope bases below and may define fixtures
// (JMH's @Setup/@TearDown) as member functions with fixed names, one per level:
//
//   setup_trial / teardown_trial            around the whole trial (one fork's run)
//   setup_iteration / teardown_iteration    around every iteration, outside the profiled window
//   setup_invocation / teardown_invocation  around every call, excluded from the timing
//
// Fixtures may take, by reference, other states (the dependencies must form a
// DAG; a state may depend only on states of the same or a wider scope) and
// const cmh::BenchmarkParams&, const cmh::IterationParams&, const cmh::ThreadParams&,
// cmh::Blackhole& or cmh::Control&. Fixture time is never measured.
//
//   struct Buffer : cmh::ThreadState {
//     std::vector<int> data;
//     void setup_trial(const Sizes& s) { data.assign(s.size, 1); }
//   };
//
// A state must be default-constructible; the engine constructs it on the worker
// thread that owns it (so thread_locals and NUMA first touch are that thread's),
// 128-byte aligned and padded, so that states of different threads never share
// a cache line.
#pragma once

#include <concepts>
#include <type_traits>

namespace cmh {

/// Who shares one instance of a state (JMH's Scope).
enum class Scope {
  thread,     ///< one instance per worker thread
  group,      ///< one instance per thread group (@Group benchmarks; per thread otherwise)
  benchmark,  ///< one instance shared by every thread of the trial
};

/// Base of a state with one instance per worker thread.
struct ThreadState {
  static constexpr Scope cmh_scope = Scope::thread;
};
/// Base of a state with one instance per thread group.
struct GroupState {
  static constexpr Scope cmh_scope = Scope::group;
};
/// Base of a state with one instance shared by all threads.
struct BenchmarkState {
  static constexpr Scope cmh_scope = Scope::benchmark;
};

/// A class that derives from exactly one of the scope bases.
template <class T>
concept StateType = std::is_class_v<T> && requires {
  { T::cmh_scope } -> std::convertible_to<Scope>;
};

namespace detail {
/// Wider scopes rank higher; a state may depend only on states of equal or higher rank.
constexpr int scope_rank(Scope s) {
  return s == Scope::thread ? 0 : s == Scope::group ? 1 : 2;
}
}  // namespace detail

}  // namespace cmh
