// SPDX-License-Identifier: MIT
// The allocator's options, read once at start-up from the environment variable
// CMH_ALLOC in the JVM's spelling (-Xmx64m -Xms16m -XX:+AlwaysPreTouch -XX:-UseNUMA
// -XX:RegionSize=4m -XX:DecayTime=500 -Xlog:numa). A malformed or unknown option is reported on
// stderr once and its default is kept; nothing here ever aborts the program.
#pragma once

#include "config.hpp"

namespace cmh::allocator {

struct Options {
  uint64_t max_heap = 0;      ///< -Xmx in bytes; 0 = unlimited
  uint64_t initial_heap = 0;  ///< -Xms in bytes, committed (and bound) at start-up
  bool always_pretouch = false;
  int use_numa = -1;          ///< -1 default (on when the NUMA rules allow), 0 off, 1 on (explicit)
  unsigned region_shift = 0;  ///< log2 of -XX:RegionSize; 0 = ergonomic default
  int64_t decay_ms = kDefaultDecayMs;
  bool log_numa = false;      ///< -Xlog:numa: per-node statistics at exit and on collect
  bool background_purge = true;  ///< -XX:-BackgroundPurge: no purge thread
};

/// Parses `text` (may be nullptr). Reports each bad option through report(line).
Options parse_options(const char* text, void (*report)(const char* line));

/// The options in effect, in CMH_ALLOC spelling, for cmh_alloc_options_string().
void format_options(const Options& options, bool numa_on, unsigned region_shift, char* out,
                    size_t capacity);

/// The -h text of the options.
const char* options_help();

}  // namespace cmh::allocator
