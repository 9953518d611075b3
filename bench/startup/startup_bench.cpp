// SPDX-License-Identifier: MIT
// Fork start-up for bench/RESULTS.md table 4: the `startup` profiler measures, for each
// fork, the time from the host's spawn to (a) this executable's static initialisation
// in the fork (exec, dynamic loading, constructors, allocator start) and (b) the start
// of the first iteration (handshake, plan, trial set-up, worker threads, states), plus
// the fork's whole lifetime as the host sees it (spawn to exit and output drained).
// It is an external profiler (in the host: stamps CLOCK_MONOTONIC into the fork's
// environment just before the spawn, and times the fork's end) and an internal one (in
// the fork: compares its own clock readings with the stamp). CLOCK_MONOTONIC is one
// clock for every process of the machine, so the differences are real intervals.
#include <cmh/cmh.hpp>
#include <cmh/profiler_registration.hpp>

#include <time.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr const char* kSpawnVariable = "CMH_BENCH_SPAWN_NS";

std::int64_t monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

/// Taken while this executable's constructors run: in a fork, the image is loaded.
const std::int64_t g_image_ready_ns = monotonic_ns();

double millis(std::int64_t ns) { return static_cast<double>(ns) / 1e6; }

class StartupProfiler : public cmh::InternalProfiler, public cmh::ExternalProfiler {
 public:
  // ---- host side, around one fork ----
  std::vector<std::string> extra_fork_args(const cmh::BenchmarkParams&) override {
    spawn_ns_ = monotonic_ns();  // the host spawns right after collecting fork arguments
    return {"-D" + std::string(kSpawnVariable) + "=" + std::to_string(spawn_ns_)};
  }
  std::vector<cmh::ScalarResult> after_trial(const cmh::BenchmarkParams&, const cmh::ForkResult&, long,
                                             std::string_view, std::string_view) override {
    return {{"startup.fork_lifetime", millis(monotonic_ns() - spawn_ns_), "ms", cmh::AggregationPolicy::average}};
  }

  // ---- fork side, around iterations ----
  void before_iteration(const cmh::BenchmarkParams&, const cmh::IterationParams&) override {
    if (first_iteration_ns_ == 0) first_iteration_ns_ = monotonic_ns();
  }
  /// Every iteration reports the same two values, so averaging over iterations keeps them.
  std::vector<cmh::ScalarResult> after_iteration(const cmh::BenchmarkParams&, const cmh::IterationParams&,
                                                 const cmh::IterationResult&) override {
    const char* stamp = std::getenv(kSpawnVariable);
    if (stamp == nullptr) return {};  // -f 0: there was no spawn
    const std::int64_t spawn = std::strtoll(stamp, nullptr, 10);
    return {{"startup.spawn_to_image", millis(g_image_ready_ns - spawn), "ms", cmh::AggregationPolicy::average},
            {"startup.spawn_to_first_iteration", millis(first_iteration_ns_ - spawn), "ms",
             cmh::AggregationPolicy::average}};
  }

 private:
  std::int64_t spawn_ns_ = 0;
  std::int64_t first_iteration_ns_ = 0;
};

}  // namespace

CMH_PROFILER(StartupProfiler, "startup", "Fork start-up: spawn to image loaded, to first iteration, and fork lifetime (ms)");

CMH_BENCHMARK(Startup, empty) {}
