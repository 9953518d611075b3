// SPDX-License-Identifier: MIT
// -prof icount: instructions and estimated cycles per op, counted under Callgrind.
//
// One registry entry, three roles, told apart where the instance is created:
//  - on the host (external): after every fork it re-executes the benchmark in a fork
//    under Callgrind and reports that fork's counts per op (icount_rerun.hpp);
//  - in that fork (internal, CMH_ICOUNT_OUT set): counted iterations, collection around
//    the op loop, dumps read back (icount_counter.hpp);
//  - in an ordinary fork, or in the host with -f 0 (internal): nothing.
#include "builtin_infos.hpp"
#include "icount_counter.hpp"
#include "icount_rerun.hpp"

#include <cmh/profiler_options.hpp>

#include <cstdlib>

#include <cmh/detail/counted_calls.hpp>

namespace cmh::profilers {
namespace {

class IcountProfiler final : public InternalProfiler, public ExternalProfiler {
 public:
  explicit IcountProfiler(const IcountSettings& settings) : settings_(settings) {
    if (const char* out = std::getenv(kIcountOutEnv); out != nullptr && *out != '\0')
      counter_.emplace(settings.calls, out);
  }

  // In the fork under Callgrind: the counter. Elsewhere: nothing.
  void before_iteration(const BenchmarkParams& bp, const IterationParams& ip) override {
    if (counter_) counter_->before_iteration(bp, ip);
  }
  std::vector<ScalarResult> after_iteration(const BenchmarkParams& bp, const IterationParams& ip,
                                            const IterationResult& result) override {
    return counter_ ? counter_->after_iteration(bp, ip, result) : std::vector<ScalarResult>{};
  }

  // On the host: the fork under Callgrind, once the ordinary fork has completed.
  std::vector<ScalarResult> after_trial(const BenchmarkParams& bp, const ForkResult& fork, long, std::string_view,
                                        std::string_view) override {
    if (fork.failure || fork.warmup_fork) return {};
    return count_under_callgrind(bp, settings_, fork.index);
  }

 private:
  IcountSettings settings_;
  std::optional<CallgrindCounter> counter_;
};

std::optional<std::string> icount_unsupported() {
  if (!engine::callgrind_client_requests())
    return "this build has no valgrind/callgrind.h (install Debian's valgrind and rebuild cmh)";
  return valgrind_missing();
}

std::string icount_help() {
  return "Options:\n"
         "  calls=<n>         calls per worker thread in each counted iteration (default 100, 1..10^9)\n"
         "  branch=<bool>     also simulate branch prediction: icount.branchmiss.norm (default false)\n\n"
         "After each fork, the benchmark runs again in a fork under Valgrind's Callgrind\n"
         "(setarch -R, a fixed environment, --instr-atstart=no), with counted iterations: at\n"
         "most 1 warmup and 2 measurement iterations of <calls> calls per thread, untimed\n"
         "(counts are deterministic; -i beyond 2 is ignored). Each thread's collection is on\n"
         "only around its op loop; the same loop with an empty body is counted the same way\n"
         "and subtracted, once per thread.\n\n"
         "Metrics, per op, averaged over the counted iterations:\n"
         "  icount.ir.norm          instructions executed (Callgrind's Ir)\n"
         "  icount.cycles.norm      estimated cycles: L1 hits + 5 LL hits + 35 RAM hits, with a\n"
         "                          fixed cache model (I1, D1 32768,8,64; LL 8388608,16,64)\n"
         "  icount.l1miss.norm      L1 misses (instruction + data)\n"
         "  icount.llmiss.norm      last-level misses (RAM hits)\n"
         "  icount.branchmiss.norm  mispredicted branches (branch=true)\n"
         "  icount.overhead.norm    the empty loop's Ir per op, subtracted from icount.ir.norm\n"
         "The note beside them (and in the JSON's cmh.notes) records the Valgrind version, the\n"
         "cache geometry and the formula. Compare runs with cmh-compare --icount-threshold.\n";
}

}  // namespace

ProfilerInfo icount_profiler_info() {
  ProfilerInfo info;
  info.name = "icount";
  info.description = "Instructions and estimated cycles per op, counted under Valgrind's Callgrind";
  info.internal = true;
  info.external = true;
  info.unsupported_reason = [] { return icount_unsupported(); };
  info.help = [] { return icount_help(); };
  info.create = [name = info.name](const ProfilerOptions& options) -> std::unique_ptr<Profiler> {
    ProfilerOptionReader reader(name, options);
    IcountSettings settings;
    settings.calls = static_cast<std::uint64_t>(reader.integer("calls", 100, 1, 1'000'000'000));
    settings.branch = reader.flag("branch", false);
    reader.finish();
    return std::make_unique<IcountProfiler>(settings);
  };
  return info;
}

}  // namespace cmh::profilers
