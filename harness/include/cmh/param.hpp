// SPDX-License-Identifier: MIT
// Benchmark parameters (JMH's @Param): members of a state whose values come from
// the command line (-p name=v1,v2) or from defaults declared with the state. The
// declaration is static data, so the harness lists and validates parameters
// without constructing the state:
//
//   struct Sizes : cmh::BenchmarkState {
//     int size = 0;
//     std::string kind;
//     static constexpr auto params = cmh::params(
//         cmh::param("size", &Sizes::size, "10", "1000"),
//         cmh::param("kind", &Sizes::kind, "array", "list"));
//   };
//
// Values are strings, converted to the member's type before any setup runs:
// integers (decimal, range-checked), floating point, bool (true/false), char,
// std::string, and any type T (enums included) for which an ADL-visible
// `bool cmh_parse_param(std::string_view text, T& out)` exists.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>

#include <cmh/detail/type_list.hpp>

namespace cmh {

template <class C, class M, std::size_t N>
struct ParamSpec {
  using Member = M;
  std::string_view name;
  M C::*member;
  std::array<std::string_view, N> defaults;
};

/// Declares one parameter: its name, the member it sets, its default values.
template <class C, class M, class... V>
constexpr ParamSpec<C, M, sizeof...(V)> param(std::string_view name, M C::*member, V... defaults) {
  static_assert((std::is_convertible_v<V, std::string_view> && ...),
                "cmh::param: default values are written as strings, as in JMH's @Param");
  return {name, member, {std::string_view(defaults)...}};
}

template <class... Specs>
struct ParamList {
  std::tuple<Specs...> specs;
};

/// The parameters of a state, assigned to its `static constexpr auto params`.
template <class... Specs>
constexpr ParamList<Specs...> params(Specs... specs) {
  return {{specs...}};
}

namespace detail {

template <class T>
struct IsParamList : std::false_type {};
template <class... S>
struct IsParamList<ParamList<S...>> : std::true_type {};

template <class T>
concept HasParams = requires { T::params; } &&
                    IsParamList<std::remove_cvref_t<decltype(T::params)>>::value;

template <class T>
concept HasParseHook = requires(std::string_view s, T& v) {
  { cmh_parse_param(s, v) } -> std::convertible_to<bool>;
};

// Converts `text` into `out`; false when it is not a valid value of the type. The
// built-in conversions are defined in the library (harness/src/model/param_parse.cpp),
// so that benchmark files do not compile <charconv> for every parameter type.
bool parse_param(std::string_view text, bool& out);
bool parse_param(std::string_view text, char& out);
bool parse_param(std::string_view text, signed char& out);
bool parse_param(std::string_view text, unsigned char& out);
bool parse_param(std::string_view text, short& out);
bool parse_param(std::string_view text, unsigned short& out);
bool parse_param(std::string_view text, int& out);
bool parse_param(std::string_view text, unsigned& out);
bool parse_param(std::string_view text, long& out);
bool parse_param(std::string_view text, unsigned long& out);
bool parse_param(std::string_view text, long long& out);
bool parse_param(std::string_view text, unsigned long long& out);
bool parse_param(std::string_view text, float& out);
bool parse_param(std::string_view text, double& out);
bool parse_param(std::string_view text, long double& out);
bool parse_param(std::string_view text, std::string& out);

/// Any other type: the ADL-visible cmh_parse_param hook.
template <class T>
bool parse_param(std::string_view text, T& out) {
  if constexpr (HasParseHook<T>) {
    return cmh_parse_param(text, out);
  } else {
    static_assert(kDependentFalse<T>,
                  "cmh::param: no conversion from a string to this member type; use an integer, "
                  "floating-point, bool, char or std::string member, or define "
                  "bool cmh_parse_param(std::string_view, T&) next to the type");
    return false;
  }
}

/// Demangles a type_info name ("i" -> "int"); defined by the engine.
std::string demangle(const char* mangled);

/// The type name shown by -lp and in error messages for the common types; nullptr for
/// the others, whose name the library demangles from their type_info.
template <class T>
constexpr const char* param_type_label() {
  if constexpr (std::is_same_v<T, std::string>) return "std::string";
  else if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_same_v<T, char>) return "char";
  else if constexpr (std::is_same_v<T, int>) return "int";
  else if constexpr (std::is_same_v<T, long>) return "long";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else return nullptr;
}

}  // namespace detail
}  // namespace cmh
