// SPDX-License-Identifier: MIT
// Auxiliary counters (JMH's @AuxCounters): numeric members of a thread-scoped
// state that become secondary results. The engine zeroes them when the measured
// part of an iteration starts and reads them when it ends.
//  - ops counters are normalised by time like the primary result (ops/s in
//    throughput mode, s/op in the time modes), summed or averaged over threads as
//    the primary is;
//  - event counters are plain counts, summed over threads, in unit "#".
//
//   struct Tally : cmh::ThreadState {
//     std::uint64_t hits = 0, misses = 0;
//     static constexpr auto counters = cmh::aux_counters(
//         cmh::ops_counter("hits", &Tally::hits), cmh::event_counter("misses", &Tally::misses));
//   };
#pragma once

#include <string_view>
#include <tuple>
#include <type_traits>

namespace cmh {

template <class C, class M>
struct AuxCounterSpec {
  std::string_view name;
  M C::*member;
  bool events;  ///< false: ops (normalised by time); true: events (a count)
};

/// A counter of operations, reported like the primary score.
template <class C, class M>
constexpr AuxCounterSpec<C, M> ops_counter(std::string_view name, M C::*member) {
  static_assert(std::is_arithmetic_v<M>, "cmh::ops_counter: the member must be a number");
  return {name, member, false};
}

/// A counter of events, reported as the sum of the counts.
template <class C, class M>
constexpr AuxCounterSpec<C, M> event_counter(std::string_view name, M C::*member) {
  static_assert(std::is_arithmetic_v<M>, "cmh::event_counter: the member must be a number");
  return {name, member, true};
}

template <class... Specs>
struct AuxCounterList {
  std::tuple<Specs...> specs;
};

/// The counters of a state, assigned to its `static constexpr auto counters`.
template <class... Specs>
constexpr AuxCounterList<Specs...> aux_counters(Specs... specs) {
  return {{specs...}};
}

namespace detail {
template <class T>
struct IsAuxCounterList : std::false_type {};
template <class... S>
struct IsAuxCounterList<AuxCounterList<S...>> : std::true_type {};

template <class T>
concept HasAuxCounters = requires { T::counters; } &&
                         IsAuxCounterList<std::remove_cvref_t<decltype(T::counters)>>::value;

template <class T>
constexpr std::size_t aux_counter_count() {
  if constexpr (HasAuxCounters<T>) {
    return std::tuple_size_v<decltype(T::counters.specs)>;
  } else {
    return 0;
  }
}
}  // namespace detail

}  // namespace cmh
