// SPDX-License-Identifier: MIT
// From a benchmark's tag type (written by the CMH_BENCHMARK macros) to a
// registered benchmark: the body's signature gives its arguments, those give
// the state closure, and the closure gives the loop and the constant tables
// (states, parameters, aux counters) the library builds the definition from.
//
// Why registration is triggered from the body's noexcept-specifier: the body
// returns `auto`, so nothing may use it before its definition. Naming
// Registration<Tag>::registered inside the definition's own declarator puts
// the point of instantiation of that static member right after the body, where
// the return type is known; its dynamic initialisation then registers the
// benchmark at static-initialisation time. The specifier always evaluates to
// false: bodies may throw.
#pragma once

#include <cmh/detail/descriptors.hpp>
#include <cmh/detail/measure_loops.hpp>
#include <cmh/detail/state_graph.hpp>
#include <cmh/detail/state_ops.hpp>
#include <cmh/detail/type_list.hpp>

#include <cstddef>

namespace cmh::detail {

/// The constant table of a closure's states, dependencies first (one spare entry:
/// never zero-sized).
template <class Closure, class States = Closure>
struct StateTable;
template <class Closure, class... S>
struct StateTable<Closure, TypeList<S...>> {
  static constexpr std::size_t size = sizeof...(S);
  static constexpr StateDescriptor items[size + 1] = {describe_state<Closure, S>()..., {}};
};

/// Everything about one benchmark body, as constant data: what the library turns into
/// its BenchmarkDefinition (descriptors.hpp).
template <class Tag>
struct Describe {
  using Args = typename Signature<decltype(&Tag::run)>::args;
  using States = Closure<typename StatesIn<Args>::type>;
  static constexpr BenchmarkDescriptor value{Tag::group,
                                             Tag::name,
                                             Tag::member,
                                             Tag::group_member,
                                             Tag::group_threads,
                                             Tag::file,
                                             Tag::line,
                                             StateTable<States>::items,
                                             StateTable<States>::size,
                                             &Loops<Tag, States>::run};
};

/// Through a function template, whose body is instantiated at the end of the file:
/// Describe<Tag> names the body's type, which is known only after its definition.
template <class Tag>
bool register_described() {
  return register_benchmark_code(Describe<Tag>::value);
}

template <class Tag>
struct Registration {
  static const bool registered;
};
template <class Tag>
const bool Registration<Tag>::registered = register_described<Tag>();

/// Always false; naming `&Registration<Tag>::registered` instantiates the registration.
template <const bool* Registered>
inline constexpr bool kRegisterAndThrow = false;

constexpr int group_thread_count(int n) { return n; }

}  // namespace cmh::detail
