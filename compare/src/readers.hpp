// SPDX-License-Identifier: MIT
// The format readers behind read_result_file, one per family of files.
#pragma once

#include "json_values.hpp"

namespace cmh::compare {

/// A top-level array of JMH records (Java JMH 1.21 onwards, or cmh's -rf json).
void read_jmh_records(const Json& doc, const JsonReader& in, ResultFile& out);
/// {"context": ..., "benchmarks": [...]} (Google Benchmark, or cmh's -rf gbench).
void read_gbench_rows(const Json& doc, const JsonReader& in, ResultFile& out);

/// cmh.environment into out.environment: `holder`'s member `key`, an object of strings
/// (JSON) or one "key=value; key=value" string (gbench context); absent: nothing.
void read_environment(const Json& holder, const char* key, ResultFile& out);

/// One warning per cmh.environment key whose value differs between the two files;
/// none when either has no environment (older cmh, Java JMH, Google Benchmark).
std::vector<std::string> environment_differences(const ResultFile& base, const ResultFile& contender);

}  // namespace cmh::compare
