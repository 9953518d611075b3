// SPDX-License-Identifier: MIT
// See cpu_list.hpp.
#include <cmh/machine/cpu_list.hpp>

#include <algorithm>
#include <charconv>

namespace cmh::machine {

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::optional<int> parse_cpu(std::string_view s) {
  int v = -1;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || v < 0 || v > kMaxCpu) return std::nullopt;
  return v;
}

void normalise(std::vector<int>& cpus) {
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
}

}  // namespace

std::optional<std::vector<int>> parse_cpu_list(std::string_view text) {
  text = trimmed(text);
  std::vector<int> cpus;
  if (text.empty()) return cpus;
  while (true) {
    const auto comma = text.find(',');
    const std::string_view item = trimmed(text.substr(0, comma));
    const auto dash = item.find('-');
    const auto first = parse_cpu(item.substr(0, dash));
    const auto last = dash == std::string_view::npos ? first : parse_cpu(item.substr(dash + 1));
    if (!first || !last || *last < *first) return std::nullopt;
    for (int c = *first; c <= *last; ++c) cpus.push_back(c);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  normalise(cpus);
  return cpus;
}

std::string format_cpu_list(const std::vector<int>& cpus) {
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(cpus[i]);
    if (j > i) out += (j == i + 1 ? "," : "-") + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

std::optional<std::vector<int>> parse_cpu_mask(std::string_view text) {
  text = trimmed(text);
  if (text.empty()) return std::nullopt;
  std::vector<int> cpus;
  int bit = 0;
  // From the least significant (last) hex digit up; commas only separate words.
  for (auto it = text.rbegin(); it != text.rend(); ++it) {
    const char c = *it;
    if (c == ',') continue;
    int v = -1;
    if (c >= '0' && c <= '9') v = c - '0';
    else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
    if (v < 0) return std::nullopt;
    for (int b = 0; b < 4; ++b)
      if ((v >> b) & 1) {
        if (bit + b > kMaxCpu) return std::nullopt;
        cpus.push_back(bit + b);
      }
    bit += 4;
  }
  normalise(cpus);
  return cpus;
}

std::string format_cpu_mask(const std::vector<int>& cpus, std::size_t words) {
  const int highest = cpus.empty() ? 0 : *std::max_element(cpus.begin(), cpus.end());
  words = std::max(words, static_cast<std::size_t>(highest / 32 + 1));
  std::vector<unsigned> w(words, 0);
  for (int c : cpus) w[static_cast<std::size_t>(c / 32)] |= 1u << (c % 32);
  std::string out;
  static constexpr char kHex[] = "0123456789abcdef";
  for (std::size_t i = words; i-- > 0;) {
    if (!out.empty()) out += ',';
    for (int shift = 28; shift >= 0; shift -= 4) out += kHex[(w[i] >> shift) & 0xf];
  }
  return out;
}

std::size_t mask_words(std::string_view text) {
  text = trimmed(text);
  return text.empty() ? 1 : static_cast<std::size_t>(std::count(text.begin(), text.end(), ',')) + 1;
}

std::vector<int> cpus_minus(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

std::vector<int> cpus_common(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

bool cpus_contain(const std::vector<int>& set, int cpu) { return std::binary_search(set.begin(), set.end(), cpu); }

}  // namespace cmh::machine
