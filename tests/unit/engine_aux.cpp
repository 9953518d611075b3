// SPDX-License-Identifier: MIT
// Aux counters (ops normalised like the primary, events summed) and Control's
// start flag.
#include <cmh/cmh.hpp>
#include <doctest/doctest.h>

#include <cstdint>

#include "engine_support.hpp"

namespace {

struct Tally : cmh::ThreadState {
  std::uint64_t calls = 0;
  std::uint64_t evens = 0;
  double halves = 0;
  static constexpr auto counters =
      cmh::aux_counters(cmh::ops_counter("calls", &Tally::calls), cmh::event_counter("evens", &Tally::evens),
                        cmh::ops_counter("halves", &Tally::halves));
};

struct Phases : cmh::ThreadState {
  std::uint64_t before_start = 0;
  std::uint64_t after_start = 0;
  static constexpr auto counters = cmh::aux_counters(cmh::event_counter("measured", &Phases::after_start));
};

}  // namespace

CMH_BENCHMARK(EngineAux, counted, Tally& t) {
  ++t.calls;
  t.halves += 0.5;
  if (t.calls % 2 == 0) ++t.evens;
}
CMH_BENCHMARK(EngineAux, phases, Phases& p, cmh::Control& c) {
  if (c.start_measurement()) ++p.after_start;
  else ++p.before_start;
}

using cmh::BenchmarkMode;
using cmh::testing::definition;
using cmh::testing::quick_plan;
using cmh::testing::run;

namespace {
const cmh::ScalarResult* find(const cmh::IterationResult& r, const std::string& label) {
  for (const auto& s : r.secondaries)
    if (s.label == label) return &s;
  return nullptr;
}
}  // namespace

TEST_CASE("engine: aux counters count the timed window and follow the primary's units") {
  const auto& def = definition("EngineAux.counted");
  for (auto mode : {BenchmarkMode::throughput, BenchmarkMode::average_time}) {
    CAPTURE(cmh::mode_short_label(mode));
    auto plan = quick_plan(def, mode, 2);
    for (const auto& r : run(def, plan).results) {
      const auto* calls = find(r, "calls");
      const auto* evens = find(r, "evens");
      const auto* halves = find(r, "halves");
      REQUIRE(calls);
      REQUIRE(evens);
      REQUIRE(halves);
      // One count per measured call: the ops counter scores exactly like the primary.
      CHECK(calls->value == doctest::Approx(r.primary.value));
      CHECK(calls->unit == r.primary.unit);
      CHECK(calls->policy == cmh::AggregationPolicy::average);
      CHECK(halves->value == doctest::Approx(mode == BenchmarkMode::throughput ? r.primary.value / 2
                                                                                 : r.primary.value * 2));
      CHECK(evens->unit == "#");
      CHECK(evens->policy == cmh::AggregationPolicy::sum);
      // Counters start at zero when each thread's window opens: a thread that made n
      // measured calls saw floor(n/2) even ones.
      double expected = 0;
      for (const auto& t : r.threads) expected += static_cast<double>(t.measured_ops / 2);
      CHECK(evens->value == doctest::Approx(expected).epsilon(0.01));
    }
  }
}

TEST_CASE("engine: Control says when this thread's measurement has started") {
  const auto& def = definition("EngineAux.phases");
  for (const auto& r : run(def, quick_plan(def, BenchmarkMode::throughput, 2)).results) {
    const auto* measured = find(r, "measured");
    REQUIRE(measured);
    CHECK(measured->value == static_cast<double>(r.measured_ops));
  }
}
