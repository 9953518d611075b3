// SPDX-License-Identifier: MIT
// exact_number() and friends (see exact_text.hpp); the digits are the harness's
// (formats/numbers.hpp), so -rf html and cmh-compare spell an exact metric alike.
#include "exact_text.hpp"

#include <cmh/common/numbers.hpp>

#include <fmt/format.h>

namespace cmh::compare {

std::string exact_number(double v) { return formats::exact_decimal(v); }

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
