// SPDX-License-Identifier: MIT
// The value grammars of the command line (see values.hpp) and parse_time, JMH's
// time syntax. Messages quote the offending text and say what was expected.
#include "cli/values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <limits>

namespace cmh::cli {

namespace {

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool equals_ignore_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && lowercase(a) == lowercase(b);
}

[[noreturn]] void reject_value(std::string message) { throw CommandLineError(std::move(message)); }

struct UnitSuffix {
  std::string_view suffix;
  std::int64_t nanos;
};

// Longest first where one suffix ends another ("ms" before "s", "min" before "m").
constexpr std::array kTimeSuffixes{
    UnitSuffix{"ns", 1},
    UnitSuffix{"us", 1'000},
    UnitSuffix{"ms", 1'000'000},
    UnitSuffix{"s", 1'000'000'000},
    UnitSuffix{"min", 60'000'000'000},
    UnitSuffix{"m", 60'000'000'000},
    UnitSuffix{"hr", 3'600'000'000'000},
    UnitSuffix{"h", 3'600'000'000'000},
    UnitSuffix{"day", 86'400'000'000'000},
};

}  // namespace

int parse_int(std::string_view text, IntBound bound, int max) {
  std::string_view digits = text;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);  // Java's Integer accepts "+5"
  long long value = 0;
  const char* end = digits.data() + digits.size();
  auto [ptr, ec] = std::from_chars(digits.data(), end, value);
  if (digits.empty() || ec == std::errc::invalid_argument || ptr != end)
    reject_value(fmt::format("\"{}\" is not an integer", text));
  if (ec == std::errc::result_out_of_range || value > std::numeric_limits<int>::max() ||
      value < std::numeric_limits<int>::min())
    reject_value(fmt::format("\"{}\" is out of range", text));
  if (bound == IntBound::positive && value < 1)
    reject_value(fmt::format("the value {} should be positive", text));
  if (bound == IntBound::non_negative && value < 0)
    reject_value(fmt::format("the value {} should be non-negative", text));
  if (value > max) reject_value(fmt::format("the value {} is too large (at most {})", text, max));
  return static_cast<int>(value);
}

bool parse_bool(std::string_view text) {
  if (equals_ignore_case(text, "true")) return true;
  if (equals_ignore_case(text, "false")) return false;
  reject_value(fmt::format("\"{}\" is not a boolean (true or false)", text));
}

int parse_threads(std::string_view text) {
  if (equals_ignore_case(text, "max")) return kThreadsMax;
  if (equals_ignore_case(text, "halfmax")) return kThreadsHalfMax;
  try {
    return parse_int(text, IntBound::positive, kMaxThreads);
  } catch (const CommandLineError& e) {
    reject_value(fmt::format("{} (or max, halfmax)", e.what()));
  }
}

Nanos parse_time(std::string_view text) {
  // JMH strips every space and lower-cases: "10 min", "10min" and "10 MIN" are one time.
  std::string compact;
  for (char c : text)
    if (c != ' ') compact += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto bad = [&] {
    return CommandLineError(fmt::format(
        "\"{}\" is not a time (a whole number with ns, us, ms, s, m or min, h or hr, day; "
        "a bare number is seconds, e.g. 100ms, 2s, 10 min)",
        text));
  };
  std::size_t digits = 0;
  while (digits < compact.size() && std::isdigit(static_cast<unsigned char>(compact[digits]))) ++digits;
  if (digits == 0) throw bad();
  std::string_view suffix = std::string_view(compact).substr(digits);
  std::int64_t unit_nanos = 0;
  if (suffix.empty()) {
    unit_nanos = 1'000'000'000;
  } else {
    for (const auto& u : kTimeSuffixes)
      if (suffix == u.suffix) unit_nanos = u.nanos;
  }
  if (unit_nanos == 0) throw bad();
  // Past kForever a time means "forever": saturate, so that adding two of them to
  // a clock reading (the watchdog's iteration time + timeout) cannot overflow.
  std::int64_t count = 0;
  auto [ptr, ec] = std::from_chars(compact.data(), compact.data() + digits, count);
  (void)ptr;
  if (ec != std::errc() || count > kForever.count() / unit_nanos) return kForever;
  return Nanos(count * unit_nanos);
}

std::vector<BenchmarkMode> parse_mode(std::string_view text) {
  using M = BenchmarkMode;
  const std::vector<M> all = {M::throughput, M::average_time, M::sample_time, M::single_shot};
  struct Known {
    std::string_view full, label;
    std::vector<M> modes;
  };
  const std::array<Known, 5> known{{
      {"Throughput", "thrpt", {M::throughput}},
      {"AverageTime", "avgt", {M::average_time}},
      {"SampleTime", "sample", {M::sample_time}},
      {"SingleShotTime", "ss", {M::single_shot}},
      {"All", "all", all},
  }};
  constexpr std::string_view kKnown =
      "Throughput/thrpt, AverageTime/avgt, SampleTime/sample, SingleShotTime/ss, All/all";
  if (text.empty()) reject_value(fmt::format("an empty benchmark mode; known modes: {}", kKnown));
  for (const auto& k : known)
    if (equals_ignore_case(text, k.full) || text == k.label) return k.modes;
  const Known* match = nullptr;
  for (const auto& k : known) {
    if (!k.label.starts_with(text)) continue;
    if (match != nullptr)
      reject_value(fmt::format("the benchmark mode prefix \"{}\" is ambiguous ({} or {}); known modes: {}", text,
                       match->label, k.label, kKnown));
    match = &k;
  }
  if (match == nullptr) reject_value(fmt::format("unknown benchmark mode \"{}\"; known modes: {}", text, kKnown));
  return match->modes;
}

TimeUnit parse_time_unit(std::string_view text) {
  const std::string u = lowercase(text);
  if (u == "ns") return TimeUnit::ns;
  if (u == "us") return TimeUnit::us;
  if (u == "ms") return TimeUnit::ms;
  if (u == "s") return TimeUnit::s;
  if (u == "m" || u == "min") return TimeUnit::min;
  if (u == "h" || u == "hr") return TimeUnit::hr;
  if (u == "day") return TimeUnit::day;
  reject_value(fmt::format("unknown time unit \"{}\"; known units: ns, us, ms, s, m (min), h (hr), day", text));
}

report::Verbosity parse_verbosity(std::string_view text) {
  const std::string v = lowercase(text);
  if (v == "silent") return report::Verbosity::silent;
  if (v == "normal") return report::Verbosity::normal;
  if (v == "extra") return report::Verbosity::extra;
  reject_value(fmt::format("unknown verbosity \"{}\"; use SILENT, NORMAL or EXTRA", text));
}

WarmupMode parse_warmup_mode(std::string_view text) {
  const std::string v = lowercase(text);
  if (v == "indi") return WarmupMode::indi;
  if (v == "bulk") return WarmupMode::bulk;
  if (v == "bulk_indi") return WarmupMode::bulk_indi;
  reject_value(fmt::format("unknown warmup mode \"{}\"; use INDI, BULK or BULK_INDI", text));
}

std::vector<std::string> split_fork_args(std::string_view text) {
  std::vector<std::string> args;
  std::string current;
  bool in_word = false;  // so that "" yields an (empty) argument rather than nothing
  char quote = 0;
  for (char c : text) {
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else {
        current += c;
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) args.push_back(std::move(current));
      current.clear();
      in_word = false;
    } else {
      current += c;
      in_word = true;
    }
  }
  if (quote != 0) reject_value(fmt::format("an unterminated {} quote in \"{}\"", quote == '"' ? "double" : "single", text));
  if (in_word) args.push_back(std::move(current));
  return args;
}

std::vector<std::string> split_list(std::string_view text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    std::size_t end = text.find(separator, start);
    if (end == std::string_view::npos) {
      parts.emplace_back(text.substr(start));
      return parts;
    }
    parts.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
}

Shard parse_shard(std::string_view text, std::string_view where) {
  const auto slash = text.find('/');
  const auto number = [&](std::string_view part, int& out) {
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), out);
    return !part.empty() && ec == std::errc() && end == part.data() + part.size();
  };
  Shard s;
  if (slash == std::string_view::npos || !number(text.substr(0, slash), s.index) ||
      !number(text.substr(slash + 1), s.total) || s.total < 1 || s.index < 0 || s.index >= s.total)
    throw CommandLineError(fmt::format("{} \"{}\": expected I/N with 0 <= I < N, such as 0/4", where, text));
  return s;
}

}  // namespace cmh::cli
