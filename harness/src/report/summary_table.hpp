// SPDX-License-Identifier: MIT
// JMH's summary table (TextResultFormat) for the end of the console report and
// for `-rf text`: Benchmark, one (param) column per parameter, Mode, Cnt, Score,
// Error, Units; secondary metrics as Benchmark:label rows. Failed benchmarks are
// rows with Score FAILED and their reasons below the table; planned benchmarks
// that never ran (an interrupted run, or one -foe stopped) are listed below it as not run.
#pragma once

#include <cmh/params.hpp>
#include <cmh/result.hpp>

#include <string>

namespace cmh::report {

/// The label of one planned run, as RunResults::planned should hold it:
/// "TAB.inline thrpt", "Params.get avgt (size = 64, type = list)".
std::string benchmark_label(const BenchmarkParams& bp);

/// The summary table and the lists under it; every line ends in '\n'.
/// Empty when `results` holds no benchmark and plans none.
std::string summary_table(const RunResults& results);

}  // namespace cmh::report
