// SPDX-License-Identifier: MIT
// Machine-readable result files (-rf / -rff): JMH JSON, CSV, SCSV, LaTeX, text,
// and Google Benchmark JSON. The host creates the writers at start-up (so a path
// that cannot be written is an error before anything runs) and calls write()
// after every completed benchmark; each write replaces the file atomically.
#pragma once

#include <cmh/common/format_error.hpp>
#include <cmh/result.hpp>

#include "model/run_context.hpp"

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cmh::formats {

class ResultWriter {
 public:
  virtual ~ResultWriter() = default;
  /// Rewrites the whole file from `results`, atomically (temp file + rename).
  virtual void write(const RunResults& results, const model::RunContext& ctx) = 0;
  virtual const std::string& path() const = 0;
  /// What is actually written (symbolic links followed), for comparing with -o.
  virtual const std::string& target() const { return path(); }
  /// A stream target (/dev/stdout, a FIFO) is written once, at the end of the
  /// run: rewriting it after every benchmark would append a document each time.
  virtual bool in_place() const { return false; }
};

/// "json,gbench" -> writers. `file` is -rff (empty = cmh-result.<ext>; with several
/// formats, each gets its own extension). Checks that every path can be written.
/// Throws FormatError.
std::vector<std::unique_ptr<ResultWriter>> make_writers(std::string_view formats, std::string_view file);

/// "Available formats: text, csv, scsv, json, latex, gbench, html"
std::string list_formats();

}  // namespace cmh::formats
