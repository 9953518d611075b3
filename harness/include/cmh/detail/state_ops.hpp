// SPDX-License-Identifier: MIT
// The type-erased operations of one state type in one benchmark's closure
// (StateOps): creation in padded, 128-byte aligned storage with its parameters
// injected, destruction, and the trial- and iteration-level fixtures; plus
// what a state adds to a member's description (parameter declarations and
// checks, aux counter names).
#pragma once

#include <cmh/aux_counters.hpp>
#include <cmh/detail/benchmark_code.hpp>
#include <cmh/detail/state_graph.hpp>
#include <cmh/param.hpp>
#include <cmh/state.hpp>

#include <algorithm>
#include <new>
#include <string>
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

template <class S, class Spec>
void inject_param(S& s, const Spec& spec, const ParamValues& values) {
  using M = typename Spec::Member;
  std::string_view text;
  bool found = false;
  for (const auto& [key, value] : values) {
    if (key == spec.name) {
      text = value;
      found = true;
      break;
    }
  }
  if (!found) {
    if constexpr (std::tuple_size_v<decltype(spec.defaults)> == 0) {
      throw ParamError("parameter '" + std::string(spec.name) + "' has no value");
    } else {
      text = spec.defaults[0];
    }
  }
  if (!parse_param(text, s.*spec.member)) {
    throw ParamError("parameter '" + std::string(spec.name) + "': '" + std::string(text) +
                     "' is not a valid " + param_type_name<M>());
  }
}

template <class S>
void destroy_state(void* p) noexcept {
  static_cast<S*>(p)->~S();
  ::operator delete(p, std::align_val_t{state_align<S>()});
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
      std::apply([&](const auto&... spec) { (inject_param(*s, spec, values), ...); }, S::params.specs);
    } catch (...) {
      destroy_state<S>(s);
      throw;
    }
  }
  return s;
}

template <class M>
bool accepts_param(std::string_view text) {
  M value{};
  return parse_param(text, value);
}

template <class Closure, class S>
StateOps make_state_ops() {
  StateOps ops;
  ops.type = &typeid(S);
  ops.scope = S::cmh_scope;
  ops.create = &create_state<S>;
  ops.destroy = &destroy_state<S>;
  if constexpr (FixtureOf<S, Fixture::setup_trial>::present)
    ops.setup_trial = &fixture_thunk<Closure, S, Fixture::setup_trial>;
  if constexpr (FixtureOf<S, Fixture::setup_iteration>::present)
    ops.setup_iteration = &fixture_thunk<Closure, S, Fixture::setup_iteration>;
  if constexpr (FixtureOf<S, Fixture::teardown_iteration>::present)
    ops.teardown_iteration = &fixture_thunk<Closure, S, Fixture::teardown_iteration>;
  if constexpr (FixtureOf<S, Fixture::teardown_trial>::present)
    ops.teardown_trial = &fixture_thunk<Closure, S, Fixture::teardown_trial>;
  ops.invocation_fixtures = kHasInvocationFixtures<S>;
  return ops;
}

/// Adds the parameter declarations and aux counters of state S to a member's code.
template <class S>
void describe_state(MemberCode& m) {
  if constexpr (HasParams<S>) {
    std::apply(
        [&](const auto&... spec) {
          auto add = [&](const auto& p) {
            using M = typename std::remove_cvref_t<decltype(p)>::Member;
            ParamDecl decl{std::string(p.name), {}, param_type_name<M>()};
            for (auto d : p.defaults) decl.defaults.emplace_back(d);
            m.param_checks.push_back({decl.name, decl.type_name, &accepts_param<M>});
            const bool known = std::any_of(m.params.begin(), m.params.end(),
                                           [&](const ParamDecl& x) { return x.name == decl.name; });
            if (!known) m.params.push_back(std::move(decl));
          };
          (add(spec), ...);
        },
        S::params.specs);
  }
  if constexpr (HasAuxCounters<S>) {
    std::apply([&](const auto&... spec) { (m.aux_counters.push_back({std::string(spec.name), spec.events}), ...); },
               S::counters.specs);
  }
}

}  // namespace cmh::detail
