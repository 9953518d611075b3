// SPDX-License-Identifier: MIT
// From a benchmark's tag type (written by the CMH_BENCHMARK macros) to a
// registered BenchmarkDefinition: the body's signature gives its arguments,
// those give the state closure, and the closure gives the loop, the StateOps,
// the parameter declarations and the aux counters.
//
// Why registration is triggered from the body's noexcept-specifier: the body
// returns `auto`, so nothing may use it before its definition. Naming
// Registration<Tag>::registered inside the definition's own declarator puts
// the point of instantiation of that static member right after the body, where
// the return type is known; its dynamic initialisation then registers the
// benchmark at static-initialisation time. The specifier always evaluates to
// false: bodies may throw.
#pragma once

#include <cmh/detail/benchmark_code.hpp>
#include <cmh/detail/measure_loops.hpp>
#include <cmh/detail/state_graph.hpp>
#include <cmh/detail/state_ops.hpp>
#include <cmh/detail/type_list.hpp>
#include <cmh/registry.hpp>

#include <algorithm>
#include <memory>

namespace cmh::detail {

template <class Closure>
void add_states(MemberCode& m) {
  [&]<class... S>(TypeList<S...>) {
    (m.states.push_back(make_state_ops<Closure, S>()), ...);
    (describe_state<S>(m), ...);
  }(Closure{});
  std::sort(m.params.begin(), m.params.end(),
            [](const ParamDecl& a, const ParamDecl& b) { return a.name < b.name; });
}

template <class Tag>
MemberCode make_member() {
  using Args = typename Signature<decltype(&Tag::run)>::args;
  using States = Closure<typename StatesIn<Args>::type>;
  MemberCode m;
  m.name = Tag::group_member ? Tag::member : Tag::name;
  add_states<States>(m);
  m.loop = &Loops<Tag, States>::run;
  return m;
}

template <class Tag>
BenchmarkDefinition make_definition() {
  BenchmarkDefinition def;
  def.group = Tag::group;
  def.name = Tag::name;
  def.file = Tag::file;
  def.line = Tag::line;
  auto code = std::make_shared<BenchmarkCode>();
  code->members.push_back(make_member<Tag>());
  def.params = code->members.front().params;
  if constexpr (Tag::group_member) {
    def.group_members = {Tag::member};
    def.group_threads = {Tag::group_threads};
  }
  def.code = std::move(code);
  return def;
}

template <class Tag>
struct Registration {
  static const bool registered;
};
template <class Tag>
const bool Registration<Tag>::registered = (register_benchmark(make_definition<Tag>()), true);

/// Always false; naming `&Registration<Tag>::registered` instantiates the registration.
template <const bool* Registered>
inline constexpr bool kRegisterAndThrow = false;

constexpr int group_thread_count(int n) { return n; }

}  // namespace cmh::detail
