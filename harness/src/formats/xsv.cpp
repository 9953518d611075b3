// SPDX-License-Identifier: MIT
// -rf csv / -rf scsv: JMH's XSV layout (jmh.md section 4.2): header, one row per
// primary and per secondary result, "\r\n" line ends, JMH's quoting rules. Unlike
// JMH the numbers do not follow the locale: always '.' and six decimals, so a
// file reads the same everywhere (SCSV stays for Excel in comma-decimal locales).
// A failed benchmark is a single row with NaN score and error and 0 samples. Two
// columns after the params, "NUMA" and "Allocator Options", carry the forks' own
// allocator decisions (JMH has no such columns; readers that go by name ignore them).
#include "stats/nan.hpp"
#include <cmh/common/escape.hpp>
#include "formats/labels.hpp"
#include <cmh/common/numbers.hpp>
#include "formats/renderers.hpp"
#include "model/allocator_state.hpp"

#include <limits>
#include <set>

namespace cmh::formats {
namespace {


// The last two columns (not in JMH's layout) say what each fork's allocator decided.
struct ForkColumns {
  std::string numa, options;
};

void append_row(std::string& out, char delim, const std::string& label, const BenchmarkParams& p,
                const std::set<std::string>& param_keys, std::uint64_t samples, double score, double error,
                const std::string& unit, const ForkColumns& fork) {
  out += csv_quoted(label);
  out += delim;
  out += csv_quoted(mode_short_label(p.mode));
  out += delim;
  out += std::to_string(p.threads);
  out += delim;
  out += std::to_string(samples);
  out += delim;
  out += csv_field(fixed(score, 6), delim);
  out += delim;
  out += csv_field(fixed(error, 6), delim);
  out += delim;
  out += csv_quoted(unit);
  for (const auto& key : param_keys) {
    out += delim;
    for (const auto& [k, v] : p.params)
      if (k == key) out += csv_field(v, delim);
  }
  out += delim;
  out += csv_quoted(fork.numa);
  out += delim;
  out += csv_quoted(fork.options);
  out += "\r\n";
}

}  // namespace

std::string render_xsv(const RunResults& results, char delim) {
  const auto aggregated = aggregate_all(results);
  std::set<std::string> param_keys;  // sorted, as JMH's TreeSet
  for (const auto& run : results.benchmarks)
    for (const auto& [key, value] : run.params.params) param_keys.insert(key);

  std::string out;
  for (const char* column : {"Benchmark", "Mode", "Threads", "Samples", "Score", "Score Error (99.9%)", "Unit"}) {
    if (!out.empty()) out += delim;
    out += csv_quoted(column);
  }
  for (const auto& key : param_keys) {
    out += delim;
    out += csv_quoted("Param: " + key);
  }
  for (const char* column : {"NUMA", "Allocator Options"}) {
    out += delim;
    out += csv_quoted(column);
  }
  out += "\r\n";

  for (const auto& agg : aggregated) {
    const BenchmarkParams& p = agg.run->params;
    const ForkColumns fork{model::forks_numa_text(agg.run->forks), model::forks_options_text(agg.run->forks)};
    if (agg.run->failed() || !agg.has_results()) {
      // CSV has no place for a failure: a failed benchmark is one row of NaN, as the
      // summary table shows FAILED, so no reader mistakes a partial score for a result.
      append_row(out, delim, p.benchmark, p, param_keys, 0, kNaN, kNaN, primary_unit_of(agg, p), fork);
      continue;
    }
    append_row(out, delim, p.benchmark, p, param_keys, agg.primary.n, agg.primary.score, agg.primary.error,
               primary_unit_of(agg, p), fork);
    for (const auto& m : agg.secondaries)
      append_row(out, delim, p.benchmark + ":" + m.label, p, param_keys, m.n, m.score, m.error, m.unit, fork);
  }
  return out;
}

}  // namespace cmh::formats
