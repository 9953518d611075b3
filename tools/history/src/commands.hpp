// SPDX-License-Identifier: MIT
// One function per cmh-history command; each returns the exit status.
#pragma once

#include "command_line.hpp"
#include "database.hpp"

#include <iosfwd>

namespace cmh::history {

int run_add(const CommandLine& cl, std::ostream& out);
int run_changes(const CommandLine& cl, std::ostream& out);
int run_check(const CommandLine& cl, std::ostream& out);
int run_series(const CommandLine& cl, std::ostream& out);
int run_report(const CommandLine& cl, std::ostream& out);
int run_export(const CommandLine& cl, std::ostream& out);

/// --since DATE or --since SHA as a time (SHA: its first run's); "" when `since` is empty.
std::string since_time(Database& db, const std::string& since);

/// Writes `text` to `path` whole (a temporary file renamed over it), or throws HistoryError.
void write_file(const std::string& path, const std::string& text);

}  // namespace cmh::history
