// SPDX-License-Identifier: MIT
// The built-in conversions of parameter values (cmh::param) from their strings:
// decimal integers, range-checked, with an optional '+'; floating point; true/false;
// one char; any text for std::string. Compiled once here rather than in every
// benchmark file that declares a parameter.
#include <cmh/param.hpp>

#include <charconv>
#include <string>
#include <system_error>

namespace cmh::detail {
namespace {

template <class T>
bool parse_number(std::string_view text, T& out) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  const char* end = text.data() + text.size();
  T value{};
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) return false;
  out = value;
  return true;
}

}  // namespace

bool parse_param(std::string_view text, bool& out) {
  if (text == "true") return out = true, true;
  if (text == "false") return out = false, true;
  return false;
}

bool parse_param(std::string_view text, char& out) {
  if (text.size() != 1) return false;
  out = text[0];
  return true;
}

bool parse_param(std::string_view text, signed char& out) { return parse_number(text, out); }
bool parse_param(std::string_view text, unsigned char& out) { return parse_number(text, out); }
bool parse_param(std::string_view text, short& out) { return parse_number(text, out); }
bool parse_param(std::string_view text, unsigned short& out) { return parse_number(text, out); }
bool parse_param(std::string_view text, int& out) { return parse_number(text, out); }
bool parse_param(std::string_view text, unsigned& out) { return parse_number(text, out); }
bool parse_param(std::string_view text, long& out) { return parse_number(text, out); }
bool parse_param(std::string_view text, unsigned long& out) { return parse_number(text, out); }
bool parse_param(std::string_view text, long long& out) { return parse_number(text, out); }
bool parse_param(std::string_view text, unsigned long long& out) { return parse_number(text, out); }
bool parse_param(std::string_view text, float& out) { return parse_number(text, out); }
bool parse_param(std::string_view text, double& out) { return parse_number(text, out); }
bool parse_param(std::string_view text, long double& out) { return parse_number(text, out); }

bool parse_param(std::string_view text, std::string& out) {
  out.assign(text);
  return true;
}

}  // namespace cmh::detail
