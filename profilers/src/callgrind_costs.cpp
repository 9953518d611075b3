// SPDX-License-Identifier: MIT
// Parsing a Callgrind dump's event totals (see callgrind_costs.hpp).
#include "callgrind_costs.hpp"

#include <charconv>
#include <utility>
#include <string>
#include <vector>

namespace cmh::profilers {
namespace {

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

/// Every event this profiler reads, by Callgrind's name.
constexpr std::pair<std::string_view, double CallgrindCounts::*> kEvents[] = {
    {"Ir", &CallgrindCounts::ir},     {"Dr", &CallgrindCounts::dr},     {"Dw", &CallgrindCounts::dw},
    {"I1mr", &CallgrindCounts::i1mr}, {"D1mr", &CallgrindCounts::d1mr}, {"D1mw", &CallgrindCounts::d1mw},
    {"ILmr", &CallgrindCounts::ilmr}, {"DLmr", &CallgrindCounts::dlmr}, {"DLmw", &CallgrindCounts::dlmw},
    {"Bc", &CallgrindCounts::bc},     {"Bcm", &CallgrindCounts::bcm},   {"Bi", &CallgrindCounts::bi},
    {"Bim", &CallgrindCounts::bim},
};

double* slot(CallgrindCounts& c, std::string_view event) {
  for (const auto& [name, member] : kEvents)
    if (name == event) return &(c.*member);
  return nullptr;
}

}  // namespace

CallgrindCounts CallgrindCounts::minus(const CallgrindCounts& o, double k) const {
  CallgrindCounts r = *this;
  for (const auto& [name, member] : kEvents) r.*member -= k * (o.*member);
  return r;
}

CallgrindCounts CallgrindCounts::references_only() const {
  CallgrindCounts r = *this;
  r.i1mr = r.d1mr = r.d1mw = r.ilmr = r.dlmr = r.dlmw = r.bcm = r.bim = 0;
  return r;
}

std::optional<CallgrindCounts> parse_callgrind_dump(std::string_view text, std::string& error) {
  std::vector<std::string_view> events, summary, totals;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    const auto after = [&](std::string_view key) { return words(line.substr(key.size())); };
    if (line.starts_with("events:")) events = after("events:");
    else if (line.starts_with("summary:")) summary = after("summary:");
    else if (line.starts_with("totals:")) totals = after("totals:");
  }
  if (events.empty()) {
    error = "no \"events:\" line";
    return std::nullopt;
  }
  // "summary:" is the dump's total; "totals:" (the sum of the listed costs) only stands in
  // where a writer left the summary out.
  const std::vector<std::string_view>& values = summary.empty() ? totals : summary;
  if (values.empty()) {
    error = "no \"summary:\" line";
    return std::nullopt;
  }
  if (values.size() > events.size()) {
    error = "more totals than events";
    return std::nullopt;
  }
  CallgrindCounts c;
  for (std::size_t i = 0; i < events.size(); ++i) {
    double* s = slot(c, events[i]);
    if (events[i] == "I1mr") c.cache_sim = true;
    if (events[i] == "Bcm") c.branch_sim = true;
    if (s == nullptr || i >= values.size()) continue;  // trailing zero costs may be left out
    unsigned long long v = 0;
    const auto [ptr, ec] = std::from_chars(values[i].data(), values[i].data() + values[i].size(), v);
    if (ec != std::errc() || ptr != values[i].data() + values[i].size()) {
      error = "the total of " + std::string(events[i]) + " is not a count: '" + std::string(values[i]) + "'";
      return std::nullopt;
    }
    *s = static_cast<double>(v);
  }
  return c;
}

}  // namespace cmh::profilers
