// SPDX-License-Identifier: MIT
// The command line, JMH's flags and semantics: parsed into a CommandLine (run-level
// flags plus an OptionSet that overrides every benchmark's options).
//
// The parser is this project's own only because no packaged parser handles JMH's
// multi-letter single-dash grammar (-wi, -rff, -jvmArgsAppend); it is table-driven.
#pragma once

#include <cmh/options.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "report/output_format.hpp"

namespace cmh::cli {

/// A bad command line; what() is the text after "Error parsing command line:".
struct CommandLineError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// -shard I/N: run part I (0 <= I < N) of the planned runs split N ways.
struct Shard {
  int index = 0;
  int total = 1;
};

/// "I/N" with 0 <= I < N; throws CommandLineError naming `where` (the option or variable).
Shard parse_shard(std::string_view text, std::string_view where);

/// JMH's -wm: each benchmark warms up on its own (INDI), every selected benchmark's
/// warmup runs first in each fork and the benchmark itself is measured without one
/// (BULK), or both (BULK_INDI).
enum class WarmupMode { indi, bulk, bulk_indi };

struct CommandLine {
  std::vector<std::string> includes;  ///< regexes; empty = everything
  std::vector<std::string> excludes;  ///< -e
  WarmupMode warmup_mode = WarmupMode::indi;  ///< -wm
  std::vector<std::string> warmup_includes;   ///< -wmb: regexes of benchmarks run only to warm up
  OptionSet overrides;                ///< -i -wi -r -w -bs -wbs -to -t -tg -bm -tu -opi -si -gc -f -wf -p -forkArgs*
  bool fail_on_error = false;         ///< -foe
  report::Verbosity verbosity = report::Verbosity::normal;  ///< -v
  std::optional<std::string> output_file;                   ///< -o
  std::optional<std::string> result_format;                 ///< -rf
  std::optional<std::string> result_file;                   ///< -rff
  std::vector<std::string> profilers;                       ///< -prof, in order
  bool list = false, list_with_params = false, list_profilers = false, list_formats = false;
  bool help = false;
  bool quick = false;        ///< -quick: one fork, short iterations (unless set explicitly)
  std::optional<double> precision;  ///< -prec: target half-width as a fraction of the score
  bool precision_robust = false;    ///< -prec X:robust: of the robust estimate's interval
  std::optional<Nanos> max_time;    ///< -maxTime: the -prec budget per benchmark
  std::optional<Shard> shard;       ///< -shard I/N (CMH_SHARD_INDEX/CMH_TOTAL_SHARDS are read by the host)
  std::optional<Nanos> fork_start_timeout;  ///< -forkStartTimeout; unset: automatic
  std::string pin = "none";  ///< -pin: none, cpus, cores or a CPU list (checked by the parser)
  bool strict = false;       ///< -strict: refuse to run on an unfit machine
  bool ignore_lock = false;  ///< -Dcmh.ignoreLock=true on the host command line
  std::string program;       ///< argv[0], for the usage line of -h
};

/// Throws CommandLineError naming the offending text.
CommandLine parse_command_line(int argc, const char* const* argv);

/// The longest time cmh keeps (100 years): longer ones, however many digits they
/// have, mean "forever" and are cut to this.
inline constexpr Nanos kForever{std::int64_t{36500} * 86'400'000'000'000};

/// JMH's time syntax: "100ms", "2s", "1m", "10 min", bare number = seconds;
/// saturates at kForever. Throws CommandLineError.
Nanos parse_time(std::string_view text);

/// The -h text.
std::string help_text();
/// The -h text with `program` (argv[0]) in its usage line.
std::string help_text(std::string_view program);

}  // namespace cmh::cli
