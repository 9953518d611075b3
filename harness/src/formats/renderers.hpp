// SPDX-License-Identifier: MIT
// The text of each result file, as pure functions of the results collected so
// far and the run's context. Writers (result_format.cpp) put the text on disk;
// tests call these directly on fixed inputs and compare with golden files.
#pragma once

#include <cmh/result.hpp>

#include "formats/machine_info.hpp"
#include "model/run_context.hpp"
#include "stats/aggregate.hpp"

#include <string>
#include <vector>

namespace cmh::formats {

/// stats::aggregate() of every benchmark, in order.
std::vector<stats::AggregatedBenchmark> aggregate_all(const RunResults& results);

/// JMH's JSON document (a top-level array), each record with a "cmh" object.
std::string render_jmh_json(const RunResults& results, const model::RunContext& ctx);

/// Google Benchmark's JSON document ({"context": ..., "benchmarks": [...]}).
std::string render_gbench_json(const RunResults& results, const model::RunContext& ctx,
                               const MachineInfo& machine);

/// JMH's CSV (delimiter ',') or SCSV (';'), with "\r\n" line ends.
std::string render_xsv(const RunResults& results, char delimiter);

/// JMH's LaTeX tabular.
std::string render_latex(const RunResults& results);

/// A self-contained HTML page with inline SVG charts (formats/html.cpp).
std::string render_html(const RunResults& results, const model::RunContext& ctx);

/// The console's summary table (the report's own function), as -rf text writes it.
std::string render_text(const RunResults& results);

}  // namespace cmh::formats
