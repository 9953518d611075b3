// SPDX-License-Identifier: MIT
// The pairs behind <cmh/detail/custom_context.hpp>, kept for the host's RunContext.
#include <cmh/detail/custom_context.hpp>

#include <algorithm>

namespace cmh::detail {
namespace {

std::vector<std::pair<std::string, std::string>>& pairs() {
  static std::vector<std::pair<std::string, std::string>> p;
  return p;
}

}  // namespace

bool add_custom_context(std::string key, std::string value) {
  auto& p = pairs();
  if (std::any_of(p.begin(), p.end(), [&](const auto& kv) { return kv.first == key; })) return false;
  p.emplace_back(std::move(key), std::move(value));
  return true;
}

const std::vector<std::pair<std::string, std::string>>& custom_context() { return pairs(); }

}  // namespace cmh::detail
