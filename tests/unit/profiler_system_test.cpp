// SPDX-License-Identifier: MIT
// rusage, perf and perfnorm measured for real around work the test does: page
// faults from touching fresh pages, in this thread and in a thread started and
// joined inside the bracket (it must be counted), and how hardware events degrade
// on a machine without a PMU (this VM) while software events still count.
#include <doctest/doctest.h>

#include <cmh/profilers/builtins.hpp>

#include <cmh/profilers/perf_events.hpp>
#include "profiling/profiler_factory.hpp"
#include "results_fixture.hpp"

#include <sys/mman.h>

#include <cstring>
#include <chrono>
#include <thread>

namespace {

constexpr std::size_t kPage = 4096;
constexpr std::size_t kPages = 2048;  // 8 MiB

/// Maps fresh anonymous memory, touches every 4 KiB page once (huge pages off, so
/// each touch is one minor fault), unmaps it.
void fault_in_pages() {
  void* p = ::mmap(nullptr, kPages * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(p != MAP_FAILED);
  ::madvise(p, kPages * kPage, MADV_NOHUGEPAGE);
  auto* bytes = static_cast<volatile char*>(p);
  for (std::size_t i = 0; i < kPages; ++i) bytes[i * kPage] = 1;
  ::munmap(p, kPages * kPage);
}

using cmh::test::metric;

std::vector<cmh::ScalarResult> run_bracket(std::string_view spec, std::uint64_t all_ops, auto&& work) {
  cmh::profilers::register_builtins();
  auto profiler = cmh::profiling::create_profiler(spec);
  auto* internal = dynamic_cast<cmh::InternalProfiler*>(profiler.get());
  REQUIRE(internal != nullptr);
  cmh::BenchmarkParams bp;
  cmh::IterationResult ir;
  ir.all_ops = all_ops;
  internal->before_iteration(bp, bp.measurement);
  work();
  return internal->after_iteration(bp, bp.measurement, ir);
}

std::string spec_error(std::string_view spec) {
  try {
    cmh::profilers::register_builtins();
    (void)cmh::profiling::create_profiler(spec);
  } catch (const cmh::ProfilerError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("rusage: page faults of this thread and of a thread that exited, per op") {
  const auto results = run_bracket("rusage", 4, [] {
    fault_in_pages();
    std::thread([] { fault_in_pages(); }).join();
    // A sleep is always a voluntary context switch (the join may find the thread done).
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  const auto* minflt = metric(results, "rusage.minflt.norm");
  REQUIRE(minflt != nullptr);
  CHECK(minflt->unit == "#/op");
  CHECK(minflt->policy == cmh::AggregationPolicy::average);
  // 2 x 2048 faults over 4 ops, plus whatever else faulted (thread stack, ...).
  CHECK(minflt->value >= 2.0 * kPages / 4);
  // Generous: ASan's shadow memory and a new thread's stack fault in pages of their own.
  CHECK(minflt->value < 2.0 * kPages / 4 * 4);
  REQUIRE(metric(results, "rusage.nvcsw.norm") != nullptr);
  CHECK(metric(results, "rusage.nvcsw.norm")->value > 0);  // the sleep above
  for (auto label : {"rusage.majflt.norm", "rusage.nivcsw.norm", "rusage.utime.norm", "rusage.stime.norm"})
    CHECK(metric(results, label) != nullptr);
  REQUIRE(metric(results, "rusage.maxrss") != nullptr);
  CHECK(metric(results, "rusage.maxrss")->policy == cmh::AggregationPolicy::max);
  CHECK(metric(results, "rusage.maxrss")->value > 0);
  CHECK(spec_error("rusage:x=1").find("unknown option 'x' (it takes no options") != std::string::npos);
}

TEST_CASE("scale_for_multiplexing: counts scaled by time enabled / time running") {
  using cmh::profilers::scale_for_multiplexing;
  CHECK(scale_for_multiplexing(1000, 100, 100) == 1000.0);
  CHECK(scale_for_multiplexing(1000, 100, 25) == 4000.0);
  CHECK(scale_for_multiplexing(0, 100, 0) == 0.0);
  CHECK(scale_for_multiplexing(7, 0, 0) == 7.0);
}

TEST_CASE("perfnorm: software events count every thread, hardware events degrade clearly") {
  if (auto reason = cmh::profilers::perf_unsupported_reason()) {
    // perf_event_open is unusable here: the profiler says why and refuses to run.
    CHECK(spec_error("perfnorm").find("not supported here: " + *reason) != std::string::npos);
    return;
  }
  const auto results = run_bracket("perfnorm", 2, [] {
    fault_in_pages();
    std::thread([] { fault_in_pages(); }).join();  // started after the counters: inherited
  });
  const auto* faults = metric(results, "page-faults");
  const auto* clock = metric(results, "task-clock");
  REQUIRE(faults != nullptr);
  REQUIRE(clock != nullptr);
  CHECK(faults->unit == "#/op");
  CHECK(faults->value >= 2.0 * kPages / 2);
  CHECK(faults->value < 2.0 * kPages / 2 * 2);
  CHECK(clock->unit == "ns/op");
  CHECK(clock->value > 0);
  CHECK(metric(results, "context-switches") != nullptr);
  CHECK(metric(results, "cpu-migrations") != nullptr);

  const cmh::profilers::PerfEventSpec* cycles = cmh::profilers::find_perf_event("cycles");
  REQUIRE(cycles != nullptr);
  if (auto reason = cmh::profilers::probe_perf_event(*cycles)) {
    // No PMU (this VM): hardware events are left out of the default set, named as
    // unsupported by -lprof and name:help, and an error when asked for by name.
    CHECK(metric(results, "cycles") == nullptr);
    CHECK(metric(results, "CPI") == nullptr);
    const auto limitation = cmh::profilers::perf_limitation();
    REQUIRE(limitation.has_value());
    CHECK(limitation->find("hardware events not supported here") == 0);
    CHECK(limitation->find("cycles, instructions") != std::string::npos);
    CHECK(spec_error("perfnorm:events=cycles") ==
          "-prof perfnorm: event cycles is not supported here: " + *reason);
    const auto* info = cmh::ProfilerRegistry::instance().find("perfnorm");
    REQUIRE(info != nullptr);
    const std::string help = cmh::profiling::profiler_help_text(*info);
    CHECK(help.find("cycles                 hardware  not supported here: ") != std::string::npos);
    CHECK(help.find("task-clock             software  supported here") != std::string::npos);
    const std::string list = cmh::profiling::profiler_list_text();
    CHECK(list.find("[hardware events not supported here") != std::string::npos);
  } else {
    REQUIRE(metric(results, "cycles") != nullptr);
    CHECK(metric(results, "cycles")->value > 0);
    CHECK(metric(results, "CPI") != nullptr);
  }
}

TEST_CASE("perf: totals per iteration, summed, events chosen by name") {
  if (cmh::profilers::perf_unsupported_reason()) return;  // covered by the perfnorm case
  const auto results = run_bracket("perf:events=page-faults,task-clock", 1000, [] { fault_in_pages(); });
  REQUIRE(results.size() == 2);
  CHECK(results[0].label == "perf.page-faults");
  CHECK(results[0].unit == "#");
  CHECK(results[0].policy == cmh::AggregationPolicy::sum);
  CHECK(results[0].value >= kPages);
  CHECK(results[1].label == "perf.task-clock");
  CHECK(results[1].unit == "ms");
  CHECK(results[1].value > 0);
  CHECK(spec_error("perf:events=cycels").find("-prof perf: unknown event 'cycels' (known: cycles,") == 0);
  CHECK(spec_error("perf:events=").find("empty value") != std::string::npos);
  CHECK(spec_error("perf:event=cycles").find("unknown option 'event'") != std::string::npos);
}
