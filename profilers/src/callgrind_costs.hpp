// SPDX-License-Identifier: MIT
// Callgrind's counts and the cost model -prof icount reports them in.
//
// A Callgrind dump ("callgrind.out.N") names its events on an "events:" line and gives
// the total of each on a "summary:" line (callgrind_annotate reads the same two). With
// --cache-sim=yes the events are Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw, and with
// --branch-sim=yes also Bc Bcm Bi Bim. Parsing those two lines is all that is needed,
// so it is written here rather than depending on a library for the format.
//
// Estimated cycles follow iai-callgrind's formula (from Itamar Turner-Trauring's
// "consistent benchmarking in CI"): L1 hits + 5 x LL hits + 35 x RAM hits, where
// RAM hits are the last-level misses and LL hits the L1 misses that hit the LL.
// The cache geometry is fixed, not the host's, so that counts compare across machines.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace cmh::profilers {

/// The cache geometry every -prof icount run simulates (iai-callgrind's defaults).
inline constexpr std::string_view kIcountI1 = "32768,8,64";
inline constexpr std::string_view kIcountD1 = "32768,8,64";
inline constexpr std::string_view kIcountLL = "8388608,16,64";
/// The estimated-cycles formula, as recorded beside the figures.
inline constexpr std::string_view kIcountCyclesFormula = "L1 hits + 5 LL hits + 35 RAM hits";

/// The event totals of one dump (0 for events the dump does not have).
struct CallgrindCounts {
  double ir = 0, dr = 0, dw = 0;        ///< instructions, data reads, data writes
  double i1mr = 0, d1mr = 0, d1mw = 0;  ///< L1 misses (instruction, data read, data write)
  double ilmr = 0, dlmr = 0, dlmw = 0;  ///< last-level misses
  double bc = 0, bcm = 0, bi = 0, bim = 0;  ///< branches and mispredictions (--branch-sim=yes)
  bool cache_sim = false;   ///< the dump has the cache events
  bool branch_sim = false;  ///< the dump has the branch events

  double l1_misses() const { return i1mr + d1mr + d1mw; }
  double ram_hits() const { return ilmr + dlmr + dlmw; }  ///< last-level misses
  double ll_hits() const { return l1_misses() - ram_hits(); }
  double l1_hits() const { return ir + dr + dw - l1_misses(); }
  double estimated_cycles() const { return l1_hits() + 5 * ll_hits() + 35 * ram_hits(); }
  double branch_misses() const { return bcm + bim; }

  /// this - k * other, event by event (the empty loop's counts, once per thread).
  CallgrindCounts minus(const CallgrindCounts& other, double k) const;
  /// Instructions, data accesses and branches, the misses zeroed (every access a hit).
  CallgrindCounts references_only() const;
};

/// Parses the text of a Callgrind dump; nullopt with `error` set when it has no
/// "events:" line or no "summary:"/"totals:" line, or they do not match.
std::optional<CallgrindCounts> parse_callgrind_dump(std::string_view text, std::string& error);

}  // namespace cmh::profilers
