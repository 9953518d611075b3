// SPDX-License-Identifier: MIT
// Compile-time lists of types, just enough for the engine's templates: the
// argument lists of benchmark bodies and fixtures, and the closure of the states
// they need (deduplicated, in dependency order).
#pragma once

#include <cstddef>
#include <type_traits>

namespace cmh::detail {

template <class... T>
struct TypeList {
  static constexpr std::size_t size = sizeof...(T);
};

template <class List, class T>
struct Contains;
template <class... L, class T>
struct Contains<TypeList<L...>, T> : std::bool_constant<(std::is_same_v<L, T> || ...)> {};
template <class List, class T>
inline constexpr bool kContains = Contains<List, T>::value;

/// Appends T unless the list already holds it.
template <class List, class T>
struct PushUnique;
template <class... L, class T>
struct PushUnique<TypeList<L...>, T> {
  using type = std::conditional_t<kContains<TypeList<L...>, T>, TypeList<L...>, TypeList<L..., T>>;
};

template <class List, class T>
struct IndexOf;
template <class T, class... Rest>
struct IndexOf<TypeList<T, Rest...>, T> : std::integral_constant<std::size_t, 0> {};
template <class U, class... Rest, class T>
struct IndexOf<TypeList<U, Rest...>, T>
    : std::integral_constant<std::size_t, 1 + IndexOf<TypeList<Rest...>, T>::value> {};
template <class List, class T>
inline constexpr std::size_t kIndexOf = IndexOf<List, T>::value;

/// The I-th type of a list.
template <std::size_t I, class List>
struct TypeAt;
template <class T, class... Rest>
struct TypeAt<0, TypeList<T, Rest...>> {
  using type = T;
};
template <std::size_t I, class T, class... Rest>
struct TypeAt<I, TypeList<T, Rest...>> : TypeAt<I - 1, TypeList<Rest...>> {};

/// Keeps the types for which Pred<T>::value holds, in order.
template <template <class> class Pred, class List>
struct Filter;
template <template <class> class Pred>
struct Filter<Pred, TypeList<>> {
  using type = TypeList<>;
};
template <template <class> class Pred, class T, class... Rest>
struct Filter<Pred, TypeList<T, Rest...>> {
  using tail = typename Filter<Pred, TypeList<Rest...>>::type;
  template <class Tail>
  struct Prepend;
  template <class... R>
  struct Prepend<TypeList<R...>> {
    using type = TypeList<T, R...>;
  };
  using type = std::conditional_t<Pred<T>::value, typename Prepend<tail>::type, tail>;
};

/// The parameter list of a function or member-function pointer type.
template <class F>
struct Signature;
template <class R, class... A>
struct Signature<R (*)(A...)> {
  using result = R;
  using args = TypeList<A...>;
};
template <class R, class... A>
struct Signature<R (*)(A...) noexcept> : Signature<R (*)(A...)> {};
template <class R, class C, class... A>
struct Signature<R (C::*)(A...)> {
  using result = R;
  using args = TypeList<A...>;
};
template <class R, class C, class... A>
struct Signature<R (C::*)(A...) noexcept> : Signature<R (C::*)(A...)> {};
template <class R, class C, class... A>
struct Signature<R (C::*)(A...) const> : Signature<R (C::*)(A...)> {};
template <class R, class C, class... A>
struct Signature<R (C::*)(A...) const noexcept> : Signature<R (C::*)(A...)> {};

template <class...>
inline constexpr bool kDependentFalse = false;

}  // namespace cmh::detail
