// SPDX-License-Identifier: MIT
// The JMH-layout JSON printer (see tidy_json.hpp). JMH prints its document on one
// line and then re-indents it character by character: a newline after every `{`,
// `[` and `,`, and before every `}` and `]`. This printer produces the same text
// directly from the document tree.
#include "formats/tidy_json.hpp"

#include <cmh/common/escape.hpp>
#include <cmh/common/numbers.hpp>

#include <cmath>

namespace cmh::formats {
namespace {

constexpr int kIndent = 4;

void newline(std::string& out, int depth) {
  out += '\n';
  out.append(static_cast<std::size_t>(depth * kIndent), ' ');
}

std::string jmh_double(double v) {
  if (std::isnan(v)) return "\"NaN\"";
  if (std::isinf(v)) return v > 0 ? "\"+INF\"" : "\"-INF\"";
  return java_double(v);
}

void print(const nlohmann::ordered_json& value, int depth, std::string& out) {
  using Type = nlohmann::ordered_json::value_t;
  switch (value.type()) {
    case Type::object: {
      out += '{';
      bool first = true;
      for (auto it = value.begin(); it != value.end(); ++it) {
        if (!first) out += ',';
        first = false;
        newline(out, depth + 1);
        out += json_string(it.key());
        out += " : ";
        print(it.value(), depth + 1, out);
      }
      newline(out, depth);
      out += '}';
      break;
    }
    case Type::array: {
      out += '[';
      bool first = true;
      for (const auto& element : value) {
        if (!first) out += ',';
        first = false;
        newline(out, depth + 1);
        print(element, depth + 1, out);
      }
      newline(out, depth);
      out += ']';
      break;
    }
    case Type::string: out += json_string(value.get_ref<const std::string&>()); break;
    case Type::number_float: out += jmh_double(value.get<double>()); break;
    case Type::number_integer: out += std::to_string(value.get<std::int64_t>()); break;
    case Type::number_unsigned: out += std::to_string(value.get<std::uint64_t>()); break;
    case Type::boolean: out += value.get<bool>() ? "true" : "false"; break;
    case Type::null:
    case Type::discarded:
    case Type::binary: out += "null"; break;
  }
}

}  // namespace

std::string tidy_json(const nlohmann::ordered_json& doc) {
  std::string out;
  print(doc, 0, out);
  out += '\n';
  return out;
}

}  // namespace cmh::formats
