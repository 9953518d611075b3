// SPDX-License-Identifier: MIT
// -subwin's per-window descheduling evidence (subwindow_log.hpp, engine/window_probe.cpp)
// on events that always switch a thread out, whatever the machine: a sleep (a voluntary
// switch) and, for rseq, a signal delivered to the thread. Nothing is timed; whether rseq
// or getrusage is the evidence depends on the C library and kernel, and both are accepted.
// And -subwin auto's length from given costs.
#include <doctest/doctest.h>

#include <cmh/detail/subwindow_log.hpp>

#include "engine/window_probe.hpp"

#include <signal.h>
#include <time.h>

using cmh::detail::WindowEvidence;

namespace {
void sleep_a_millisecond() {
  timespec ts{0, 1'000'000};
  nanosleep(&ts, nullptr);
}
volatile sig_atomic_t handled = 0;
void on_signal(int) { handled = 1; }
}  // namespace

TEST_CASE("window probe: a sleep in the window is seen, by rseq or by getrusage") {
  auto probe = cmh::detail::this_thread_window_probe();
  const WindowEvidence kind = probe.evidence();
  CHECK((kind == WindowEvidence::rseq || kind == WindowEvidence::getrusage));
  probe.arm();
  sleep_a_millisecond();
  CHECK(probe.check());
  // check() re-arms: the next sleep is seen again.
  sleep_a_millisecond();
  CHECK(probe.check());
  probe.disarm();
  if (kind == WindowEvidence::rseq) CHECK(*probe.word == 0);
}

TEST_CASE("window probe: with rseq, a signal delivered to the thread is seen") {
  auto probe = cmh::detail::this_thread_window_probe();
  if (probe.evidence() != WindowEvidence::rseq) return;  // not registered here: nothing to check
  struct sigaction action {};
  struct sigaction previous {};
  action.sa_handler = &on_signal;
  sigemptyset(&action.sa_mask);
  REQUIRE(sigaction(SIGUSR2, &action, &previous) == 0);
  probe.arm();
  handled = 0;
  raise(SIGUSR2);
  CHECK(handled == 1);
  CHECK(probe.check());
  probe.disarm();
  sigaction(SIGUSR2, &previous, nullptr);
}

TEST_CASE("window probe: a probe without evidence never rejects") {
  cmh::detail::WindowProbe none;
  CHECK(none.evidence() == WindowEvidence::none);
  none.arm();
  sleep_a_millisecond();
  CHECK_FALSE(none.check());
  CHECK_FALSE(none.costly());
}

TEST_CASE("-subwin auto: 1000 times a window's bookkeeping, within [10 us, 1 ms], whole microseconds") {
  using cmh::engine::auto_subwindow_ns;
  CHECK(auto_subwindow_ns({28.6, 0.6, 1}) == 30'000);      // rseq here: clock + check
  CHECK(auto_subwindow_ns({28.6, 400, 2}) == 429'000);     // the getrusage fallback
  CHECK(auto_subwindow_ns({2, 0.5, 1}) == 10'000);         // a fast clock: the floor
  CHECK(auto_subwindow_ns({1500, 400, 2}) == 1'000'000);   // a slow clock source: the cap
  const auto measured = cmh::engine::measure_window_cost();
  CHECK(measured.clock_ns > 0);
  CHECK(measured.probe_ns >= 0);
  const auto t = auto_subwindow_ns(measured);
  CHECK(t >= 10'000);
  CHECK(t <= 1'000'000);
}
