// SPDX-License-Identifier: MIT
// The g++ row of the allocator stress suite (bench/alloc/stress/run): checked with
// `g++ -std=c++20 -fsyntax-only` under each allocator (the g++ driver and cc1plus both get
// LD_PRELOAD): the front end parsing the standard headers and instantiating templates.
#include <algorithm>
#include <map>
#include <regex>
#include <string>
#include <unordered_map>
#include <vector>

template <int N>
struct Unroll {
  static int sum(const std::vector<int>& v) { return v[N % v.size()] + Unroll<N - 1>::sum(v); }
};
template <>
struct Unroll<0> {
  static int sum(const std::vector<int>& v) { return v[0]; }
};

int count_words(const std::string& text) {
  std::map<std::string, int> counts;
  std::unordered_map<std::string, std::vector<int>> where;
  const std::regex word("[a-z]+");
  int i = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), word); it != std::sregex_iterator(); ++it, ++i) {
    ++counts[it->str()];
    where[it->str()].push_back(i);
  }
  std::vector<std::pair<int, std::string>> order;
  for (const auto& [w, n] : counts) order.emplace_back(n, w);
  std::sort(order.begin(), order.end());
  return static_cast<int>(order.size() + where.size()) + Unroll<200>::sum({1, 2, 3});
}
