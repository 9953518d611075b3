// SPDX-License-Identifier: MIT
// Gating counted metrics by their difference (see icount_gate.hpp).
#include <cmh/compare/icount_gate.hpp>

#include "command_line.hpp"
#include <cmh/compare/comparison.hpp>

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

namespace cmh::compare {
namespace {

constexpr const char* kNames = "ir, cycles, l1miss, llmiss or branchmiss";

/// The metrics the plain --icount-threshold gates; the miss counts only when named.
bool gated_by_default(const std::string& key) { return key == "icount.ir.norm" || key == "icount.cycles.norm"; }

std::optional<double> soft_threshold(const std::string& key, const CompareOptions& o) {
  if (const auto it = o.icount.metric_thresholds.find(key); it != o.icount.metric_thresholds.end()) return it->second;
  if (const auto it = o.metric_thresholds.find(key); it != o.metric_thresholds.end()) return it->second;
  if (gated_by_default(key)) return o.icount.threshold.value_or(o.threshold);
  return std::nullopt;
}

std::string signed_count(double v) {
  const double r = std::round(v);
  return std::fabs(v - r) < 5e-4 ? fmt::format("{:+.0f}", r) : fmt::format("{:+.3f}", v);
}

}  // namespace

std::string icount_key(const std::string& name, const std::string& option) {
  for (const char* short_name : {"ir", "cycles", "l1miss", "llmiss", "branchmiss"})
    if (name == short_name) return "icount." + name + ".norm";
  if (is_icount_metric(name) && name != "icount.overhead.norm") return name;
  throw InputError(option + ": unknown counted metric '" + name + "' (" + kNames + ")");
}

void parse_icount_threshold(const std::string& value, IcountGates& gates) {
  const std::string option = "--icount-threshold " + value;
  const std::size_t eq = value.find('=');
  if (eq == std::string::npos) {
    gates.threshold = parse_percent(value, "--icount-threshold");
    return;
  }
  const std::string key = icount_key(value.substr(0, eq), option);
  const std::string limit = value.substr(eq + 1);
  gates.metric_thresholds[key] = limit == "off" ? std::nullopt : std::optional<double>(parse_percent(limit, option));
}

void parse_icount_limit(const std::string& value, IcountGates& gates) {
  const std::string option = "--icount-limit " + value;
  const std::size_t eq = value.find('=');
  if (eq == std::string::npos) throw InputError(option + ": expected METRIC=N or METRIC=+N (" + kNames + ")");
  const std::string key = icount_key(value.substr(0, eq), option);
  std::string text = value.substr(eq + 1);
  IcountLimit limit;
  if (!text.empty() && text.front() == '+') {
    limit.increase = true;
    text.erase(0, 1);
  }
  char* end = nullptr;
  limit.value = text.empty() ? NAN : std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(limit.value) || limit.value < 0)
    throw InputError(option + ": expected a count per op such as 1500 or +200");
  gates.limits[key] = limit;
}

void gate_counted(const Metric& base, const Metric& contender, const CompareOptions& o, MetricComparison& mc) {
  mc.base_error = mc.new_error = NAN;  // counts have no error: the same code counts the same
  mc.exact = true;
  mc.samples = "counted";
  mc.base_n = mc.new_n = 1;
  mc.difference = contender.score - base.score;
  mc.threshold.reset();
  if (!base.model.empty() && !contender.model.empty() && base.model != contender.model) {
    mc.verdict = "not comparable";
    mc.note = "counting models differ: base " + base.model + "; new " + contender.model;
    return;
  }
  const double tol = 1e-9 * std::max(std::fabs(base.score), std::fabs(contender.score));
  const bool same = std::fabs(*mc.difference) <= tol;
  mc.verdict = same ? "same" : *mc.difference > 0 ? "worse" : "better";
  mc.significant = !same;
  mc.threshold = soft_threshold(mc.key, o);
  const double worsening = mc.ratio_point - 1.0;
  std::string why;
  if (mc.verdict == "worse" && mc.threshold && worsening > *mc.threshold)
    why = fmt::format("> {:g}%", *mc.threshold * 100);
  if (const auto it = o.icount.limits.find(mc.key); it != o.icount.limits.end()) {
    const IcountLimit& limit = it->second;
    const bool past = limit.increase ? *mc.difference > limit.value : contender.score > limit.value;
    if (past)
      why += (why.empty() ? "" : ", ") +
             (limit.increase ? fmt::format("grew by more than {:g}", limit.value) : fmt::format("> {:g}", limit.value));
  }
  mc.regression = !why.empty();
  mc.gate_text = why;
  mc.note = "difference " + signed_count(*mc.difference) + " " + mc.unit;
}

}  // namespace cmh::compare
