// SPDX-License-Identifier: MIT
// The type-erased operations of one state type in one benchmark's closure:
// creation in padded, 128-byte aligned storage with its parameters injected,
// destruction, and the trial- and iteration-level fixtures; gathered with the
// state's parameter and aux counter tables into a constant StateDescriptor.
// Only what depends on the state's type is here; lookups, messages and sorting
// are the library's (descriptors.hpp).
#pragma once

#include <cmh/aux_counters.hpp>
#include <cmh/detail/descriptors.hpp>
#include <cmh/detail/loop_interface.hpp>
#include <cmh/detail/state_graph.hpp>
#include <cmh/param.hpp>
#include <cmh/state.hpp>

#include <cstddef>
#include <new>
#include <string_view>
#include <tuple>
#include <typeinfo>
#include <utility>

namespace cmh::detail {

// ---- Creating and destroying states ----

inline constexpr std::size_t kStateAlign = 128;  // two cache lines: no false sharing, even with pair prefetch

template <class S>
constexpr std::size_t state_align() {
  return alignof(S) > kStateAlign ? alignof(S) : kStateAlign;
}
template <class S>
constexpr std::size_t state_bytes() {
  return (sizeof(S) + state_align<S>() - 1) / state_align<S>() * state_align<S>();
}

template <class M>
bool accepts_param(std::string_view text) {
  M value{};
  return parse_param(text, value);
}

// ---- The constant tables of one state ----

template <class S>
constexpr std::size_t param_count() {
  if constexpr (HasParams<S>) return std::tuple_size_v<std::remove_cvref_t<decltype(S::params.specs)>>;
  else return 0;
}

/// Parameter K of state S; its defaults point into S::params itself.
template <class S, std::size_t K>
constexpr ParamDescriptor describe_param() {
  constexpr auto& spec = std::get<K>(S::params.specs);
  using M = typename std::remove_cvref_t<decltype(spec)>::Member;
  constexpr std::size_t n = std::tuple_size_v<std::remove_cvref_t<decltype(spec.defaults)>>;
  const std::string_view* defaults = nullptr;
  if constexpr (n > 0) defaults = spec.defaults.data();
  return ParamDescriptor{spec.name, defaults, n, param_type_label<M>(), &typeid(M), &accepts_param<M>};
}

/// The parameter table of state S (one spare entry: never zero-sized).
template <class S, class K = std::make_index_sequence<param_count<S>()>>
struct ParamTable;
template <class S, std::size_t... K>
struct ParamTable<S, std::index_sequence<K...>> {
  static constexpr std::size_t size = sizeof...(K);
  static constexpr ParamDescriptor items[size + 1] = {describe_param<S, K>()..., {}};
};

template <class S, std::size_t K>
constexpr AuxDescriptor describe_aux() {
  constexpr auto& spec = std::get<K>(S::counters.specs);
  return AuxDescriptor{spec.name, spec.events};
}

/// The aux counter table of state S (one spare entry: never zero-sized).
template <class S, class K = std::make_index_sequence<aux_counter_count<S>()>>
struct AuxTable;
template <class S, std::size_t... K>
struct AuxTable<S, std::index_sequence<K...>> {
  static constexpr std::size_t size = sizeof...(K);
  static constexpr AuxDescriptor items[size + 1] = {describe_aux<S, K>()..., {}};
};

template <class S>
void destroy_state(void* p) noexcept {
  static_cast<S*>(p)->~S();
  ::operator delete(p, std::align_val_t{state_align<S>()});
}

template <class S, std::size_t K>
void inject_param(S& s, const ParamValues& values) {
  const ParamDescriptor& p = ParamTable<S>::items[K];
  const std::string_view text = param_text(values, p);
  if (!parse_param(text, s.*(std::get<K>(S::params.specs).member))) throw_bad_param_value(p, text);
}

template <class S>
void* create_state(const ParamValues& values) {
  void* mem = ::operator new(state_bytes<S>(), std::align_val_t{state_align<S>()});
  S* s = nullptr;
  try {
    s = ::new (mem) S();
  } catch (...) {
    ::operator delete(mem, std::align_val_t{state_align<S>()});
    throw;
  }
  if constexpr (HasParams<S>) {
    try {
      [&]<std::size_t... K>(std::index_sequence<K...>) {
        (inject_param<S, K>(*s, values), ...);
      }(std::make_index_sequence<ParamTable<S>::size>{});
    } catch (...) {
      destroy_state<S>(s);
      throw;
    }
  }
  return s;
}

template <class Closure, class S, Fixture F>
constexpr FixtureFn fixture_of() {
  if constexpr (FixtureOf<S, F>::present) return &fixture_thunk<Closure, S, F>;
  else return nullptr;
}

template <class Closure, class S>
constexpr StateDescriptor describe_state() {
  return StateDescriptor{StateOps{&typeid(S), S::cmh_scope, &create_state<S>, &destroy_state<S>,
                                  fixture_of<Closure, S, Fixture::setup_trial>(),
                                  fixture_of<Closure, S, Fixture::setup_iteration>(),
                                  fixture_of<Closure, S, Fixture::teardown_iteration>(),
                                  fixture_of<Closure, S, Fixture::teardown_trial>(), kHasInvocationFixtures<S>},
                         ParamTable<S>::items, ParamTable<S>::size, AuxTable<S>::items, AuxTable<S>::size};
}

}  // namespace cmh::detail
