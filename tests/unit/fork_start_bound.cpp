// SPDX-License-Identifier: MIT
// The fork start-up bound (issue 24): the automatic base and its scaling with the
// host's own start-up and a wrapper, -forkStartTimeout as given, the pre-touch
// allowance from the fork's CMH_ALLOC and the measured rate, and the texts.
#include <doctest/doctest.h>

#include <chrono>

#include "fork/start_bound.hpp"

using namespace std::chrono_literals;
using cmh::Nanos;
using cmh::forking::StartBound;
using cmh::forking::StartBoundInputs;
using cmh::forking::pretouch_bytes;
using cmh::forking::start_bound;

namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

StartBound automatic(Nanos host_startup, bool wrapped = false) {
  StartBoundInputs in;
  in.host_startup = host_startup;
  in.wrapped = wrapped;
  return start_bound(in);
}

}  // namespace

TEST_CASE("fork start bound: 5 s, or ten host start-ups, ten times that under a wrapper") {
  CHECK(automatic(Nanos(2ms)).total() == Nanos(5s));
  CHECK(automatic(Nanos(0)).total() == Nanos(5s));
  CHECK(automatic(Nanos(-1)).total() == Nanos(5s));
  CHECK(automatic(Nanos(2ms)).automatic);
  CHECK(automatic(Nanos(2ms)).describe() == "5 s");
  CHECK(automatic(Nanos(12ms)).explain() ==
        "# Fork start-up bound (to its handshake): 5 s (automatic; the host started in 12 ms)");
  // Ten host start-ups, in whole seconds, on a slow machine.
  CHECK(automatic(Nanos(1210ms)).total() == Nanos(13s));
  CHECK(automatic(Nanos(3s)).total() == Nanos(30s));
  CHECK(automatic(Nanos::max()).total() > Nanos(std::chrono::hours(24 * 365)));  // saturates, never wraps
  // Ten times longer under a profiler's wrapper (valgrind).
  CHECK(automatic(Nanos(2ms), true).total() == Nanos(50s));
  CHECK(automatic(Nanos(2ms), true).explain() ==
        "# Fork start-up bound (to its handshake): 50 s (automatic; the host started in 2 ms, x 10 under a wrapper)");
  CHECK(automatic(Nanos(3s), true).total() == Nanos(300s));
}

TEST_CASE("fork start bound: -forkStartTimeout is taken as given") {
  StartBoundInputs in;
  in.configured = Nanos(300ms);
  in.host_startup = Nanos(3s);  // neither the host's start-up nor a wrapper scales it
  in.wrapped = true;
  const StartBound b = start_bound(in);
  CHECK_FALSE(b.automatic);
  CHECK(b.total() == Nanos(300ms));
  CHECK(b.describe() == "0.3 s");
  in.configured = Nanos(40ms);
  CHECK(start_bound(in).describe() == "40 ms");
}

TEST_CASE("fork start bound: pre-touching -Xms adds ten times its size over the measured rate") {
  StartBoundInputs in;
  in.pretouch_bytes = std::uint64_t{256} << 20;
  in.population_rate = 1 * kGiB;  // 256 MiB in 0.25 s, x 10
  const StartBound b = start_bound(in);
  CHECK(b.pretouch == Nanos(2500ms));
  CHECK(b.total() == Nanos(7500ms));
  CHECK(b.describe() == "5 s + 2.5 s to pre-touch its 256 MiB -Xms heap");
  CHECK(b.explain().find("1.00 GiB/s measured here, x 10") != std::string::npos);

  in.configured = Nanos(1s);  // the allowance is added to -forkStartTimeout too
  CHECK(start_bound(in).total() == Nanos(3500ms));

  in.population_rate = 0;  // not measured: an emulated guest's 128 MiB/s is assumed
  CHECK(start_bound(in).pretouch == Nanos(20s));
  CHECK(start_bound(in).explain().find("an assumed 128 MiB/s") != std::string::npos);

  // Rounded up to a tenth of a second; saturating.
  in.configured.reset();
  in.pretouch_bytes = std::uint64_t{1} << 20;
  in.population_rate = 2 * kGiB;  // 1 MiB: 5 ms with the factor
  CHECK(start_bound(in).pretouch == Nanos(100ms));
  in.pretouch_bytes = ~std::uint64_t{0};
  in.population_rate = 1;
  CHECK(start_bound(in).total() > Nanos(std::chrono::hours(24 * 365)));
}

TEST_CASE("fork start bound: the pre-touched bytes, read from CMH_ALLOC as the allocator reads it") {
  CHECK(pretouch_bytes("-Xms256m -XX:+AlwaysPreTouch") == std::uint64_t{256} << 20);
  CHECK(pretouch_bytes("-XX:+AlwaysPreTouch   -Xmx1g -Xms1g") == std::uint64_t{1} << 30);
  CHECK(pretouch_bytes("-Xms1g") == 0);                                          // no pre-touch
  CHECK(pretouch_bytes("-XX:+AlwaysPreTouch") == 0);                              // no -Xms
  CHECK(pretouch_bytes("-Xms1g -XX:+AlwaysPreTouch -XX:-AlwaysPreTouch") == 0);  // the last wins
  CHECK(pretouch_bytes("-Xms1g -Xms64m -XX:+AlwaysPreTouch") == std::uint64_t{64} << 20);
  CHECK(pretouch_bytes("-Xms2g -Xmx512m -XX:+AlwaysPreTouch") == std::uint64_t{512} << 20);  // clamped to -Xmx
  CHECK(pretouch_bytes("-Xms1g -XX:+AlwaysPreTouch -XX:Allocator=glibc") == 0);  // another allocator
  CHECK(pretouch_bytes("-Xms1g -XX:+AlwaysPreTouch -XX:Allocator=cmh") == std::uint64_t{1} << 30);
  CHECK(pretouch_bytes("-Xmsjunk -XX:Bogus -Xms8m -XX:+AlwaysPreTouch") == std::uint64_t{8} << 20);
  CHECK(pretouch_bytes("") == 0);
}

TEST_CASE("fork start bound: the process age and the population rate are measured; the debugger's time") {
  const Nanos age = cmh::forking::process_age();
  CHECK(age > Nanos(0));
  CHECK(age < Nanos(std::chrono::hours(24 * 365)));
  CHECK(cmh::forking::population_rate() > 0);
  CHECK(cmh::forking::population_rate() == cmh::forking::population_rate());  // measured once
  // The debugger's time: at least 10 s, longer on a slow machine.
  CHECK(cmh::forking::stack_time_limit(Nanos(2ms)) == Nanos(10s));
  CHECK(cmh::forking::stack_time_limit(Nanos(2500ms)) == Nanos(25s));
}
