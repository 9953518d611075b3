// SPDX-License-Identifier: MIT
// exact_number() and friends (see exact_text.hpp).
#include "exact_text.hpp"

#include <fmt/format.h>

#include <cmath>

namespace cmh::compare {
namespace {

/// Commas in the integer digits of a plain decimal ("-1234567.5" -> "-1,234,567.5").
std::string group_thousands(const std::string& plain) {
  const std::size_t sign = !plain.empty() && (plain[0] == '-' || plain[0] == '+') ? 1 : 0;
  std::size_t end = plain.find('.');
  if (end == std::string::npos) end = plain.size();
  std::string out = plain.substr(0, sign);
  for (std::size_t i = sign; i < end; ++i) {
    if (i > sign && (end - i) % 3 == 0) out += ',';
    out += plain[i];
  }
  return out + plain.substr(end);
}

}  // namespace

std::string exact_number(double v) {
  if (!std::isfinite(v)) return std::isnan(v) ? "NaN" : v > 0 ? "inf" : "-inf";
  // Integers below 2^53 are whole numbers of bytes or allocations: no exponent, no ".0".
  if (v == std::trunc(v) && std::fabs(v) < 9007199254740992.0) return group_thousands(fmt::format("{:.0f}", v));
  const std::string shortest = fmt::format("{}", v);
  return shortest.find_first_of("eE") == std::string::npos ? group_thousands(shortest) : shortest;
}

std::string exact_difference(double base, double now) {
  const double d = now - base;
  if (d == 0) return "0";
  return (d > 0 ? "+" : "") + exact_number(d);
}

std::string exact_ratio(double base, double now) {
  const std::string ratio = base != 0 ? fmt::format("{:.7g}", now / base) : std::string(now == 0 ? "1" : "inf");
  return ratio + " (" + exact_difference(base, now) + ")";
}

}  // namespace cmh::compare
