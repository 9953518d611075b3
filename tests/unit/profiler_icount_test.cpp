// SPDX-License-Identifier: MIT
// -prof icount's parts that run without Valgrind: reading a Callgrind dump, the cost
// model, Valgrind's reason for a failure, the plan of the fork under Callgrind, and the
// engine's counted iterations (exactly N calls per thread, every mode, no ramps, no sleep).
#include <cmh/cmh.hpp>
#include <doctest/doctest.h>

#include <chrono>

#include "callgrind_costs.hpp"
#include "engine/counted_loop.hpp"
#include "engine_support.hpp"
#include "icount_rerun.hpp"

using namespace cmh::profilers;

namespace {

struct Calls : cmh::ThreadState {
  std::uint64_t n = 0;
};

}  // namespace

CMH_BENCHMARK(IcountEngine, calls, Calls& c) { ++c.n; }

TEST_CASE("icount: a Callgrind dump's summary with cache and branch events") {
  const std::string dump =
      "version: 1\ncreator: callgrind-3.19.0\npid: 42\ncmd:  ./t\npart: 1\n"
      "desc: I1 cache: 32768 B, 64 B, 8-way associative\n"
      "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim\n"
      "summary: 1000 300 200 10 20 5 2 4 1 100 7 3 1\n\nfn=(1) main\n5 1000\ntotals: 999 300\n";
  std::string error;
  const auto c = parse_callgrind_dump(dump, error);
  REQUIRE_MESSAGE(c, error);
  CHECK(c->cache_sim);
  CHECK(c->branch_sim);
  CHECK(c->ir == 1000);  // the summary, not the totals line
  CHECK(c->l1_misses() == 35);
  CHECK(c->ram_hits() == 7);
  CHECK(c->ll_hits() == 28);
  CHECK(c->l1_hits() == 1500 - 35);
  // iai-callgrind's estimate: L1 hits + 5 LL hits + 35 RAM hits.
  CHECK(c->estimated_cycles() == 1465 + 5 * 28 + 35 * 7);
  CHECK(c->branch_misses() == 8);
  const CallgrindCounts body = c->minus(*c, 0.5);
  CHECK(body.ir == 500);
  CHECK(body.estimated_cycles() == doctest::Approx(c->estimated_cycles() / 2));
}

TEST_CASE("icount: trailing zero costs may be left out; bad dumps are errors") {
  std::string error;
  auto c = parse_callgrind_dump("events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nsummary: 7 1\n", error);
  REQUIRE(c);
  CHECK(c->ir == 7);
  CHECK(c->dw == 0);
  CHECK_FALSE(c->branch_sim);
  CHECK_FALSE(parse_callgrind_dump("summary: 7\n", error));
  CHECK(error.find("events") != std::string::npos);
  CHECK_FALSE(parse_callgrind_dump("events: Ir\n", error));
  CHECK(error.find("summary") != std::string::npos);
  CHECK_FALSE(parse_callgrind_dump("events: Ir\nsummary: 12x\n", error));
  CHECK(error.find("Ir") != std::string::npos);
  CHECK_FALSE(parse_callgrind_dump("events: Ir\nsummary: 1 2\n", error));
}

TEST_CASE("icount: Valgrind's reason for an instruction it cannot run, in one line") {
  const std::string err =
      "vex amd64->IR: unhandled instruction bytes: 0x62 0xF1 0x7D 0x48 0xFE 0xC0\n"
      "vex amd64->IR:   REX=0 REX.W=0 REX.R=0 REX.X=0 REX.B=0\n"
      "==14129== valgrind: Unrecognised instruction at address 0x1091c0.\n"
      "==14129==    at 0x1091C0: f() (avx.cpp:3)\n"
      "==14129==    by 0x1090C9: main (avx.cpp:4)\n"
      "==14129== Your program just tried to execute an instruction that Valgrind\n"
      "==14129== Process terminating with default action of signal 4 (SIGILL)\n"
      "==14129==  Illegal opcode at address 0x1091C0\n"
      "==14129==    at 0x1091C0: f() (avx.cpp:3)\n";
  const std::string r = valgrind_reason(err);
  CHECK(r.find('\n') == std::string::npos);
  CHECK(r.find("unhandled instruction bytes: 0x62") != std::string::npos);
  CHECK(r.find("valgrind: Unrecognised instruction at address 0x1091c0.; at 0x1091C0: f() (avx.cpp:3)") !=
        std::string::npos);
  CHECK(r.find("signal 4 (SIGILL)") != std::string::npos);
  CHECK(r.find("REX") == std::string::npos);
  CHECK(valgrind_reason("some output\nof the benchmark\n").empty());
}

TEST_CASE("icount: the plan of the fork under Callgrind") {
  cmh::BenchmarkParams plan;
  plan.warmup.count = 3;
  plan.measurement.count = 5;
  plan.precision = 0.02;
  plan.subwindow = std::chrono::milliseconds(1);
  plan.timeout = std::chrono::seconds(5);
  plan.profilers = {"icount:calls=7", "alloc"};
  IcountSettings settings;
  settings.calls = 7;
  settings.branch = true;
  const cmh::BenchmarkParams counted = counted_plan(plan, settings);
  CHECK(counted.warmup.count == 1);
  CHECK(counted.measurement.count == 2);
  CHECK(counted.measurement.time.count() == 0);
  CHECK(counted.precision == 0);
  CHECK(counted.subwindow.count() == 0);
  CHECK(counted.timeout >= std::chrono::minutes(10));
  REQUIRE(counted.profilers.size() == 1);
  CHECK(counted.profilers[0] == "icount:calls=7;branch=true");
  plan.warmup.count = 0;
  plan.measurement.count = 1;
  CHECK(counted_plan(plan, settings).warmup.count == 0);
  CHECK(counted_plan(plan, settings).measurement.count == 1);
  ValgrindInstall v{"/usr/bin/valgrind", "3.19.0"};
  CHECK(icount_model_text(v) ==
        "Valgrind 3.19.0 Callgrind; I1 32768,8,64, D1 32768,8,64, LL 8388608,16,64; "
        "cycles = L1 hits + 5 LL hits + 35 RAM hits");
}

TEST_CASE("icount: counted iterations make exactly N calls per thread in every mode, without sleeping") {
  const auto& def = cmh::testing::definition("IcountEngine.calls");
  cmh::engine::set_counted_calls(37);
  for (auto mode : {cmh::BenchmarkMode::throughput, cmh::BenchmarkMode::sample_time, cmh::BenchmarkMode::single_shot}) {
    INFO("mode " << static_cast<int>(mode));
    // 10-minute iterations: were they slept, the test would hang until ctest's timeout.
    auto plan = cmh::testing::quick_plan(def, mode, 2, 2, 600'000);
    plan.warmup.count = 1;
    const auto obs = cmh::testing::run(def, plan);
    const auto measured = obs.measured();
    REQUIRE(measured.size() == 2);
    for (const auto& r : measured) {
      CHECK(r.measured_ops == 74);
      CHECK(r.all_ops == 74);  // no ramp-up or ramp-down calls
      for (const auto& t : r.threads) CHECK(t.measured_ops == 37);
    }
  }
  cmh::engine::set_counted_calls(0);
  cmh::engine::count_empty_loop(5, false);  // outside Valgrind: runs, counts nothing
}
