// SPDX-License-Identifier: MIT
// analyse_hot_code(): -prof perfasm's analysis of a sampled profile. Regions are the
// ELF functions the samples fell in (JMH has to cluster addresses; an ELF file names
// its functions), ranked by the first event; the hot ones are disassembled with every
// instruction's share, per-op cost, source line and inline chain, and their loops
// (backward branches) found. Samples are also summed by the innermost source function
// (after inlining) and by owner (user, harness, ...), and the warnings JMH gives
// (few samples, nothing hot) plus cmh's own (the benchmark's code, and what it calls, is
// absent: the harness has nearly every sample) are made.
// Rendering is separate: perfasm_text.cpp (JMH's layout), perfasm_html.cpp.
#pragma once

#include "analysis/attribution.hpp"
#include "analysis/disassembler.hpp"
#include "analysis/symbolizer.hpp"
#include "sampling/profile.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cmh::profilers::analysis {

using sampling::Weight;

struct PerfasmOptions {
  double hot_threshold = 0.10;  ///< share of the first event above which a region is listed
  int top = 20;                 ///< regions and functions in the summary tables
  int merge_margin = 32;        ///< cold bytes between two listed stretches that are printed rather than elided
  int print_margin = 10;        ///< instructions of context around sampled ones
  int too_big = 1000;           ///< a region with more instructions than this is listed around its samples only
  bool intel_syntax = false;
};

struct AnnotatedInstruction {
  std::uint64_t address = 0;
  std::string text;
  std::vector<Weight> weights;  ///< per event
  SourceLine line;
  std::vector<InlineFrame> chain;  ///< innermost first, the region's own function last
  std::string loop_marks;          ///< one character per hot loop column: "╭", "│", "╰" or " "
  std::uint64_t cold_bytes_before = 0;  ///< bytes elided just before this instruction
  CodeOwner owner = CodeOwner::unknown;
  /// Without precise sampling, on a sampled instruction that follows a long-latency one
  /// (a division, a square root) in straight-line code: the skid hint naming it.
  std::string skid_hint;
};

struct HotLoop {
  Loop loop;
  double share = 0;  ///< of the region's first-event samples
};

struct HotRegion {
  std::string module;    ///< object path
  std::string function;  ///< demangled; "[kernel]", "<unknown>" without a symbol
  std::uint64_t start = 0, size = 0;
  CodeOwner owner = CodeOwner::unknown;  ///< of most of its samples
  std::vector<Weight> weights;           ///< per event
  std::vector<HotLoop> loops;            ///< loops that had samples
  bool listed = false;                   ///< hot: instructions below
  std::string not_listed;                ///< why a hot region has no listing (no code, too big, ...)
  std::vector<AnnotatedInstruction> instructions;
  std::uint64_t cold_bytes_after = 0;
};

struct NamedShare {
  std::string name;
  std::string where;  ///< module, or "file:line" of the function for source functions
  CodeOwner owner = CodeOwner::unknown;
  std::vector<Weight> weights;
  /// Source lines: the mnemonics of the listed instructions compiled from the line.
  std::vector<std::string> instructions;
};

struct HotCode {
  std::string benchmark;
  std::vector<sampling::ProfileEvent> events;
  std::string event_note;  ///< why this event (the no-PMU fallback), "" if asked for
  int frequency = 0;
  bool user_only = false, precise = false;
  int forks = 0, iterations = 0;
  std::uint64_t ops = 0, lost = 0, dropped = 0, throttled = 0;
  std::int64_t window_ns = 0;
  std::uint32_t threads = 0;
  std::vector<Weight> totals;  ///< per event
  std::vector<HotRegion> regions;             ///< every region, hottest first
  std::vector<NamedShare> source_functions;   ///< by innermost function after inlining
  std::vector<NamedShare> source_lines;       ///< by source line (name "file:line", where = function)
  std::vector<NamedShare> owners;             ///< by CodeOwner
  double user_share = 0;                      ///< of the first event's samples
  std::vector<std::string> warnings;
  std::string disassembler;                   ///< "Capstone 4.0"

  /// Σ period of the first event per op, in its unit; NaN without ops.
  double per_op(const Weight& w) const;
  std::string per_op_unit() const;  ///< "ns/op", "cycles/op", "events/op"
};

HotCode analyse_hot_code(const sampling::Profile& profile, const BenchmarkIdentity& benchmark,
                         const PerfasmOptions& options, Symbolizer& symbols);

}  // namespace cmh::profilers::analysis
