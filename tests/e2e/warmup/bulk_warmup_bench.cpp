// SPDX-License-Identifier: MIT
// The benchmarks of e2e:bulk_warmup (cmh-bulk-warmup): each writes one line per
// iteration to the file $CMH_WARMUP_LOG ("<pid> <benchmark> <params> <mode>
// <warmup|measurement>") from its iteration setup, so the test can read back
// which warmups and measurements ran in which process, in which order.
#include <cmh/cmh.hpp>
#include <cmh/params.hpp>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace {

void log_iteration(const cmh::BenchmarkParams& bp, const cmh::IterationParams& ip) {
  const char* path = std::getenv("CMH_WARMUP_LOG");
  if (path == nullptr) return;
  std::string params;
  for (const auto& [k, v] : bp.params) params += (params.empty() ? "" : ",") + k + "=" + v;
  if (std::FILE* f = std::fopen(path, "a")) {
    std::fprintf(f, "%ld %s %s %s %s\n", static_cast<long>(::getpid()), bp.benchmark.c_str(),
                 params.empty() ? "-" : params.c_str(), std::string(cmh::mode_short_label(bp.mode)).c_str(),
                 ip.kind == cmh::IterationKind::warmup ? "warmup" : "measurement");
    std::fclose(f);
  }
}

}  // namespace

struct Logged : cmh::ThreadState {
  void setup_iteration(const cmh::BenchmarkParams& bp, const cmh::IterationParams& ip) { log_iteration(bp, ip); }
};

struct Sized : cmh::ThreadState {
  int size = 0;
  static constexpr auto params = cmh::params(cmh::param("size", &Sized::size, "1", "2"));
  void setup_iteration(const cmh::BenchmarkParams& bp, const cmh::IterationParams& ip) { log_iteration(bp, ip); }
};

CMH_OPTIONS(Bulk, cmh::mode::average_time);
CMH_BENCHMARK(Bulk, c, Logged&, cmh::Blackhole& bh) { bh.consume(3); }
CMH_BENCHMARK(Bulk, a, Logged&, cmh::Blackhole& bh) { bh.consume(1); }
CMH_BENCHMARK(Bulk, b, Sized& s, cmh::Blackhole& bh) { bh.consume(s.size); }

// Selected only through -wmb in the test: warmed up, never measured there.
CMH_OPTIONS(Extra, cmh::mode::average_time);
CMH_BENCHMARK(Extra, x, Logged&, cmh::Blackhole& bh) { bh.consume(4); }

// Fails in its first call: a bulk warmup that fails is shown and the fork goes on (JMH),
// unless -foe true.
CMH_BENCHMARK(Broken, throws, Logged&) { throw std::runtime_error("broken on purpose"); }
