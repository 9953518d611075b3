// SPDX-License-Identifier: MIT
// -prof flame: where the measured iterations' time goes, as a flame graph. The same
// window-gated sampling as perfasm, with call stacks (frame pointers where the
// executable keeps them, DWARF unwinding with libdw otherwise), every stack cut at the
// benchmark's own frame (analysis/stack_namer.hpp). Per benchmark, in dir=:
//   <name>.folded            folded stacks, root first, one line per stack with its samples
//   <name>.speedscope.json   speedscope's format, one profile per fork (weights = sample
//                            periods), with each fork's op count under "cmh" for cmh-compare
//   <name>.html              a self-contained flame graph (cmh/flame/flame_graph.hpp)
// and a summary after the Result block and in -rf html. With `alloc` the stacks are where
// the benchmark allocates, weighted by bytes (sampling/alloc_sampler.hpp), in <name>.alloc.*.
#include "analysis/perfasm_text.hpp"
#include "analysis/speedscope.hpp"
#include "analysis/stack_namer.hpp"
#include "builtin_infos.hpp"
#include <cmh/flame/flame_graph.hpp>
#include <cmh/common/escape.hpp>
#include "sampling/sampling_profiler.hpp"

#include <cmh/profiler_options.hpp>

#include <cmh/common/self_executable.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

namespace cmh::profilers {
namespace {

using namespace sampling;
using analysis::StackKind;

struct FlameConfig {
  SamplingSettings sampling;
  std::string dir = ".";
  std::string unwind_note;  ///< which unwinding, and why
};

/// Frame pointers when the executable was built keeping them (gcc records its flags in
/// DW_AT_producer), DWARF unwinding otherwise; and the sentence saying so.
std::pair<StackMode, std::string> choose_unwinding(const std::string& asked) {
  if (asked == "fp") return {StackMode::frame_pointers, "frame pointers (unwind=fp): frames of code built without them are lost"};
  if (asked == "dwarf")
    return {StackMode::dwarf, "DWARF unwinding with libdw from each sample's copy of the user stack (unwind=dwarf)"};
  analysis::ModuleSymbols exe(common::self_executable_path());
  const auto producer = exe.problem() ? std::nullopt : exe.producer();
  if (producer && producer->find("-fno-omit-frame-pointer") != std::string::npos)
    return {StackMode::frame_pointers,
            "frame pointers: the executable was built with -fno-omit-frame-pointer (its DWARF producer says so)"};
  return {StackMode::dwarf, std::string("DWARF unwinding with libdw from each sample's copy of the user stack: ") +
                                (producer ? "the executable was not built with -fno-omit-frame-pointer"
                                          : "the executable's build flags are unknown")};
}

std::string percent(double part, double whole) { return whole > 0 ? fmt::format("{:.2f} %", 100 * part / whole) : "-"; }

class FlameProfiler final : public SamplingProfiler {
 public:
  explicit FlameProfiler(FlameConfig config) : SamplingProfiler(config.sampling), config_(std::move(config)) {}

 protected:
  std::vector<ProfilerReport> report(const Profile& profile, const BenchmarkRunResult& run) override {
    const BenchmarkParams& bp = run.params;
    analysis::Symbolizer symbols;
    analysis::BenchmarkIdentity id = analysis::benchmark_identity(bp.group, bp.name, bp.group_members, common::self_executable_path());
    id.label = bp.benchmark;
    for (const auto& [k, v] : bp.params) id.label += (k == bp.params.front().first ? ":" : ",") + k + "=" + v;
    const Stacks stacks = collect_stacks(profile, analysis::StackNamer(profile, id, symbols));
    const std::uint64_t ops = total_ops(profile);
    const Page page = make_page(profile, id.label, stacks, ops);

    const std::string stem = file_stem(bp) + (config_.sampling.allocations ? ".alloc" : "");
    std::error_code ec;
    std::filesystem::create_directories(config_.dir, ec);
    const std::string base = (std::filesystem::path(config_.dir) / stem).string();
    Files files;
    std::string folded;
    for (const auto& [f, w] : stacks.all) folded += flame::folded_line(f, w.samples);
    files.save(base + ".folded", folded);
    files.save(base + ".speedscope.json", analysis::speedscope_json(profile, id.label, stacks.forks));
    files.save(base + ".html", flame::flame_graph_html(page.page));

    ProfilerReport r;
    r.label = "flame";
    r.text = summary_text(profile, stacks, page, ops, files);
    r.html = summary_html(stacks, page, ops, base);
    return {r};
  }

 private:
  /// The frames of every stack, cut and named, per fork and over all forks.
  struct Stacks {
    analysis::ForkStacks forks;
    std::map<std::vector<std::string>, Weight> all;
    std::map<StackKind, std::uint64_t> kinds;
    std::map<std::string, Weight> self;
    std::uint64_t samples = 0;
    double share(StackKind kind) const {
      const auto it = kinds.find(kind);
      return it == kinds.end() ? 0.0 : static_cast<double>(it->second);
    }
  };

  Stacks collect_stacks(const Profile& profile, analysis::StackNamer namer) const {
    Stacks out;
    out.forks.resize(profile.forks.size());
    std::vector<std::string> frames;
    for (std::size_t f = 0; f < profile.forks.size(); ++f) {
      if (profile.forks[f].events.empty()) continue;
      for (const auto& [stack, w] : profile.forks[f].events.front().stacks) {
        out.kinds[namer.name(stack, frames)] += w.samples;
        if (config_.sampling.allocations) trim_allocator_frames(frames);
        out.forks[f][frames].add(w);
        out.all[frames].add(w);
        out.self[frames.back()].add(w);
      }
    }
    for (const auto& [k, n] : out.kinds) out.samples += n;
    return out;
  }

  /// The flame graph page and the notes the summary repeats.
  struct Page {
    flame::FlamePage page;
    std::vector<std::string> notes;
  };

  Page make_page(const Profile& profile, const std::string& label, const Stacks& stacks, std::uint64_t ops) const {
    const bool alloc = config_.sampling.allocations;
    const ProfileEvent& event = profile.events.front();
    const std::size_t nforks = profile.forks.size();
    Page out;
    flame::FlamePage& page = out.page;
    page.title = label + (alloc ? " — allocation flame graph" : " — flame graph");
    page.unit = event.period_unit + "/op";
    page.subtitle = alloc ? fmt::format("{} allocation samples in the measurement iterations of {} fork{} (about one per {} "
                                        "bytes a thread allocates, each weighted by the thread's exact bytes since its "
                                        "previous one, scaled to the allocator's exact total); width = B/op ({} ops)",
                                        stacks.samples, nforks, nforks == 1 ? "" : "s", config_.sampling.alloc_every, ops)
                          : fmt::format("{} \"{}\" samples in the measurement iterations of {} fork{}, {} Hz per thread; width = "
                                        "{} (sum of sample periods / {} ops)",
                                        stacks.samples, event.name, nforks, nforks == 1 ? "" : "s", profile.frequency,
                                        page.unit, ops);
    out.notes = {"Stacks: " + config_.unwind_note + "; cut at the benchmark's own frame."};
    if (!config_.sampling.event_note.empty()) out.notes.push_back("Event: " + config_.sampling.event_note + ".");
    const double truncated = stacks.share(StackKind::truncated);
    if (stacks.samples > 0 && truncated / static_cast<double>(stacks.samples) > 0.05)
      out.notes.push_back(fmt::format("WARNING: {} of the stacks lost frames (the unwinder stopped before the thread's first "
                                      "frame and before the benchmark's frame); they are under {}.{}",
                                      percent(truncated, static_cast<double>(stacks.samples)), analysis::kTruncatedFrame,
                                      config_.sampling.sampler.stacks == StackMode::frame_pointers
                                          ? " Code built without frame pointers breaks the chain: try unwind=dwarf."
                                          : " A deeper stack than the copied bytes does this."));
    page.notes = out.notes;
    page.root.name = label;
    for (const auto& [f, w] : stacks.all) {
      std::vector<std::string> below(f.begin() + 1, f.end());
      flame::add_stack(page.root, below, ops > 0 ? static_cast<double>(w.period) / static_cast<double>(ops) : 0,
                       static_cast<double>(w.samples));
    }
    return out;
  }

  /// The files written, and those that could not be.
  struct Files {
    std::vector<std::string> written, failed;
    void save(const std::string& path, const std::string& text) {
      std::ofstream out(path, std::ios::trunc | std::ios::binary);
      out << text;
      (out ? written : failed).push_back(path);
    }
  };

  /// The ten frames with the most self time (or bytes), heaviest first.
  static std::vector<std::pair<std::string, Weight>> hottest(const Stacks& stacks) {
    std::vector<std::pair<std::string, Weight>> top(stacks.self.begin(), stacks.self.end());
    std::sort(top.begin(), top.end(), [](const auto& x, const auto& y) { return x.second.period > y.second.period; });
    if (top.size() > 10) top.resize(10);
    return top;
  }

  static double per_op(const Weight& w, std::uint64_t ops) {
    return ops > 0 ? static_cast<double>(w.period) / static_cast<double>(ops) : 0;
  }

  /// The console summary, after the Result block.
  std::string summary_text(const Profile& profile, const Stacks& stacks, const Page& page, std::uint64_t ops,
                           const Files& files) const {
    const std::size_t nforks = profile.forks.size();
    const double total = static_cast<double>(stacks.samples);
    const bool alloc = config_.sampling.allocations;
    std::string text = alloc ? fmt::format("Allocation flame graph: {} allocation samples in the measurement iterations of "
                                           "{} fork{}, {} B/op in all (the allocator's exact count)\n",
                                           stacks.samples, nforks, nforks == 1 ? "" : "s",
                                           analysis::format_per_op(page.page.root.value))
                             : fmt::format("Flame graph: {} \"{}\" samples in the measurement iterations of {} fork{}\n",
                                           stacks.samples, profile.events.front().name, nforks, nforks == 1 ? "" : "s");
    for (const auto& n : page.notes) text += " " + n + "\n";
    text += fmt::format(" {} under the benchmark's frame, {} in the harness loop, {} outside the benchmark (other "
                        "threads), {} truncated\n",
                        percent(stacks.share(StackKind::benchmark), total), percent(stacks.share(StackKind::harness_loop), total),
                        percent(stacks.share(StackKind::other_thread), total), percent(stacks.share(StackKind::truncated), total));
    text += alloc ? " Allocating frames (self):\n" : " Hottest frames (self time):\n";
    for (const auto& [frame, w] : hottest(stacks))
      text += fmt::format("  {:>8}  {:>10} {}  {}\n", percent(static_cast<double>(w.samples), total),
                          analysis::format_per_op(per_op(w, ops)), page.page.unit, frame);
    for (const auto& w : files.written) text += " Written: " + w + "\n";
    for (const auto& w : files.failed) text += " WARNING: cannot write " + w + "\n";
    return text;
  }

  /// The HTML report's section (-rf html).
  static std::string summary_html(const Stacks& stacks, const Page& page, std::uint64_t ops, const std::string& base) {
    const double total = static_cast<double>(stacks.samples);
    std::string rows;
    for (const auto& [frame, w] : hottest(stacks))
      rows += fmt::format("<tr><td>{}</td><td>{}</td><td class=\"l\">{}</td></tr>", percent(static_cast<double>(w.samples), total),
                          analysis::format_per_op(per_op(w, ops)), formats::html_escape(frame));
    return "<section class=\"cmh-flame\"><h4>Flame graph (-prof flame)</h4><p>" + formats::html_escape(page.page.subtitle) +
           "</p><p>" + formats::html_escape(page.notes.front()) + "</p>" + flame::flame_graph_svg(page.page, 900) +
           "<p>The interactive graph (search, zoom): <code>" + formats::html_escape(base + ".html") +
           "</code></p><table><tr><th>self</th><th>" + formats::html_escape(page.page.unit) +
           "</th><th class=\"l\">frame</th></tr>" + rows + "</table></section>";
  }

  /// The allocator's own frames under an allocation (its hook, its slow path), up to the
  /// call the benchmark made (malloc, operator new): not where the bytes were asked for.
  static void trim_allocator_frames(std::vector<std::string>& frames) {
    while (frames.size() > 2 && (frames.back().rfind("cmh::allocator::", 0) == 0 ||
                                 frames.back().rfind("cmh::profilers::", 0) == 0 || frames.back().rfind("_Unwind_", 0) == 0))
      frames.pop_back();
  }

  FlameConfig config_;
};

constexpr const char* kFlameHelp =
    "Options:\n"
    "  dir=<path>       where the files go (default .): <benchmark>.folded, <benchmark>.speedscope.json\n"
    "                   and <benchmark>.html, named after the benchmark and its parameters\n"
    "  event=<name>     the event to sample (default: cycles, or cpu-clock where there is no hardware PMU)\n"
    "  frequency=<hz>   samples per second of each thread's event time (default 1000)\n"
    "  unwind=<how>     auto (frame pointers if the executable keeps them, else DWARF), fp or dwarf\n"
    "  stackBytes=<n>   DWARF unwinding: bytes of user stack copied per sample (default 8192)\n"
    "  alloc            allocated bytes instead of time: stacks where the benchmark allocates, in\n"
    "                   B/op (the bundled allocator's sampling hook; files <benchmark>.alloc.*)\n"
    "  allocInterval=<bytes>  alloc: about one sample per this many bytes a thread allocates\n"
    "                   (default 524288)\n\n"
    "Only the measurement iterations are sampled, on every thread of each fork. Every stack is cut at\n"
    "the benchmark's own frame; stacks of the harness loop, of other threads and with lost frames are\n"
    "kept under bracketed frames. Widths are cost per op (sum of sample periods / exact op count).\n"
    "cmh-compare --flame DIR_A DIR_B draws the differential of two runs. docs/profiling.md has more.\n";

ProfilerInfo flame_info() {
  ProfilerInfo info;
  info.name = "flame";
  info.description = "Linux perf_event sampling of the measured iterations: call stacks as flame graphs";
  info.internal = true;
  info.external = true;
  info.help = [] { return std::string(kFlameHelp); };
  info.limitation = [] { return sampling_limitation(); };
  info.create = [](const ProfilerOptions& options) -> std::unique_ptr<Profiler> {
    ProfilerOptionReader reader("flame", options);
    FlameConfig c;
    c.sampling.profiler = "flame";
    c.dir = reader.text("dir", ".");
    const std::string event = reader.text("event", "");
    c.sampling.sampler.frequency = static_cast<int>(reader.integer("frequency", 1000, 1, 100000));
    const std::string unwind = reader.choice("unwind", {"auto", "fp", "dwarf"}, "auto");
    c.sampling.sampler.stack_bytes = static_cast<std::uint32_t>(reader.integer("stackBytes", 8192, 64, 65528)) & ~7u;
    c.sampling.allocations = reader.flag("alloc", false);
    c.sampling.alloc_every = static_cast<std::uint64_t>(reader.integer("allocInterval", 512 * 1024, 1, std::int64_t{1} << 40));
    reader.finish();
    if (c.sampling.allocations) {
      if (!event.empty()) reader.fail("alloc samples allocations, not an event: leave event= out");
      if (auto reason = AllocationSampler::unavailable_reason()) reader.fail("alloc: " + *reason);
      c.unwind_note = "the unwinder every C++ program links (_Unwind_Backtrace: .eh_frame, no frame pointers needed), "
                      "called in the bundled allocator's sampling hook";
      return std::make_unique<FlameProfiler>(std::move(c));
    }
    auto [mode, note] = choose_unwinding(unwind);
    c.sampling.sampler.stacks = mode;
    c.unwind_note = note;
    choose_sampled_events(event.empty() ? std::vector<std::string>{} : std::vector<std::string>{event}, reader,
                          c.sampling);
    return std::make_unique<FlameProfiler>(std::move(c));
  };
  return info;
}

}  // namespace

ProfilerInfo flame_profiler_info() { return flame_info(); }

}  // namespace cmh::profilers
