// SPDX-License-Identifier: MIT
// -prof perfasm: the hottest code of the measured iterations, disassembled and annotated
// (JMH's LinuxPerfAsmProfiler, for native code): window-gated sampling in every fork
// (sampling/sampling_profiler.hpp), then in the host the regions, listings, loops,
// shares, per-op costs and warnings of analysis/hot_code.hpp, printed in JMH's layout
// after the Result block and as a section of -rf html.
#include "analysis/hot_code.hpp"
#include "analysis/perfasm_text.hpp"
#include "analysis/speedscope.hpp"
#include "builtin_infos.hpp"
#include "sampling/sampling_profiler.hpp"

#include <cmh/profiler_options.hpp>

#include <cmh/common/self_executable.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>

namespace cmh::profilers {
namespace {

using namespace sampling;

struct PerfasmConfig {
  SamplingSettings sampling;
  analysis::PerfasmOptions options;
  bool save_log = false;
  std::string save_log_to = ".";
};

class PerfasmProfiler final : public SamplingProfiler {
 public:
  explicit PerfasmProfiler(PerfasmConfig config) : SamplingProfiler(config.sampling), config_(std::move(config)) {}

 protected:
  std::vector<ProfilerReport> report(const Profile& profile, const BenchmarkRunResult& run) override {
    const BenchmarkParams& bp = run.params;
    analysis::Symbolizer symbols;
    analysis::HotCode hc = analysis::analyse_hot_code(
        profile, analysis::benchmark_identity(bp.group, bp.name, bp.group_members, common::self_executable_path()), config_.options,
        symbols);
    hc.event_note = config_.sampling.event_note;
    ProfilerReport r;
    r.label = "asm";
    r.text = analysis::perfasm_text(hc, config_.options);
    r.html = analysis::perfasm_html(hc, config_.options);
    if (config_.save_log) {
      std::error_code ec;
      std::filesystem::create_directories(config_.save_log_to, ec);
      const std::string path = config_.save_log_to + "/" + file_stem(bp) + ".perfasm.txt";
      std::ofstream out(path, std::ios::trunc);
      out << r.text;
      r.text += out ? "\nPerfasm log saved to " + path + "\n" : "\nWARNING: cannot write the perfasm log " + path + "\n";
      // The samples by function, per fork, for cmh-compare --flame.
      analysis::ForkStacks forks(profile.forks.size());
      for (std::size_t f = 0; f < profile.forks.size(); ++f) {
        if (profile.forks[f].events.empty()) continue;
        for (const auto& [a, w] : profile.forks[f].events.front().addresses) {
          const std::string& module = profile.modules[a.module];
          std::string function = module;
          if (!module.empty() && module.front() != '[') {
            const auto& m = symbols.module(module);
            if (auto fn = m.problem() ? std::nullopt : m.function_at(a.address)) function = analysis::short_name(fn->name);
          }
          forks[f][{bp.benchmark, function}].add(w);
        }
      }
      const std::string scope = config_.save_log_to + "/" + file_stem(bp) + ".speedscope.json";
      std::ofstream json(scope, std::ios::trunc);
      json << analysis::speedscope_json(profile, bp.benchmark, forks);
      if (json) r.text += "Samples by function saved to " + scope + " (cmh-compare --flame reads it)\n";
    }
    return {r};
  }

 private:
  PerfasmConfig config_;
};

constexpr const char* kPerfasmHelp =
    "Options (JMH's names where they fit):\n"
    "  events=<e1,e2,...>    events to sample; the first ranks the regions (default: cycles, or\n"
    "                        cpu-clock where there is no hardware PMU; see -prof perf:help for names)\n"
    "  frequency=<hz>        samples per second of each thread's event time (default 1000)\n"
    "  hotThreshold=<0..1>   share of the samples above which a region is listed (default 0.10)\n"
    "  top=<n>               regions and functions in the summary tables (default 20)\n"
    "  mergeMargin=<bytes>   cold gaps up to this many bytes are printed, not elided (default 32)\n"
    "  printMargin=<n>       instructions shown around sampled ones (default 10)\n"
    "  tooBigThreshold=<n>   a hot loop longer than this many instructions is not printed whole (default 1000)\n"
    "  intelSyntax=<bool>    Intel instead of AT&T syntax (default false)\n"
    "  saveLog=<bool>        also write the listing to <saveLogTo>/<benchmark>.perfasm.txt (default false)\n"
    "  saveLogTo=<dir>       where saveLog writes (default .)\n\n"
    "Only the measurement iterations are sampled, on every thread of each fork; the shares are summed\n"
    "over all forks and the per-op column is the sum of sample periods divided by the exact op count.\n"
    "Regions are ELF functions, demangled; each instruction shows its source line and DWARF inline\n"
    "chain (elfutils libdw), disassembly by Capstone. docs/profiling.md explains the output.\n";

ProfilerInfo perfasm_info() {
  ProfilerInfo info;
  info.name = "perfasm";
  info.description = "Linux perf_event sampling of the measured iterations: hottest code, disassembled and annotated";
  info.internal = true;
  info.external = true;
  info.help = [] { return std::string(kPerfasmHelp); };
  info.limitation = [] { return sampling_limitation(); };
  info.create = [](const ProfilerOptions& options) -> std::unique_ptr<Profiler> {
    ProfilerOptionReader reader("perfasm", options);
    PerfasmConfig c;
    const std::vector<std::string> names = reader.list("events", {});
    c.sampling.profiler = "perfasm";
    c.sampling.sampler.frequency = static_cast<int>(reader.integer("frequency", 1000, 1, 100000));
    const std::string threshold = reader.text("hotThreshold", "0.10");
    c.options.top = static_cast<int>(reader.integer("top", 20, 1, 100000));
    c.options.merge_margin = static_cast<int>(reader.integer("mergeMargin", 32, 0, 1 << 20));
    c.options.print_margin = static_cast<int>(reader.integer("printMargin", 10, 0, 100000));
    c.options.too_big = static_cast<int>(reader.integer("tooBigThreshold", 1000, 1, 1 << 24));
    c.options.intel_syntax = reader.flag("intelSyntax", false);
    c.save_log = reader.flag("saveLog", false);
    c.save_log_to = reader.text("saveLogTo", ".");
    reader.finish();
    try {
      std::size_t used = 0;
      c.options.hot_threshold = std::stod(threshold, &used);
      if (used != threshold.size() || !(c.options.hot_threshold >= 0 && c.options.hot_threshold <= 1)) throw 0;
    } catch (...) {
      reader.fail("option hotThreshold=" + threshold + ": expected a share between 0 and 1");
    }
    choose_sampled_events(names, reader, c.sampling);
    return std::make_unique<PerfasmProfiler>(std::move(c));
  };
  return info;
}

}  // namespace

ProfilerInfo perfasm_profiler_info() { return perfasm_info(); }

}  // namespace cmh::profilers
