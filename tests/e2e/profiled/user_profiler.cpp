// SPDX-License-Identifier: MIT
// A user's own profiler, added the way docs/profiling.md describes: a class linked into the
// benchmark executable and registered with CMH_PROFILER, no harness change. It
// reports the calls per iteration the harness normalises by, and the iteration's wall
// time, so the e2e test can check it runs in the fork and reaches the report.
#include <cmh/profiler_registration.hpp>

namespace {

class OpsProfiler final : public cmh::InternalProfiler {
 public:
  explicit OpsProfiler(const cmh::ProfilerOptions& options) {
    cmh::ProfilerOptionReader reader("opcount", options);
    scale_ = reader.integer("scale", 1, 1, 1'000'000);
    reader.finish();
  }
  static std::string help() { return "  scale=<n>  report ops divided by n (default 1)\n"; }

  void before_iteration(const cmh::BenchmarkParams&, const cmh::IterationParams&) override {}
  std::vector<cmh::ScalarResult> after_iteration(const cmh::BenchmarkParams&, const cmh::IterationParams&,
                                                 const cmh::IterationResult& r) override {
    return {{"opcount.all_ops", static_cast<double>(r.all_ops) / static_cast<double>(scale_), "ops",
             cmh::AggregationPolicy::sum},
            {"opcount.wall", static_cast<double>(r.wall_ns) / 1e6, "ms", cmh::AggregationPolicy::average}};
  }

 private:
  std::int64_t scale_ = 1;
};

}  // namespace

CMH_PROFILER(OpsProfiler, "opcount", "Calls per iteration and wall time (a user-defined profiler)");
