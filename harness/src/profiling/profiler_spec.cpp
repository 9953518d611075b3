// SPDX-License-Identifier: MIT
// parse_profiler_spec(): JMH's -prof syntax, "name", "name:help" and
// "name:key=value;key2=value", plus bare flags ("name:key", an empty value).
//
// Only the syntax is checked here; whether a key means anything is up to the
// profiler's factory (ProfilerOptionReader), so user profilers get the same rules.
#include <cmh/profiler.hpp>

#include <cctype>
#include <string>

namespace cmh {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

[[noreturn]] void bad_spec(std::string_view spec, std::string_view why) {
  throw ProfilerError("-prof '" + std::string(spec) + "': " + std::string(why));
}

}  // namespace

std::pair<std::string, ProfilerOptions> parse_profiler_spec(std::string_view spec) {
  const auto colon = spec.find(':');
  const std::string_view name = trim(spec.substr(0, colon));
  if (name.empty()) bad_spec(spec, "missing profiler name (-lprof lists them)");
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'))
      bad_spec(spec, "'" + std::string(name) + "' is not a profiler name (-lprof lists them)");

  ProfilerOptions options;
  if (colon == std::string_view::npos) return {std::string(name), options};

  std::string_view rest = spec.substr(colon + 1);
  if (trim(rest).empty())
    bad_spec(spec, "nothing after ':' (expected key=value;key2=value, or help)");
  // One trailing ';' is tolerated ("a=b;"); empty options elsewhere are typos.
  if (rest.back() == ';') rest.remove_suffix(1);
  while (true) {
    const auto semi = rest.find(';');
    const std::string_view item = trim(rest.substr(0, semi));
    if (item.empty()) bad_spec(spec, "empty option between ';'");
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) {
      // A bare key: "help", or a flag ("flame:alloc"), stored with an empty value; the
      // profiler's option reader takes it as true, or says a value is missing.
      if (item == "help") {
        options.insert_or_assign("help", "");
      } else if (!options.emplace(std::string(item), "").second) {
        bad_spec(spec, "option '" + std::string(item) + "' is given twice");
      }
    } else {
      const std::string key(trim(item.substr(0, eq)));
      const std::string value(trim(item.substr(eq + 1)));
      if (key.empty()) bad_spec(spec, "option '" + std::string(item) + "' has no name before '='");
      if (value.empty()) bad_spec(spec, "option '" + key + "' has an empty value");
      if (!options.emplace(key, value).second) bad_spec(spec, "option '" + key + "' is given twice");
    }
    if (semi == std::string_view::npos) break;
    rest.remove_prefix(semi + 1);
  }
  return {std::string(name), options};
}

}  // namespace cmh
