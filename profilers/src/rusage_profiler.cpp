// SPDX-License-Identifier: MIT
// -prof rusage: page faults, context switches and CPU time per op, from
// getrusage(RUSAGE_SELF), which covers every thread of the fork, exited ones included.
//
// This is where -XX:+AlwaysPreTouch shows: with the heap touched at start-up, minor
// faults per op drop to about zero. getrusage is a plain syscall, so nothing is
// allocated between the two snapshots.
#include "builtin_infos.hpp"

#include <cmh/profiler_options.hpp>

#include <sys/resource.h>


namespace cmh::profilers {
namespace {

struct Usage {
  std::uint64_t minflt = 0, majflt = 0, nvcsw = 0, nivcsw = 0;
  std::int64_t utime_ns = 0, stime_ns = 0;
  std::int64_t maxrss_kib = 0;
};

std::int64_t to_ns(const timeval& tv) {
  return static_cast<std::int64_t>(tv.tv_sec) * 1'000'000'000 + static_cast<std::int64_t>(tv.tv_usec) * 1000;
}

Usage read_usage() {
  rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);  // cannot fail for RUSAGE_SELF with a valid pointer
  Usage u;
  u.minflt = static_cast<std::uint64_t>(ru.ru_minflt);
  u.majflt = static_cast<std::uint64_t>(ru.ru_majflt);
  u.nvcsw = static_cast<std::uint64_t>(ru.ru_nvcsw);
  u.nivcsw = static_cast<std::uint64_t>(ru.ru_nivcsw);
  u.utime_ns = to_ns(ru.ru_utime);
  u.stime_ns = to_ns(ru.ru_stime);
  u.maxrss_kib = ru.ru_maxrss;
  return u;
}

class RusageProfiler final : public InternalProfiler {
 public:
  void before_iteration(const BenchmarkParams&, const IterationParams&) override { before_ = read_usage(); }

  std::vector<ScalarResult> after_iteration(const BenchmarkParams&, const IterationParams&,
                                            const IterationResult& result) override {
    const Usage after = read_usage();
    std::vector<ScalarResult> out;
    if (result.all_ops > 0) {
      const double ops = static_cast<double>(result.all_ops);
      auto per_op = [&](const char* label, double delta, const char* unit) {
        out.push_back({label, delta / ops, unit, AggregationPolicy::average});
      };
      per_op("rusage.minflt.norm", static_cast<double>(after.minflt - before_.minflt), "#/op");
      per_op("rusage.majflt.norm", static_cast<double>(after.majflt - before_.majflt), "#/op");
      per_op("rusage.nvcsw.norm", static_cast<double>(after.nvcsw - before_.nvcsw), "#/op");
      per_op("rusage.nivcsw.norm", static_cast<double>(after.nivcsw - before_.nivcsw), "#/op");
      per_op("rusage.utime.norm", static_cast<double>(after.utime_ns - before_.utime_ns), "ns/op");
      per_op("rusage.stime.norm", static_cast<double>(after.stime_ns - before_.stime_ns), "ns/op");
    }
    out.push_back({"rusage.maxrss", static_cast<double>(after.maxrss_kib), "KiB", AggregationPolicy::max});
    return out;
  }

 private:
  Usage before_;
};

constexpr const char* kRusageHelp = R"(This profiler takes no options.

Metrics (getrusage(RUSAGE_SELF): every thread of the fork, exited threads included):
  rusage.minflt.norm  #/op   average  minor page faults (first touch of a page, no I/O) per op
  rusage.majflt.norm  #/op   average  major page faults (the page had to be read in) per op
  rusage.nvcsw.norm   #/op   average  voluntary context switches (blocking, sleeping, joining)
  rusage.nivcsw.norm  #/op   average  involuntary context switches (preempted by the scheduler)
  rusage.utime.norm   ns/op  average  user CPU time of all threads per op
  rusage.stime.norm   ns/op  average  kernel CPU time of all threads per op
  rusage.maxrss       KiB    maximum  peak resident set size of the fork so far
Per-op values divide by all ops, ramp-up and ramp-down included. The kernel accounts CPU
time in ticks, so utime/stime are coarse for short iterations. With -XX:+AlwaysPreTouch the
heap is faulted in at start-up and rusage.minflt.norm drops to about zero.
)";

}  // namespace

ProfilerInfo rusage_profiler_info() {
  ProfilerInfo info;
  info.name = "rusage";
  info.description = "Page faults, context switches and CPU time per op via getrusage";
  info.internal = true;
  info.help = [] { return std::string(kRusageHelp); };
  info.create = [](const ProfilerOptions& options) -> std::unique_ptr<Profiler> {
    ProfilerOptionReader("rusage", options).finish();
    return std::make_unique<RusageProfiler>();
  };
  return info;
}

}  // namespace cmh::profilers
