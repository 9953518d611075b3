// SPDX-License-Identifier: MIT
// Typed access to a parsed result document that turns every surprise into an
// InputError naming the file and the JSON path, instead of a nlohmann exception.
#pragma once

#include <cmh/results/model.hpp>

#include <nlohmann/json.hpp>

#include <string>

namespace cmh::results {

using Json = nlohmann::json;

class JsonReader {
 public:
  explicit JsonReader(std::string path) : path_(std::move(path)) {}
  [[noreturn]] void fail(const std::string& where, const std::string& what) const;
  const Json& member(const Json& object, const char* key, const std::string& where) const;
  std::string string(const Json& object, const char* key, const std::string& where) const;
  /// A number, or JMH's "NaN"/"+INF"/"-INF" strings, or null (Google Benchmark's NaN, as cmh writes it).
  double number(const Json& value, const std::string& where) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace cmh::results
