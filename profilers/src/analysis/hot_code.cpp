// SPDX-License-Identifier: MIT
// analyse_hot_code(): regions, listings, loops, shares and warnings (see hot_code.hpp).
#include "analysis/hot_code.hpp"

#include "sampling/code_map.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace cmh::profilers::analysis {
namespace {

using sampling::CodeAddress;

constexpr std::size_t kLoopColumns = 3;
/// Below this share of the samples outside the harness, the benchmark's code (and what it
/// calls: libraries, the allocator, the kernel) counts as absent.
constexpr double kAbsentShare = 0.05;
/// JMH's "suspiciously low" event count.
constexpr std::uint64_t kLowSampleCount = 1000;

void add_weights(std::vector<Weight>& into, const std::vector<Weight>& from) {
  if (into.size() < from.size()) into.resize(from.size());
  for (std::size_t e = 0; e < from.size(); ++e) into[e].add(from[e]);
}

std::uint64_t first_samples(const std::vector<Weight>& w) { return w.empty() ? 0 : w[0].samples; }

struct RegionKey {
  std::uint32_t module = 0;
  std::uint64_t start = 0;
  auto operator<=>(const RegionKey&) const = default;
};

struct Building {
  HotRegion region;
  std::map<CodeOwner, std::uint64_t> owner_votes;
  std::map<std::uint64_t, std::vector<Weight>> addresses;  ///< the region's sampled addresses
};

/// Long-latency instructions whose cost a non-precise sample puts on the next one.
bool long_latency(const std::string& text) {
  const std::string mnemonic = text.substr(0, text.find(' '));
  for (const char* prefix : {"div", "idiv", "vdiv", "sqrt", "vsqrt", "fdiv", "fsqrt"})
    if (mnemonic.rfind(prefix, 0) == 0) return true;
  return false;
}

/// Samples by instruction (a sampled ip is an instruction's start; anything else goes
/// to the instruction containing it).
std::vector<std::vector<Weight>> weights_by_instruction(const std::vector<Instruction>& instructions,
                                                        const std::map<std::uint64_t, std::vector<Weight>>& addresses,
                                                        std::size_t events) {
  std::vector<std::vector<Weight>> weights(instructions.size(), std::vector<Weight>(events));
  for (const auto& [address, w] : addresses) {
    auto it = std::upper_bound(instructions.begin(), instructions.end(), address,
                               [](std::uint64_t a, const Instruction& i) { return a < i.address; });
    if (it == instructions.begin()) continue;
    --it;
    add_weights(weights[static_cast<std::size_t>(it - instructions.begin())], w);
  }
  return weights;
}

/// The loops with samples, each with its column (nesting depth) in the listing.
struct PlacedLoops {
  std::vector<std::pair<HotLoop, std::size_t>> placed;  // loop, column
  std::size_t columns = 0;
};

/// Loops with samples, outermost first, given a column by nesting depth; all of them
/// go to `loops`, those deeper than the columns are not drawn.
PlacedLoops place_loops(const std::vector<Instruction>& instructions, const std::vector<std::vector<Weight>>& weights,
                        std::uint64_t region_samples, std::vector<HotLoop>& loops) {
  PlacedLoops out;
  for (const Loop& loop : find_loops(instructions)) {
    std::uint64_t in = 0;
    for (std::size_t i = 0; i < instructions.size(); ++i)
      if (instructions[i].address >= loop.start && instructions[i].address < loop.end) in += first_samples(weights[i]);
    if (in == 0) continue;
    std::size_t depth = 0;
    for (const auto& [outer, column] : out.placed)
      if (outer.loop.start <= loop.start && loop.end <= outer.loop.end) depth = std::max(depth, column + 1);
    const HotLoop hot{loop, static_cast<double>(in) / static_cast<double>(region_samples)};
    loops.push_back(hot);
    if (depth < kLoopColumns) out.placed.emplace_back(hot, depth);
  }
  for (const auto& p : out.placed) out.columns = std::max(out.columns, p.second + 1);
  return out;
}

/// What to print: everything of a short region; else the sampled instructions with
/// printMargin around them, whole hot loops that are not too big, and the cold gaps
/// between them no longer than mergeMargin bytes.
std::vector<bool> instructions_to_print(const std::vector<Instruction>& instructions,
                                        const std::vector<std::vector<Weight>>& weights, const PlacedLoops& loops,
                                        const PerfasmOptions& options, const HotRegion& r) {
  const std::size_t n = instructions.size();
  std::vector<bool> keep(n, false);
  if (static_cast<int>(n) <= 3 * options.print_margin + 8) {
    std::fill(keep.begin(), keep.end(), true);
    return keep;
  }
  const auto margin = static_cast<std::size_t>(std::max(0, options.print_margin));
  for (std::size_t i = 0; i < n; ++i) {
    if (first_samples(weights[i]) == 0) continue;
    for (std::size_t k = i >= margin ? i - margin : 0; k < n && k <= i + margin; ++k) keep[k] = true;
  }
  for (const auto& [hot, column] : loops.placed) {
    std::size_t count = 0;
    for (const auto& ins : instructions) count += ins.address >= hot.loop.start && ins.address < hot.loop.end;
    if (static_cast<int>(count) > options.too_big) continue;
    for (std::size_t i = 0; i < n; ++i)
      if (instructions[i].address >= hot.loop.start && instructions[i].address < hot.loop.end) keep[i] = true;
  }
  for (std::size_t i = 0; i < n;) {
    if (keep[i]) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < n && !keep[j]) ++j;
    const std::uint64_t bytes = (j < n ? instructions[j].address : r.start + r.size) - instructions[i].address;
    if (i > 0 && j < n && bytes <= static_cast<std::uint64_t>(std::max(0, options.merge_margin)))
      std::fill(keep.begin() + static_cast<std::ptrdiff_t>(i), keep.begin() + static_cast<std::ptrdiff_t>(j), true);
    i = j;
  }
  return keep;
}

/// The listing's loop columns at `address`: ╭ a loop's start, ╰ its back jump, │ inside.
std::string loop_columns_at(std::uint64_t address, const PlacedLoops& loops) {
  std::string marks;
  for (std::size_t c = 0; c < loops.columns; ++c) {
    const char* mark = " ";
    for (const auto& [hot, column] : loops.placed) {
      if (column != c || address < hot.loop.start || address >= hot.loop.end) continue;
      mark = address == hot.loop.start ? "╭" : address == hot.loop.end_jump ? "╰" : "│";
    }
    marks += mark;
  }
  return marks;
}

/// The instructions of a hot region worth printing: around samples, whole hot loops,
/// small cold gaps filled in; the rest elided with its byte count.
void list_region(Building& b, const ModuleSymbols& m, const BenchmarkIdentity& benchmark,
                 const PerfasmOptions& options, std::size_t events, bool precise) {
  HotRegion& r = b.region;
  const auto code = m.code(r.start, r.size);
  if (code.empty()) {
    r.not_listed = "the file has no code bytes for it";
    return;
  }
  const std::vector<Instruction> instructions = disassemble(code, r.start, options.intel_syntax);
  if (instructions.empty()) {
    r.not_listed = "it could not be disassembled";
    return;
  }
  const std::vector<std::vector<Weight>> weights = weights_by_instruction(instructions, b.addresses, events);
  const std::uint64_t region_samples = std::max<std::uint64_t>(1, first_samples(r.weights));
  const PlacedLoops loops = place_loops(instructions, weights, region_samples, r.loops);
  const std::vector<bool> keep = instructions_to_print(instructions, weights, loops, options, r);

  std::vector<std::uint64_t> targets;  // where jumps land: no straight-line predecessor there
  for (const auto& ins : instructions)
    if (ins.jump && ins.target) targets.push_back(*ins.target);
  std::uint64_t cold = 0;
  for (std::size_t i = 0; i < instructions.size(); ++i) {
    const Instruction& ins = instructions[i];
    if (!keep[i]) {
      cold += ins.size;
      continue;
    }
    AnnotatedInstruction a;
    a.address = ins.address;
    a.text = ins.text;
    a.weights = weights[i];
    a.line = m.line_at(ins.address);
    a.chain = m.inline_chain(ins.address);
    a.owner = owner_of(r.module, r.function, a.chain, benchmark);
    a.cold_bytes_before = cold;
    cold = 0;
    if (!precise && i > 0 && first_samples(weights[i]) * 50 >= region_samples && long_latency(instructions[i - 1].text) &&
        !instructions[i - 1].jump && std::find(targets.begin(), targets.end(), ins.address) == targets.end()) {
      const std::string prev = instructions[i - 1].text.substr(0, instructions[i - 1].text.find(' '));
      a.skid_hint = "skid: likely the cost of the " + prev + " before it";
    }
    a.loop_marks = loop_columns_at(ins.address, loops);
    r.instructions.push_back(std::move(a));
  }
  r.cold_bytes_after = cold;
  r.listed = true;
}

std::string percent(double share) { return fmt::format("{:.1f} %", share * 100); }

/// The profile's totals over its forks (the samples are added later).
HotCode summary_of(const sampling::Profile& profile, const BenchmarkIdentity& benchmark) {
  HotCode hc;
  hc.benchmark = benchmark.label;
  hc.events = profile.events;
  hc.frequency = profile.frequency;
  hc.user_only = profile.user_only;
  hc.precise = profile.precise;
  hc.disassembler = disassembler_version();
  hc.forks = static_cast<int>(profile.forks.size());
  for (const auto& f : profile.forks) {
    hc.iterations += f.iterations;
    hc.ops += f.ops;
    hc.window_ns += f.window_ns;
    hc.lost += f.lost;
    hc.dropped += f.dropped;
    hc.throttled += f.throttled;
    hc.threads = std::max(hc.threads, f.threads);
  }
  hc.totals.assign(profile.events.size(), Weight{});
  return hc;
}

/// Each sampled address's weight per event, merged over the forks; adds them to `totals`.
std::map<CodeAddress, std::vector<Weight>> weights_by_address(const sampling::Profile& profile,
                                                              std::vector<Weight>& totals) {
  const std::size_t events = profile.events.size();
  std::map<CodeAddress, std::vector<Weight>> by_address;
  for (std::size_t e = 0; e < events; ++e) {
    const sampling::EventSamples merged = sampling::merged_event(profile, e);
    for (const auto& [a, w] : merged.addresses) {
      auto& slot = by_address[a];
      slot.resize(events);
      slot[e].add(w);
      totals[e].add(w);
    }
  }
  return by_address;
}

/// Where a sampled address is: its region, the function holding it and the inline chain.
struct Location {
  RegionKey key;
  std::string function;
  std::uint64_t size = 0;
  std::vector<InlineFrame> chain;
  const ModuleSymbols* symbols = nullptr;  ///< nullptr: the kernel, the vdso or an unknown module
};

Location location_of(const CodeAddress& a, const std::string& path, Symbolizer& symbols) {
  Location at;
  at.key = RegionKey{a.module, 0};
  if (path == sampling::kKernelModule) {
    at.function = "[kernel]";
  } else if (path == sampling::kUnknownModule || path == "[vdso]") {
    at.function = path;
  } else {
    const ModuleSymbols* m = at.symbols = &symbols.module(path);
    if (auto fn = m->problem() ? std::nullopt : m->function_at(a.address)) {
      at.key.start = fn->start;
      at.function = fn->name;
      at.size = fn->size;
    } else {
      at.key.start = a.address & ~std::uint64_t{0xfff};
      at.function = "<no symbol>";
    }
    if (!m->problem()) at.chain = m->inline_chain(a.address);
  }
  return at;
}

/// The samples by region, by source function, by source line and by owner.
struct Attribution {
  std::map<RegionKey, Building> regions;
  std::map<std::string, NamedShare> by_function;
  std::map<std::pair<std::string, int>, NamedShare> by_line;
  std::map<CodeOwner, std::vector<Weight>> by_owner;

  void add(const CodeAddress& a, const std::vector<Weight>& w, const std::string& path, const Location& at,
           const BenchmarkIdentity& benchmark);
};

void Attribution::add(const CodeAddress& a, const std::vector<Weight>& w, const std::string& path,
                      const Location& at, const BenchmarkIdentity& benchmark) {
  const CodeOwner owner = owner_of(path, at.function, at.chain, benchmark);
  Building& b = regions[at.key];
  if (b.region.function.empty()) {
    b.region.module = path;
    b.region.function = at.function;
    b.region.start = at.key.start;
    b.region.size = at.size;
  }
  add_weights(b.region.weights, w);
  b.owner_votes[owner] += first_samples(w);
  b.addresses[a.address] = w;
  const std::string inner = at.chain.empty() ? at.function : at.chain.front().function;
  NamedShare& f = by_function[inner];
  if (f.name.empty()) {
    f.name = inner;
    f.owner = owner;
    f.where = at.chain.empty() ? path : at.chain.front().at.file;
  }
  add_weights(f.weights, w);
  add_weights(by_owner[owner], w);
  if (at.symbols == nullptr || at.symbols->problem()) return;
  const SourceLine line = at.symbols->line_at(a.address);
  if (!line.known()) return;
  NamedShare& l = by_line[{line.file, line.line}];
  if (l.name.empty()) {
    l.name = fmt::format("{}:{}", line.file, line.line);
    l.where = inner;
    l.owner = owner;
  }
  add_weights(l.weights, w);
}

void sort_by_samples(std::vector<NamedShare>& shares) {
  std::stable_sort(shares.begin(), shares.end(), [](const NamedShare& x, const NamedShare& y) {
    return first_samples(x.weights) > first_samples(y.weights);
  });
}

/// The regions, most sampled first, each owned by the owner with most of its samples;
/// the hot ones listed. Whether any region is hot.
bool add_regions(HotCode& hc, std::map<RegionKey, Building>& regions, const sampling::Profile& profile,
                 const BenchmarkIdentity& benchmark, const PerfasmOptions& options, Symbolizer& symbols,
                 double total) {
  for (auto& [key, b] : regions) {
    CodeOwner best = CodeOwner::unknown;
    std::uint64_t votes = 0;
    for (const auto& [owner, n] : b.owner_votes)
      if (n > votes) best = owner, votes = n;
    b.region.owner = best;
  }
  std::vector<Building*> order;
  for (auto& [key, b] : regions) order.push_back(&b);
  std::stable_sort(order.begin(), order.end(), [](const Building* x, const Building* y) {
    return first_samples(x->region.weights) > first_samples(y->region.weights);
  });
  bool any_hot = false;
  for (Building* b : order) {
    const double share = static_cast<double>(first_samples(b->region.weights)) / total;
    if (share >= options.hot_threshold && b->region.size > 0) {
      any_hot = true;
      list_region(*b, symbols.module(b->region.module), benchmark, options, profile.events.size(), profile.precise);
    } else if (share >= options.hot_threshold) {
      any_hot = true;
      b->region.not_listed = b->region.module == sampling::kKernelModule ? "kernel code is not disassembled"
                                                                          : "no symbol gives its extent";
    }
    hc.regions.push_back(std::move(b->region));
  }
  return any_hot;
}

/// The source functions, lines and owners, most sampled first; each hot line with its
/// instructions from the listings (a skidded sample leaves the costly one unsampled).
void add_sources(HotCode& hc, Attribution& at) {
  for (auto& [name, f] : at.by_function) hc.source_functions.push_back(std::move(f));
  sort_by_samples(hc.source_functions);
  for (auto& [key, l] : at.by_line) {
    for (const auto& r : hc.regions)
      for (const auto& ins : r.instructions)
        if (ins.line.line == key.second && ins.line.file == key.first) {
          std::string mnemonic = ins.text.substr(0, ins.text.find(' '));
          if (std::find(l.instructions.begin(), l.instructions.end(), mnemonic) == l.instructions.end())
            l.instructions.push_back(std::move(mnemonic));
        }
    hc.source_lines.push_back(std::move(l));
  }
  sort_by_samples(hc.source_lines);
  for (auto& [owner, w] : at.by_owner) hc.owners.push_back({std::string(owner_name(owner)), "", owner, w, {}});
  sort_by_samples(hc.owners);
}

/// Warnings, most important first.
void add_warnings(HotCode& hc, const BenchmarkIdentity& benchmark, const PerfasmOptions& options,
                  double harness_share, bool any_hot) {
  const std::uint64_t samples = first_samples(hc.totals);
  if (samples > 0 && 1 - harness_share < kAbsentShare)
    hc.warnings.push_back(fmt::format(
        "The benchmark's own code ({}) is absent from the hot code: it and what it calls have {} of the samples, "
        "the harness {}. "
        "Its body was most likely optimised away (a result nobody uses, or a computation on constants): "
        "return the result or give it to a cmh::Blackhole (samples 06_dead_code, 08_constant_fold).",
        benchmark.label, percent(1 - harness_share), percent(harness_share)));
  if (samples > 0 && samples < kLowSampleCount)
    hc.warnings.push_back(fmt::format(
        "Only {} samples: the shares are rough. Sample longer (more or longer measurement iterations) or "
        "more often (frequency=).",
        samples));
  if (samples > 0 && !any_hot)
    hc.warnings.push_back(fmt::format(
        "No region has more than hotThreshold ({:.2f} %) of the samples: lower it, e.g. -prof "
        "perfasm:hotThreshold=0.05.",
        options.hot_threshold * 100));
  if (hc.lost + hc.dropped > 0)
    hc.warnings.push_back(fmt::format(
        "{} samples were lost (the sampling buffers were full) and {} dropped (the sample store was full); the "
        "shares still hold, the per-op costs are too low by that much.",
        hc.lost, hc.dropped));
  if (hc.throttled > 0)
    hc.warnings.push_back(fmt::format(
        "The kernel throttled sampling {} times (kernel.perf_event_max_sample_rate is below frequency x threads): "
        "fewer samples than asked for.",
        hc.throttled));
}


}  // namespace

double HotCode::per_op(const Weight& w) const {
  if (ops == 0) return std::numeric_limits<double>::quiet_NaN();
  return static_cast<double>(w.period) / static_cast<double>(ops);
}

std::string HotCode::per_op_unit() const {
  if (events.empty()) return "per op";
  return events[0].period_unit + "/op";
}

HotCode analyse_hot_code(const sampling::Profile& profile, const BenchmarkIdentity& benchmark,
                         const PerfasmOptions& options, Symbolizer& symbols) {
  HotCode hc = summary_of(profile, benchmark);
  Attribution at;
  for (const auto& [a, w] : weights_by_address(profile, hc.totals)) {
    const std::string& path = a.module < profile.modules.size() ? profile.modules[a.module] : sampling::kUnknownModule;
    at.add(a, w, path, location_of(a, path, symbols), benchmark);
  }
  const double total = static_cast<double>(std::max<std::uint64_t>(1, first_samples(hc.totals)));
  const bool any_hot = add_regions(hc, at.regions, profile, benchmark, options, symbols, total);
  add_sources(hc, at);
  double harness_share = 0;
  for (const auto& o : hc.owners) {
    const double share = static_cast<double>(first_samples(o.weights)) / total;
    if (o.owner == CodeOwner::user) hc.user_share = share;
    if (o.owner == CodeOwner::harness) harness_share = share;
  }
  add_warnings(hc, benchmark, options, harness_share, any_hot);
  return hc;
}

}  // namespace cmh::profilers::analysis
