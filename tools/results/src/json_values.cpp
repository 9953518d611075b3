// SPDX-License-Identifier: MIT
#include "json_values.hpp"

#include <limits>

namespace cmh::results {

void JsonReader::fail(const std::string& where, const std::string& what) const {
  throw InputError(path_ + ": " + (where.empty() ? "" : where + ": ") + what);
}

const Json& JsonReader::member(const Json& object, const char* key, const std::string& where) const {
  if (!object.is_object()) fail(where, "expected an object");
  const auto it = object.find(key);
  if (it == object.end()) fail(where, std::string("missing \"") + key + "\"");
  return *it;
}

std::string JsonReader::string(const Json& object, const char* key, const std::string& where) const {
  const Json& v = member(object, key, where);
  if (!v.is_string()) fail(where, std::string("\"") + key + "\" is not a string");
  return v.get<std::string>();
}

double JsonReader::number(const Json& value, const std::string& where) const {
  if (value.is_number()) return value.get<double>();
  if (value.is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (value.is_string()) {
    const auto& s = value.get_ref<const std::string&>();
    if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (s == "+INF" || s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-INF" || s == "-Infinity") return -std::numeric_limits<double>::infinity();
  }
  fail(where, "expected a number, got " + value.dump());
}

}  // namespace cmh::results
