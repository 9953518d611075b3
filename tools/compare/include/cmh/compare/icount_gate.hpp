// SPDX-License-Identifier: MIT
// Counted metrics (cmh -prof icount: icount.ir.norm, icount.cycles.norm, ...): the same
// code gives the same counts, so two runs are compared by the difference, not by a
// significance test, and gated like iai-callgrind's limits:
//  - soft, relative: --icount-threshold P% (icount.ir.norm and icount.cycles.norm;
//    default: the global --threshold), or --icount-threshold METRIC=P%|off for one;
//  - hard, absolute: --icount-limit METRIC=N fails when the new value exceeds N per op,
//    --icount-limit METRIC=+N when it grew by more than N per op.
// Figures from different counting models (Valgrind version, cache geometry, formula,
// as recorded in cmh's notes) are not compared.
#pragma once

#include <cmh/compare/model.hpp>

#include <map>
#include <optional>
#include <string>

namespace cmh::compare {

struct CompareOptions;
struct MetricComparison;

struct IcountLimit {
  double value = 0;
  bool increase = false;  ///< +N: a limit on new - base; otherwise on the new value
};

struct IcountGates {
  std::optional<double> threshold;  ///< --icount-threshold P%; nullopt: the global --threshold
  std::map<std::string, std::optional<double>> metric_thresholds;  ///< by key; nullopt: off
  std::map<std::string, IcountLimit> limits;                       ///< by key
};

// is_icount_metric (tools/results, through model.hpp): the counted metrics -prof icount
// reports (icount.*.norm; its overhead is compared too, but gated only by --threshold
// icount.overhead.norm=P%).

/// "ir" -> "icount.ir.norm"; a full key is kept. Throws InputError for anything else.
std::string icount_key(const std::string& name, const std::string& option);

/// --icount-threshold VALUE and --icount-limit VALUE into `gates`; throw InputError.
void parse_icount_threshold(const std::string& value, IcountGates& gates);
void parse_icount_limit(const std::string& value, IcountGates& gates);

/// Completes the comparison of one counted metric (compare_metric has filled in the
/// names and scores and the ratio): difference, verdict and gates, no test.
void gate_counted(const Metric& base, const Metric& contender, const CompareOptions& options, MetricComparison& mc);

}  // namespace cmh::compare
