// SPDX-License-Identifier: MIT
// The format readers behind read_result_file, one per family of files.
#pragma once

#include "json_values.hpp"

namespace cmh::results {

/// A top-level array of JMH records (Java JMH 1.21 onwards, or cmh's -rf json).
void read_jmh_records(const Json& doc, const JsonReader& in, ResultFile& out);
/// {"context": ..., "benchmarks": [...]} (Google Benchmark, or cmh's -rf gbench).
void read_gbench_rows(const Json& doc, const JsonReader& in, ResultFile& out);

/// The environment of one JMH record: cmh's "cmh" block, or Java JMH's JVM fields.
void read_jmh_environment(const Json& record, Record& out);
/// cmh's disturbance flags of one record ("cmh"."disturbance"."iterations").
void read_disturbance_flags(const Json& record, Record& out);
/// The environment of every record of a Google Benchmark file, from its "context".
void read_gbench_context(const Json& doc, ResultFile& out);

}  // namespace cmh::results
