// SPDX-License-Identifier: MIT
// Escaping for JSON, CSV and LaTeX (see escape.hpp). One UTF-8 validator feeds
// all three, so a name is spelled the same way in every file.
#include <cmh/common/escape.hpp>

#include <cstdint>

namespace cmh::formats {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

/// The UTF-8 sequence starting at text[i]: its length and whether it is well formed
/// (Unicode's table 3-7). An ill-formed one has the length of its "maximal subpart"
/// (the lead byte and the continuation bytes that were still acceptable), which is
/// replaced by one U+FFFD: the W3C/Unicode practice, and what nlohmann's dump does.
struct Sequence {
  std::size_t length;
  bool valid;
};

Sequence utf8_sequence(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(text[k]); };
  const std::uint8_t b0 = byte(i);
  if (b0 < 0x80) return {1, true};
  std::size_t len = 0;
  std::uint8_t lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;  // no overlong forms
    if (b0 == 0xED) hi = 0x9F;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;  // no overlong forms
    if (b0 == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return {1, false};
  }
  for (std::size_t k = 1; k < len; ++k) {
    if (i + k >= text.size()) return {k, false};
    const std::uint8_t b = byte(i + k);
    const std::uint8_t min = k == 1 ? lo : 0x80, max = k == 1 ? hi : 0xBF;
    if (b < min || b > max) return {k, false};
  }
  return {len, true};
}

char hex_digit(unsigned v) { return "0123456789abcdef"[v & 0xF]; }
char upper_hex_digit(unsigned v) { return "0123456789ABCDEF"[v & 0xF]; }

}  // namespace

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const Sequence seq = utf8_sequence(text, i);
    if (seq.valid)
      out.append(text.substr(i, seq.length));
    else
      out += kReplacement;
    i += seq.length;
  }
  return out;
}

std::string json_string(std::string_view text) {
  const std::string clean = valid_utf8(text);
  std::string out;
  out.reserve(clean.size() + 2);
  out += '"';
  for (const char c : clean) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (u < 0x20 || u == 0x7F) {
          out += "\\u00";
          out += hex_digit(u >> 4);
          out += hex_digit(u);
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

std::string csv_quoted(std::string_view text) {
  const std::string clean = valid_utf8(text);
  std::string out = "\"";
  for (const char c : clean) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string csv_field(std::string_view text, char delimiter) {
  const std::string clean = valid_utf8(text);
  const bool needs_quotes = clean.find_first_of(std::string{delimiter, ' ', '"', '\r', '\n'}) != std::string::npos;
  return needs_quotes ? csv_quoted(clean) : clean;
}

std::string latex_escape(std::string_view text) {
  const std::string clean = valid_utf8(text);
  std::string out;
  out.reserve(clean.size());
  for (const char c : clean) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '#': case '$': case '%': case '&': case '_': case '{': case '}':
        out += '\\';
        out += c;
        break;
      case '\\': out += "\\textbackslash{}"; break;
      case '^': out += "\\textasciicircum{}"; break;
      case '~': out += "\\textasciitilde{}"; break;
      default:
        if (u < 0x20 || u == 0x7F) {
          out += "\\textbackslash{}x";
          out += upper_hex_digit(u >> 4);
          out += upper_hex_digit(u);
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string html_escape(std::string_view text) {
  std::string out;
  for (const char c : valid_utf8(text)) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace cmh::formats
