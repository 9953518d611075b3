// SPDX-License-Identifier: MIT
// Locale-independent number spellings for the result files (see numbers.hpp).
// std::to_chars is used throughout because, unlike printf and iostreams, it never
// consults the C or C++ locale, so a comma-decimal locale cannot leak into a file.
#include <cmh/common/numbers.hpp>

#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>

namespace cmh::formats {
namespace {

std::string non_finite(double v) {
  if (std::isnan(v)) return "NaN";
  return v > 0 ? "Infinity" : "-Infinity";
}

}  // namespace

std::string java_double(double v) {
  if (!std::isfinite(v)) return non_finite(v);
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";

  // Shortest round-trip digits in scientific form: "d.ddde±XX".
  std::array<char, 64> buf{};
  auto res = std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::scientific);
  if (std::string_view(buf.data(), static_cast<std::size_t>(res.ptr - buf.data())).find('.') ==
      std::string_view::npos) {
    // One shortest digit ("5e-324"): Java always prints two ("4.9E-324") and picks the
    // two-digit decimal nearest the exact value, which is correct rounding to 2 digits.
    res = std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::scientific, 1);
  }
  const std::string_view sci(buf.data(), static_cast<std::size_t>(res.ptr - buf.data()));

  std::string out;
  std::size_t pos = 0;
  if (sci[0] == '-') {
    out += '-';
    pos = 1;
  }
  const std::size_t e_at = sci.find('e');
  std::string digits;
  for (std::size_t i = pos; i < e_at; ++i)
    if (sci[i] != '.') digits += sci[i];
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();  // the 2-digit path may add one
  const int exp10 = std::atoi(std::string(sci.substr(e_at + 1)).c_str());  // value = d.ddd x 10^exp10

  const double magnitude = std::fabs(v);
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    if (exp10 >= 0) {
      const auto int_len = static_cast<std::size_t>(exp10) + 1;
      if (digits.size() <= int_len) {
        out += digits;
        out.append(int_len - digits.size(), '0');
        out += ".0";
      } else {
        out += digits.substr(0, int_len);
        out += '.';
        out += digits.substr(int_len);
      }
    } else {
      out += "0.";
      out.append(static_cast<std::size_t>(-exp10 - 1), '0');
      out += digits;
    }
    return out;
  }
  out += digits[0];
  out += '.';
  out += digits.size() > 1 ? digits.substr(1) : "0";
  out += 'E';
  out += std::to_string(exp10);
  return out;
}

std::string fixed(double v, int decimals) {
  if (!std::isfinite(v)) return non_finite(v);
  // 1e308 in fixed notation needs 309 integer digits plus the decimals.
  std::array<char, 400> buf{};
  decimals = decimals < 0 ? 0 : decimals > 17 ? 17 : decimals;
  const auto res = std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::fixed, decimals);
  return std::string(buf.data(), res.ptr);
}

}  // namespace cmh::formats

namespace cmh::formats {

std::string exact_decimal(double v) {
  if (!std::isfinite(v)) return std::isnan(v) ? "NaN" : v > 0 ? "inf" : "-inf";
  std::array<char, 64> buf{};
  // Whole numbers below 2^53 are counts: no exponent, no ".0". Otherwise the shortest
  // digits that read back exactly, plain where to_chars chooses plain.
  const bool whole = v == std::trunc(v) && std::fabs(v) < 9007199254740992.0;
  const auto res = whole ? std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::fixed, 0)
                         : std::to_chars(buf.data(), buf.data() + buf.size(), v);
  const std::string plain(buf.data(), res.ptr);
  if (plain.find_first_of("eE") != std::string::npos) return plain;
  const std::size_t sign = plain[0] == '-' ? 1 : 0;
  std::size_t end = plain.find('.');
  if (end == std::string::npos) end = plain.size();
  std::string out = plain.substr(0, sign);
  for (std::size_t i = sign; i < end; ++i) {
    if (i > sign && (end - i) % 3 == 0) out += ',';
    out += plain[i];
  }
  return out + plain.substr(end);
}

}  // namespace cmh::formats
