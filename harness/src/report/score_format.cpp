// SPDX-License-Identifier: MIT
// Number, time and column formatting for the console report and the text table.
#include "report/score_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace cmh::report {
namespace {

constexpr double kUlp = 0.001;  // one unit in the last printed place

std::string superscript(long long power) {
  static constexpr std::array<std::string_view, 10> kDigits = {"⁰", "¹", "²", "³", "⁴",
                                                              "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string out = power < 0 ? "⁻" : "";
  for (char c : std::to_string(power < 0 ? -power : power)) out += kDigits[static_cast<std::size_t>(c - '0')];
  return out;
}

}  // namespace

bool is_approximate(double score) { return score < kUlp / 2; }

std::string format_score(double score, std::size_t width) {
  std::string text;
  if (std::isnan(score)) {
    text = "NaN";
  } else if (std::isinf(score) && score > 0) {
    text = "Infinity";
  } else if (is_approximate(score)) {
    text = score > 0 ? "≈ 10" + superscript(std::llround(std::log10(score))) : "≈ 0";
  } else {
    text = fmt::format("{:.{}f}", score, kScorePrecision);
  }
  return pad_left(text, width);
}

std::string format_error(double error, std::size_t width) {
  if (std::isnan(error)) return pad_left("NaN", width);
  return pad_left(fmt::format("{:.{}f}", std::max(error, kUlp), kScorePrecision), width);
}

std::string format_duration(std::chrono::seconds d) {
  long long total = d.count() < 0 ? 0 : d.count();
  const long long days = total / 86400;
  total %= 86400;
  const std::string clock = fmt::format("{:02}:{:02}:{:02}", total / 3600, total / 60 % 60, total % 60);
  if (days == 0) return clock;
  return fmt::format("{} day{}, {}", days, days == 1 ? "" : "s", clock);
}

std::string format_time(Nanos t) {
  struct Unit {
    long long nanos;
    std::string_view label;
  };
  static constexpr std::array<Unit, 7> kUnits = {{{86'400'000'000'000, "day"},
                                                  {3'600'000'000'000, "hr"},
                                                  {60'000'000'000, "min"},
                                                  {1'000'000'000, "s"},
                                                  {1'000'000, "ms"},
                                                  {1'000, "us"},
                                                  {1, "ns"}}};
  const long long n = t.count();
  for (const auto& u : kUnits)
    if (n != 0 && n % u.nanos == 0) return fmt::format("{} {}", n / u.nanos, u.label);
  return fmt::format("{} ns", n);
}

std::size_t display_width(std::string_view s) {
  std::size_t width = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++width;
  return width;
}

std::string pad_left(std::string_view s, std::size_t width) {
  const std::size_t w = display_width(s);
  std::string out(w < width ? width - w : 0, ' ');
  out += s;
  return out;
}

std::string pad_right(std::string_view s, std::size_t width) {
  const std::size_t w = display_width(s);
  std::string out(s);
  out.append(w < width ? width - w : 0, ' ');
  return out;
}

}  // namespace cmh::report
