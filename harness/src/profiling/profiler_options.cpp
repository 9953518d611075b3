// SPDX-License-Identifier: MIT
// ProfilerOptionReader: typed -prof option values and the unknown-option check.
#include <cmh/profiler_options.hpp>

#include <algorithm>
#include <charconv>

namespace cmh {

ProfilerOptionReader::ProfilerOptionReader(std::string profiler_name, const ProfilerOptions& options)
    : name_(std::move(profiler_name)), options_(options) {}

void ProfilerOptionReader::fail(std::string_view what) const {
  throw ProfilerError("-prof " + name_ + ": " + std::string(what));
}

const std::string* ProfilerOptionReader::find(std::string_view key) {
  if (std::find(known_.begin(), known_.end(), key) == known_.end()) known_.emplace_back(key);
  const auto it = options_.find(std::string(key));
  return it == options_.end() ? nullptr : &it->second;
}

const std::string* ProfilerOptionReader::valued(std::string_view key) {
  const std::string* v = find(key);
  // A bare "name:key" is a flag; every other kind of option needs its value.
  if (v && v->empty())
    fail("option '" + std::string(key) + "' needs a value (" + std::string(key) + "=<value>)");
  return v;
}

bool ProfilerOptionReader::flag(std::string_view key, bool default_value) {
  const std::string* v = find(key);
  if (!v) return default_value;
  if (v->empty()) return true;  // bare "name:key"
  if (*v == "true" || *v == "yes" || *v == "on" || *v == "1") return true;
  if (*v == "false" || *v == "no" || *v == "off" || *v == "0") return false;
  fail("option " + std::string(key) + "=" + *v + ": expected true or false");
}

std::string ProfilerOptionReader::choice(std::string_view key,
                                         std::initializer_list<std::string_view> allowed,
                                         std::string_view default_value) {
  const std::string* v = valued(key);
  if (!v) return std::string(default_value);
  if (std::find(allowed.begin(), allowed.end(), *v) != allowed.end()) return *v;
  std::string expected;
  for (auto a : allowed) expected += (expected.empty() ? "" : " or ") + std::string(a);
  fail("option " + std::string(key) + "=" + *v + ": expected " + expected);
}

std::string ProfilerOptionReader::text(std::string_view key, std::string_view default_value) {
  const std::string* v = valued(key);
  return v ? *v : std::string(default_value);
}

std::int64_t ProfilerOptionReader::integer(std::string_view key, std::int64_t default_value,
                                           std::int64_t min, std::int64_t max) {
  const std::string* v = valued(key);
  if (!v) return default_value;
  std::int64_t out = 0;
  const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
  if (ec != std::errc{} || end != v->data() + v->size() || out < min || out > max)
    fail("option " + std::string(key) + "=" + *v + ": expected an integer from " +
         std::to_string(min) + " to " + std::to_string(max));
  return out;
}

std::vector<std::string> ProfilerOptionReader::list(std::string_view key,
                                                    std::vector<std::string> default_value) {
  const std::string* v = valued(key);
  if (!v) return default_value;
  std::vector<std::string> out;
  std::string_view rest = *v;
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    if (item.empty()) fail("option " + std::string(key) + "=" + *v + ": empty item in the list");
    out.emplace_back(item);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return out;
}

void ProfilerOptionReader::finish() const {
  for (const auto& [key, value] : options_) {
    if (key == "help") continue;  // name:help is answered before a profiler is created
    if (std::find(known_.begin(), known_.end(), key) != known_.end()) continue;
    std::string accepted;
    for (const auto& k : known_) accepted += (accepted.empty() ? "" : ", ") + k;
    fail("unknown option '" + key + "' (" +
         (accepted.empty() ? std::string("it takes no options") : "it accepts: " + accepted) +
         "; see -prof " + name_ + ":help)");
  }
}

}  // namespace cmh
