// SPDX-License-Identifier: MIT
// The value grammars of the command line, one function per kind of value: integers
// with JMH's bounds, booleans, times (parse_time, in command_line.hpp), thread
// counts, benchmark modes, output units, verbosity, and fork-argument strings.
// Each throws CommandLineError with a message about the value only; the parser
// puts the option's name in front.
#pragma once

#include <cmh/options.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "cli/command_line.hpp"
#include "report/output_format.hpp"

namespace cmh::cli {

/// The smallest value an integer option accepts, as JMH's IntegerValueConverter.
enum class IntBound { positive, non_negative };

/// Upper bounds of the counts, so that the planner's and the watchdog's sums and
/// products of them stay in range: iterations, forks, batch sizes and -opi (two
/// counts still add up in an int), and threads (each one is a real thread).
inline constexpr int kMaxCount = 1'000'000'000;
inline constexpr int kMaxThreads = 4096;

/// A decimal 32-bit integer with an optional sign, at least `bound` and at most `max`.
int parse_int(std::string_view text, IntBound bound, int max = kMaxCount);

/// "true" or "false", in any case (JMH's Boolean options).
bool parse_bool(std::string_view text);

/// A positive count, or "max" (all CPUs) / "halfmax" (half of them), in any case.
/// Returns kThreadsMax / kThreadsHalfMax for the words.
int parse_threads(std::string_view text);

/// One -bm item: a full name (Throughput, AverageTime, SampleTime, SingleShotTime,
/// All) or a unique prefix of a short label (thrpt, avgt, sample, ss, all).
/// "All" gives the four modes.
std::vector<BenchmarkMode> parse_mode(std::string_view text);

/// -tu: ns, us, ms, s, m/min, h/hr, day (any case).
TimeUnit parse_time_unit(std::string_view text);

/// -v: SILENT, NORMAL or EXTRA (any case).
report::Verbosity parse_verbosity(std::string_view text);

/// -wm: INDI, BULK or BULK_INDI (any case; JMH's own parser wants capitals).
WarmupMode parse_warmup_mode(std::string_view text);

/// One -forkArgs value split into arguments at spaces; a part in double or single
/// quotes keeps its spaces (the quotes are dropped), as JMH splits -jvmArgs.
std::vector<std::string> split_fork_args(std::string_view text);

/// Splits at `separator`, keeping empty pieces ("a,,b" -> {"a", "", "b"}).
std::vector<std::string> split_list(std::string_view text, char separator);

}  // namespace cmh::cli
