// SPDX-License-Identifier: MIT
// -prof perfnorm (counters per op) and -prof perf (counters per iteration, summed):
// perf_event_open counters for every thread of the fork, scaled for multiplexing.
//
// Events this machine cannot count are skipped when they come from the default set
// (-lprof and name:help say which, and why); asked for by name with events=..., they
// are an error. The counters are opened in the constructor, which runs in the fork
// before the trial's threads exist (perf_events.hpp explains why that covers them).
#include "builtin_infos.hpp"
#include <cmh/profilers/perf_events.hpp>

#include <cmh/profiler_options.hpp>

#include <fmt/format.h>

namespace cmh::profilers {
namespace {

class PerfProfiler final : public InternalProfiler {
 public:
  PerfProfiler(bool per_op, const std::vector<const PerfEventSpec*>& events, bool explicit_events)
      : per_op_(per_op) {
    std::string first_reason;
    for (const PerfEventSpec* event : events) {
      PerfCounterSet set;
      if (auto reason = set.open(*event)) {
        if (explicit_events)
          throw ProfilerError(std::string("-prof ") + name() + ": event " + event->name +
                              " is not supported here: " + *reason);
        if (first_reason.empty()) first_reason = *reason;
        continue;
      }
      user_only_ = user_only_ || set.user_only();
      counters_.push_back({event, std::move(set), {}, {}});
    }
    if (counters_.empty())
      throw ProfilerError(std::string("-prof ") + name() + ": not supported here: " + first_reason);
    for (auto& c : counters_) {
      c.before.resize(c.set.size());
      c.after.resize(c.set.size());
    }
  }

  void before_iteration(const BenchmarkParams&, const IterationParams&) override {
    for (auto& c : counters_) c.set.read(c.before);
  }

  std::vector<ScalarResult> after_iteration(const BenchmarkParams&, const IterationParams&,
                                            const IterationResult& result) override {
    for (auto& c : counters_) c.set.read(c.after);  // first, before anything allocates
    std::vector<ScalarResult> out;
    if (per_op_ && result.all_ops == 0) return out;
    const double ops = static_cast<double>(result.all_ops);
    const std::string note = user_only_ ? "user space only: the kernel refused kernel-mode counting" : "";
    double cycles = -1, instructions = -1;
    for (const auto& c : counters_) {
      const double delta = PerfCounterSet::scaled_delta(c.before, c.after);
      const std::string_view name = c.event->name;
      if (name == "cycles") cycles = delta;
      if (name == "instructions") instructions = delta;
      if (per_op_) {
        out.push_back({std::string(name), delta / ops, c.event->unit, AggregationPolicy::average, note});
      } else if (name == "task-clock") {
        out.push_back({"perf.task-clock", delta / 1e6, "ms", AggregationPolicy::sum, note});
      } else {
        out.push_back({"perf." + std::string(name), delta, "#", AggregationPolicy::sum, note});
      }
    }
    const std::string prefix = per_op_ ? "" : "perf.";
    if (cycles > 0 && instructions > 0) {
      out.push_back({prefix + "CPI", cycles / instructions, "clks/insn", AggregationPolicy::average, note});
      out.push_back({prefix + "IPC", instructions / cycles, "insns/clk", AggregationPolicy::average, note});
    }
    return out;
  }

 private:
  struct Counter {
    const PerfEventSpec* event;
    PerfCounterSet set;
    std::vector<PerfCounterSet::Reading> before, after;
  };
  const char* name() const { return per_op_ ? "perfnorm" : "perf"; }

  bool per_op_;
  bool user_only_ = false;
  std::vector<Counter> counters_;
};

std::string perf_help(bool per_op) {
  std::string out =
      "Options:\n"
      "  events=<e1,e2,...>  the events to count (default: every one below this machine supports;\n"
      "                      one named here that it cannot count is an error)\n\n"
      "Events (counted for every thread of the fork, threads that exited included, and scaled\n"
      "for multiplexing by time enabled / time running):\n";
  for (const auto& e : perf_event_table()) {
    const auto reason = probe_perf_event(e);
    out += fmt::format("  {:<22} {:<9} {}\n", e.name, e.hardware ? "hardware" : "software",
                       reason ? "not supported here: " + *reason : "supported here");
  }
  out += per_op ? "\nMetrics: <event> in #/op (task-clock in ns/op), averaged over iterations; with\n"
                  "cycles and instructions also CPI (clks/insn) and IPC (insns/clk). Per op divides by\n"
                  "all ops, ramp-up and ramp-down included.\n"
                : "\nMetrics: perf.<event> in # per iteration (perf.task-clock in ms), summed over\n"
                  "iterations; with cycles and instructions also perf.CPI and perf.IPC (averaged).\n";
  return out;
}

ProfilerInfo perf_info(bool per_op) {
  ProfilerInfo info;
  info.name = per_op ? "perfnorm" : "perf";
  info.description = per_op ? "Linux perf_event counters of the fork, normalized by operation count"
                            : "Linux perf_event counters of the fork, totals per iteration";
  info.internal = true;
  info.unsupported_reason = [] { return perf_unsupported_reason(); };
  info.limitation = [] { return perf_limitation(); };
  info.help = [per_op] { return perf_help(per_op); };
  info.create = [per_op, name = info.name](const ProfilerOptions& options) -> std::unique_ptr<Profiler> {
    ProfilerOptionReader reader(name, options);
    const std::vector<std::string> names = reader.list("events", {});
    reader.finish();
    std::vector<const PerfEventSpec*> events;
    for (const auto& n : names) {
      const PerfEventSpec* e = find_perf_event(n);
      if (!e) {
        std::string known;
        for (const auto& k : perf_event_table()) known += (known.empty() ? "" : ", ") + std::string(k.name);
        reader.fail("unknown event '" + n + "' (known: " + known + ")");
      }
      events.push_back(e);
    }
    const bool explicit_events = !events.empty();
    if (!explicit_events)
      for (const auto& e : perf_event_table()) events.push_back(&e);
    return std::make_unique<PerfProfiler>(per_op, events, explicit_events);
  };
  return info;
}

}  // namespace

ProfilerInfo perf_profiler_info() { return perf_info(false); }
ProfilerInfo perfnorm_profiler_info() { return perf_info(true); }

}  // namespace cmh::profilers
