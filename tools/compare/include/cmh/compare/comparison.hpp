// SPDX-License-Identifier: MIT
// Pairing the records of two result files (or of one file against a baseline
// benchmark) and comparing every metric present on both sides.
#pragma once

#include <cmh/compare/icount_gate.hpp>
#include <cmh/compare/model.hpp>
#include <cmh/compare/significance.hpp>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cmh::compare {

enum class Test { welch, u, both };

struct CompareOptions {
  double alpha = 0.05;  ///< significance level; the ratio interval is at 1 - alpha
  Test test = Test::welch;
  /// Allowed relative worsening (0.05 = 5 %). The global one gates the primary score
  /// and the exact metrics; a per-metric one gates that metric (nullopt: never gates).
  double threshold = 0.0;
  std::map<std::string, std::optional<double>> metric_thresholds;  ///< by metric key
  std::set<std::string> ignore_params;
  bool robust = false;  ///< --metric robust: the robust estimate stands in for the score
  IcountGates icount;  ///< counted metrics (-prof icount), compared by their difference
};

struct MetricComparison {
  std::string label;  ///< as the new side spells it
  std::string key;
  std::string unit;
  double base_score = 0, base_error = 0, new_score = 0, new_error = 0;
  std::optional<RatioInterval> ratio;  ///< with the interval; for exact metrics only the ratio
  double ratio_point = 0;              ///< new / base, also when no interval can be given
  std::string samples;                 ///< "forks", "iterations", "repetitions", "summary", "exact"
  int base_n = 0, new_n = 0;
  std::optional<WelchResult> welch;
  std::optional<MannWhitneyResult> mwu;
  bool exact = false;
  bool higher_is_better = false;
  bool significant = false;
  std::string verdict;       ///< "better", "worse", "no change", "same", "no test (n < 2)"
  std::optional<double> threshold;  ///< the gate that applies, if any
  bool regression = false;   ///< worse past the gate
  std::string note;          ///< e.g. the unit conversion made
  std::optional<double> difference;  ///< new - base, for counted metrics (icount_gate.hpp)
  std::string gate_text;     ///< what the regression passed when not a plain threshold ("> 1500")
  std::vector<double> base_samples, new_samples;  ///< what the tests ran on (for charts)
};

struct BenchmarkComparison {
  std::string name;          ///< new side's benchmark
  std::string base_name;     ///< differs with --baseline
  std::string mode;
  std::map<std::string, std::string> params;
  std::map<std::string, std::string> base_params;
  std::vector<MetricComparison> metrics;
  std::string skipped;       ///< why nothing was compared (a side failed, units differ)
};

struct Comparison {
  std::string base_path, new_path, base_format, new_format;
  std::vector<BenchmarkComparison> benchmarks;
  std::vector<std::string> only_in_base, only_in_new;
  std::vector<std::string> warnings;
  bool regression() const;
};

/// Matches the records of `base` and `contender` by name, mode and parameters
/// (less the ignored ones) and compares them.
Comparison compare_files(const ResultFile& base, const ResultFile& contender, const CompareOptions& options);

/// One file: every record compared with the baseline record it matches. `selector`
/// is NAME or NAME:key=value[,key=value]; the named keys may differ between the pair,
/// every other parameter and the mode must agree. Throws InputError if nothing is NAME.
Comparison compare_within(const ResultFile& file, const std::string& selector, const CompareOptions& options);

/// Compares one metric of a matched pair (exposed for tests).
MetricComparison compare_metric(const Metric& base, const Metric& contender, const CompareOptions& options,
                                bool primary);

/// "name (k=v, k2=v2) mode" for messages and tables.
std::string describe(const std::string& name, const std::map<std::string, std::string>& params,
                     const std::string& mode);

}  // namespace cmh::compare
