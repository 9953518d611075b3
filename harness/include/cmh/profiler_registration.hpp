// SPDX-License-Identifier: MIT
// CMH_PROFILER: register your own profiler class, no harness change needed.
//
//   struct MyProfiler : cmh::InternalProfiler { ... };
//   CMH_PROFILER(MyProfiler, "mine", "What it measures, in one line");
//
// The class derives from cmh::InternalProfiler and/or cmh::ExternalProfiler and is
// constructible from `const cmh::ProfilerOptions&` (use cmh::ProfilerOptionReader to
// read and check them) or default-constructible (it then accepts no options). Optional
// static members are picked up when present: `std::string help()`,
// `std::optional<std::string> unsupported_reason()`, `std::vector<std::string> aliases()`.
// A profiler registered under a built-in's name replaces the built-in.
#pragma once

#include <cmh/profiler.hpp>
#include <cmh/profiler_options.hpp>

#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace cmh::detail {

/// Adds `info` to the registry; on a bad or colliding registration prints one line
/// to stderr and exits 1 (it runs during static initialisation, where a throw would
/// terminate with a trace).
bool register_profiler_or_exit(ProfilerInfo info) noexcept;

template <class T>
ProfilerInfo make_profiler_info(std::string name, std::string description) {
  static_assert(std::is_base_of_v<InternalProfiler, T> || std::is_base_of_v<ExternalProfiler, T>,
                "CMH_PROFILER: the class must derive from cmh::InternalProfiler or "
                "cmh::ExternalProfiler");
  static_assert(std::is_constructible_v<T, const ProfilerOptions&> ||
                    std::is_default_constructible_v<T>,
                "CMH_PROFILER: the class needs a constructor taking const cmh::ProfilerOptions& "
                "or a default constructor");
  ProfilerInfo info;
  info.name = std::move(name);
  info.description = std::move(description);
  info.internal = std::is_base_of_v<InternalProfiler, T>;
  info.external = std::is_base_of_v<ExternalProfiler, T>;
  if constexpr (requires { T::aliases(); }) info.aliases = T::aliases();
  if constexpr (requires { T::help(); }) info.help = [] { return std::string(T::help()); };
  if constexpr (requires { T::unsupported_reason(); })
    info.unsupported_reason = [] { return std::optional<std::string>(T::unsupported_reason()); };
  info.create = [profiler = info.name](const ProfilerOptions& options) -> std::unique_ptr<Profiler> {
    if constexpr (std::is_constructible_v<T, const ProfilerOptions&>) {
      return std::make_unique<T>(options);
    } else {
      ProfilerOptionReader(profiler, options).finish();  // rejects any option
      return std::make_unique<T>();
    }
  };
  return info;
}

}  // namespace cmh::detail

#define CMH_DETAIL_PROFILER_CAT2(a, b) a##b
#define CMH_DETAIL_PROFILER_CAT(a, b) CMH_DETAIL_PROFILER_CAT2(a, b)
/// Registers profiler class `Type` as `name` ("mine") with a one-line description.
#define CMH_PROFILER(Type, name, description)                                       \
  [[maybe_unused]] static const bool CMH_DETAIL_PROFILER_CAT(cmh_profiler_registered_, \
                                                             __COUNTER__) =         \
      ::cmh::detail::register_profiler_or_exit(                                     \
          ::cmh::detail::make_profiler_info<Type>(name, description))
