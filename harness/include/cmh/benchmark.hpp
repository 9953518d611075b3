// SPDX-License-Identifier: MIT
// The macros that declare benchmarks and their options (JMH's @Benchmark,
// @Group/@GroupThreads and the class- and method-level option annotations).
//
//   CMH_OPTIONS(TAB, cmh::warmup{5, 1s}, cmh::measurement{5, 1s}, cmh::mode::throughput);
//   CMH_BENCHMARK(TAB, inline, cmh::Blackhole& bh) { bh.consume(std::make_unique<int>(1).get()); }
//   CMH_BENCHMARK_OPTIONS(TAB, inline, cmh::threads{2});
//   CMH_GROUP_BENCHMARK(Queue, pingpong, put, cmh::group_threads{3}, Shared& q) { ... }
//
// A benchmark is named Group.name; Group and name are identifiers (keywords such
// as `inline` are fine). Its arguments are injected by type (see state.hpp); a
// non-void return value is consumed by a Blackhole. Option precedence, as in
// JMH: command line > CMH_BENCHMARK_OPTIONS > CMH_OPTIONS > defaults.
#pragma once

#include <cmh/detail/registration.hpp>
#include <cmh/option_values.hpp>

namespace cmh {
/// Threads running one @Group member within each group instance (@GroupThreads).
struct group_threads {
  int count = 1;
};
namespace detail {
constexpr int group_thread_count(group_threads g) { return g.count; }
}  // namespace detail
}  // namespace cmh

#define CMH_DETAIL_BENCHMARK(TagName, GroupStr, NameStr, MemberStr, IsMember, Threads, ...)        \
  namespace {                                                                                      \
  struct TagName {                                                                                 \
    static constexpr const char* group = GroupStr;                                                 \
    static constexpr const char* name = NameStr;                                                   \
    static constexpr const char* member = MemberStr;                                               \
    static constexpr bool group_member = IsMember;                                                 \
    [[maybe_unused]] static constexpr int group_threads = ::cmh::detail::group_thread_count(Threads); \
    static constexpr const char* file = __FILE__;                                                  \
    static constexpr int line = __LINE__;                                                          \
    [[gnu::always_inline]] static inline auto run(__VA_ARGS__);                                    \
  };                                                                                               \
  }                                                                                                \
  auto TagName::run(__VA_ARGS__) noexcept(                                                         \
      ::cmh::detail::kRegisterAndThrow<&::cmh::detail::Registration<TagName>::registered>)

/// Declares and registers benchmark Group.Name; the function body follows.
/// The arguments are any of cmh::Blackhole&, cmh::Control&,
/// const cmh::BenchmarkParams&, const cmh::IterationParams&,
/// const cmh::ThreadParams& and states, in any order.
#define CMH_BENCHMARK(Group, Name, ...)                                                            \
  CMH_DETAIL_BENCHMARK(cmh_benchmark_##Group##_##Name, #Group, #Name, "", false, 1, __VA_ARGS__)

/// Declares one member of the asymmetric benchmark Group.Tag (JMH's @Group):
/// every member runs on its own threads (cmh::group_threads{n}, JMH's
/// @GroupThreads) within each group instance; each member's score is reported
/// as a secondary result named after the member.
#define CMH_GROUP_BENCHMARK(Group, Tag, Member, Threads, ...)                                      \
  CMH_DETAIL_BENCHMARK(cmh_group_member_##Group##_##Tag##_##Member, #Group, #Tag, #Member, true,   \
                       Threads, __VA_ARGS__)

/// Options for every benchmark of Group (class-level annotations).
#define CMH_OPTIONS(Group, ...)                                                                    \
  namespace {                                                                                      \
  [[maybe_unused]] const bool cmh_group_options_##Group =                                          \
      ::cmh::detail::register_group_option_values(#Group __VA_OPT__(, ) __VA_ARGS__);              \
  }

/// Options for benchmark Group.Name (method-level annotations; win over CMH_OPTIONS).
#define CMH_BENCHMARK_OPTIONS(Group, Name, ...)                                                    \
  namespace {                                                                                      \
  [[maybe_unused]] const bool cmh_options_for_##Group##_##Name =                                   \
      ::cmh::detail::register_benchmark_option_values(#Group, #Name, __FILE__,                     \
                                                      __LINE__ __VA_OPT__(, ) __VA_ARGS__);        \
  }
