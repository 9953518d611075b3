// SPDX-License-Identifier: MIT
// ProfilerOptionReader: typed access to a profiler's -prof options, for the built-in
// profilers and for users writing their own.
//
// A factory asks for every option it understands (flag, choice, text, integer), then
// calls finish(), which rejects whatever was not asked for. Every error is a
// ProfilerError with one line naming the profiler, the option and what is expected,
// so a typo on the command line exits 1 before anything runs.
#pragma once

#include <cmh/profiler.hpp>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace cmh {

class ProfilerOptionReader {
 public:
  ProfilerOptionReader(std::string profiler_name, const ProfilerOptions& options);

  /// key=true|false (also yes/no, on/off, 1/0), or the bare key alone ("flame:alloc"): true.
  bool flag(std::string_view key, bool default_value);
  /// key=<one of allowed>.
  std::string choice(std::string_view key, std::initializer_list<std::string_view> allowed,
                     std::string_view default_value);
  /// key=<any text>.
  std::string text(std::string_view key, std::string_view default_value);
  /// key=<integer in [min, max]>.
  std::int64_t integer(std::string_view key, std::int64_t default_value, std::int64_t min,
                       std::int64_t max);
  /// key=a,b,c (empty items rejected); default when absent.
  std::vector<std::string> list(std::string_view key, std::vector<std::string> default_value);

  /// Throws ProfilerError for the first option no accessor asked for.
  void finish() const;

  /// "-prof <name>: <what>", thrown as ProfilerError; for a factory's own checks.
  [[noreturn]] void fail(std::string_view what) const;

 private:
  const std::string* find(std::string_view key);
  const std::string* valued(std::string_view key);  ///< find(), failing on a bare key

  std::string name_;
  const ProfilerOptions& options_;
  std::vector<std::string> known_;
};

}  // namespace cmh
