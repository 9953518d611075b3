// SPDX-License-Identifier: MIT
// The robust estimate on synthetic data with a known undisturbed cost (no clock is
// read): -subwin's window rejection (SubwindowLog), the clean windows' mean under injected
// bursts of several lengths, coverage of the truth at the stated 95 % with a narrow
// interval where the median of all windows misses it, the stall margin, and the method the
// evidence chooses when there are no clean sub-windows.
#include <doctest/doctest.h>

#include <cmh/detail/subwindow_log.hpp>

#include "stats/aggregate.hpp"
#include "stats/disturbance.hpp"
#include "stats/robust_estimate.hpp"
#include "synthetic_runs.hpp"

#include <cmath>
#include <vector>

using cmh::ForkResult;
using cmh::IterationResult;
using cmh::ThreadMeasurement;
using cmh::detail::SubwindowLog;
using cmh::stats::RobustMethod;

TEST_CASE("window rejection: a switched-out window and the one after it go to the buffer's end") {
  std::vector<double> buffer(8, 0.0);
  SubwindowLog log{buffer.data(), 8};
  log.add(10, false);
  log.add(90, true);   // switched out
  log.add(12, false);  // right after: refilling caches
  log.add(11, false);
  log.skip(true);      // a chunk too short to record, switched out
  log.add(13, false);  // right after it
  log.add(10.5, false);
  CHECK(log.clean == 3);
  CHECK(log.rejected == 3);
  CHECK(buffer[0] == 10);
  CHECK(buffer[1] == 11);
  CHECK(buffer[2] == 10.5);
  CHECK(buffer[7] == 90);
  CHECK(buffer[6] == 12);
  CHECK(buffer[5] == 13);
}

TEST_CASE("window rejection: a switched-out window without its wait is kept; the one after is not") {
  std::vector<double> buffer(8, 0.0);
  SubwindowLog log{buffer.data(), 8};
  log.add(10, false);
  log.add(10.5, true, true);  // switched out, its run-queue wait taken out: kept
  log.add(12, false);         // right after: refilling caches
  log.add(90, true, false);   // switched out, wait unknown
  log.add(11, false);         // right after it
  log.add(10.2, false);
  CHECK(log.clean == 3);
  CHECK(log.corrected == 1);
  CHECK(log.rejected == 3);
  CHECK(buffer[1] == 10.5);
  CHECK(buffer[2] == 10.2);
  CHECK(buffer[7] == 12);
  CHECK(buffer[6] == 90);
  CHECK(buffer[5] == 11);
}

TEST_CASE("window rejection: the clean windows' mean is their time over their calls") {
  // Beside a hog the chunk shrinks after long windows; a short window kept without its
  // wait still holds the tick that switched the thread out. A quiet machine spreads that
  // tick over a full chunk: weighted by calls, so does the mean.
  std::vector<double> buffer(8, 0.0);
  SubwindowLog log{buffer.data(), 8};
  log.add(2.0, false, false, 10000);    // 20 us
  log.add(2.0, false, false, 10000);
  log.add(250.0, true, true, 200);      // 50 us over 200 calls: 40 us of it the tick
  log.add(50.0, false, false, 100);     // right after: rejected, not counted
  log.add(2.0, false, false, 10000);
  CHECK(log.clean == 4);
  CHECK(log.clean_calls == 30200);
  CHECK(log.clean_ns / log.clean_calls == doctest::Approx(110000.0 / 30200));  // 3.64, not (6 + 250) / 4 = 64
}

namespace {
std::int64_t g_stats_fake_run_delay = 0;
std::int64_t stats_fake_run_delay() noexcept { return g_stats_fake_run_delay; }
}  // namespace

TEST_CASE("window probe: the wait since the last switched-out window, or unknown") {
  cmh::detail::WindowProbe probe;
  CHECK(probe.waited() == -1);  // no schedstat here
  probe.run_delay = &stats_fake_run_delay;
  g_stats_fake_run_delay = 1000;
  probe.arm();
  g_stats_fake_run_delay = 4500;
  CHECK(probe.waited() == 3500);
  g_stats_fake_run_delay = 4600;
  CHECK(probe.waited() == 100);
  g_stats_fake_run_delay = -1;  // unreadable now
  CHECK(probe.waited() == -1);
  g_stats_fake_run_delay = 5000;
  CHECK(probe.waited() == -1);  // no reading before it to subtract
  CHECK(probe.waited() == 0);
}

TEST_CASE("window rejection: a full buffer stops recording, the evidence still counts") {
  std::vector<double> buffer(3, 0.0);
  SubwindowLog log{buffer.data(), 3};
  for (int i = 0; i < 10; ++i) log.add(1 + i, i == 5);
  CHECK(log.clean + log.rejected == 3);
  CHECK(log.clean == 3);
  log.add(100, false);
  CHECK(log.after_switch == false);
}

TEST_CASE("window rejection: bursts of several lengths, the clean windows' mean stays on the truth") {
  for (double length : {0.2, 2.0, 20.0})
    for (double probability : {0.1, 0.3}) {
      synthetic::Model m;
      m.windows = 2000;
      m.burst_windows = length;
      m.burst_probability = probability;
      m.refill_penalty = 0.1;
      m.silent_probability = 0.02;
      m.silent_penalty = 0.3;
      synthetic::Random rng(7);
      auto it = synthetic::iteration(m, m.base(), rng);
      INFO("bursts of " << length << " windows in " << probability * 100 << " % of windows");
      // Rejected: the bursts and the window after each (fewer where bursts follow each other).
      CHECK(it.log.rejected > 0.9 * (2 * probability - probability * probability) * m.windows);
      CHECK(it.log.rejected < 1.1 * 2 * probability * m.windows);
      CHECK(it.clean_mean() == doctest::Approx(m.truth).epsilon(0.005));
      // All windows: the bursts and refills drag the median.
      if (probability >= 0.3) CHECK(it.all_median() > 1.04 * m.truth);
    }
}

TEST_CASE("window rejection: a quiet machine's own slow windows stay in the clean mean") {
  // The undisturbed value is what a quiet machine gives, its unflagged slow windows
  // (interrupts, the hypervisor's exits) included: here 10 % of windows, 50 % slower.
  synthetic::Model m;
  m.windows = 4000;
  m.silent_probability = 0.1;
  m.silent_penalty = 0.5;
  synthetic::Random rng(11);
  auto it = synthetic::iteration(m, m.base(), rng);
  CHECK(it.log.rejected == 0);
  CHECK(it.clean_mean() == doctest::Approx(m.truth).epsilon(0.005));
  // A statistic of the typical window (the median) sits below it, by about the slow share.
  CHECK(it.all_median() < 0.97 * m.truth);
}

namespace {

struct RobustCoverage {
  int runs = 0, held = 0;
  std::vector<double> half_widths, errors;
  double share() const { return static_cast<double>(held) / runs; }
  static double median(std::vector<double> v) {
    return cmh::stats::median_in_place(v.data(), v.data() + v.size());
  }
};

/// The synthetic run's clean means and medians as the worker reports them, per iteration.
std::vector<ForkResult> as_forks(const synthetic::Run& run) {
  std::vector<ForkResult> forks(run.clean.size());
  for (std::size_t f = 0; f < forks.size(); ++f)
    for (std::size_t i = 0; i < run.clean[f].size(); ++i) {
      IterationResult it;
      it.subwindow_clean_mean = run.clean[f][i];
      it.subwindow_clean_median = run.clean_median[f][i];
      forks[f].measurement.push_back(it);
    }
  return forks;
}

enum class Values { clean, clean_with_margin, all };

/// The robust interval over `runs` synthetic runs: the clean windows' means (with or without
/// the stall margin, as robust_estimate() adds it), or every window's median.
RobustCoverage robust_cover(const synthetic::Model& m, int runs, std::uint64_t seed, Values values) {
  synthetic::Random rng(seed);
  RobustCoverage c;
  for (int r = 0; r < runs; ++r) {
    auto run = synthetic::run(m, rng);
    cmh::stats::RobustEstimate est;
    cmh::stats::interval_over(values == Values::all ? run.all : run.clean, est);
    if (values == Values::clean_with_margin) {
      const auto forks = as_forks(run);
      std::vector<const ForkResult*> pointers;
      for (const auto& f : forks) pointers.push_back(&f);
      cmh::stats::add_stall_margin(cmh::stats::stall_share(cmh::BenchmarkMode::average_time, pointers), est);
    }
    ++c.runs;
    c.held += est.low <= m.truth && m.truth <= est.high ? 1 : 0;
    c.half_widths.push_back(est.relative_half_width());
    c.errors.push_back(std::fabs(est.score / m.truth - 1));
  }
  return c;
}

}  // namespace

TEST_CASE("robust interval: 95 % coverage and a narrow interval under bursts of several lengths") {
  for (double length : {0.3, 3.0, 30.0}) {
    synthetic::Model m;
    m.burst_windows = length;
    m.burst_probability = 0.3;  // the bursty load's 1.5 switches per ms, in 200 us windows
    m.refill_penalty = 0.1;
    m.silent_probability = 0.01;
    m.silent_penalty = 0.3;
    auto robust = robust_cover(m, 200, 41 + static_cast<std::uint64_t>(length), Values::clean);
    INFO("bursts of " << length << " windows: coverage " << robust.share() << ", median half-width "
                      << RobustCoverage::median(robust.half_widths));
    CHECK(robust.share() >= 0.91);
    CHECK(RobustCoverage::median(robust.half_widths) < 0.10);
    CHECK(RobustCoverage::median(robust.errors) < 0.02);
    // The median of every window, with the same clustering: narrow, and beside the truth.
    auto all = robust_cover(m, 200, 41 + static_cast<std::uint64_t>(length), Values::all);
    INFO("all windows: coverage " << all.share());
    CHECK(all.share() < 0.5);
  }
}

namespace {

/// A quiet machine like this project's VM: 0.5 % of windows carry a tick or an exit that
/// makes them 4 times as long (a 1.5 % share); a load switches the thread out in 1 %.
synthetic::Model ticking_machine() {
  synthetic::Model m;
  m.windows = 4000;
  m.silent_probability = 0.005;
  m.silent_penalty = 3.0;
  m.fork_sd = 0.002;
  m.iteration_sd = 0.001;
  m.window_sd = 0.01;
  m.burst_probability = 0.01;
  m.burst_windows = 30;
  return m;
}

}  // namespace

TEST_CASE("robust interval: the stall margin holds the quiet value when a load moves the unseen stalls") {
  // The loads: a hog that switches the thread out at 40 % of the ticks, their wait unknown
  // (their stall leaves the clean windows with them), and neighbours that add as many slow
  // windows again that look clean. (The margin covers a loss of up to about half the
  // stalls: at half, this case's coverage falls to 0.945.)
  synthetic::Model m = ticking_machine();
  struct Load {
    const char* name;
    double ticks_switch, neighbours;
  };
  for (const Load load : {Load{"quiet", 0, 0}, Load{"ticks switch the thread out", 0.4, 0},
                          Load{"neighbours add slow windows", 0, 0.005}}) {
    m.silent_switch_probability = load.ticks_switch;
    m.neighbour_probability = load.neighbours;
    const auto plain = robust_cover(m, 200, 71, Values::clean);
    const auto margin = robust_cover(m, 200, 71, Values::clean_with_margin);
    INFO(load.name << ": coverage " << plain.share() << " without the margin, " << margin.share() << " with it ("
                   << "median half-width " << RobustCoverage::median(margin.half_widths) << ")");
    CHECK(margin.share() >= 0.95);
    CHECK(RobustCoverage::median(margin.half_widths) < 0.05);
    // Under either load the statistical interval alone is narrow and beside the quiet value.
    if (load.ticks_switch > 0 || load.neighbours > 0) CHECK(plain.share() < 0.5);
  }
}

TEST_CASE("robust interval: with the wait known, ticks that switch the thread out keep their stall") {
  // Beside a hog on its CPU nearly every tick switches the thread out. Rejecting those
  // windows takes the ticks' stall with them; keeping them without their wait does not.
  synthetic::Model m = ticking_machine();
  m.silent_switch_probability = 0.95;
  const auto rejected = robust_cover(m, 200, 81, Values::clean_with_margin);
  m.wait_known = true;
  const auto kept = robust_cover(m, 200, 81, Values::clean_with_margin);
  INFO("coverage " << rejected.share() << " rejecting them, " << kept.share() << " keeping them");
  CHECK(rejected.share() < 0.5);
  CHECK(kept.share() >= 0.95);
  CHECK(RobustCoverage::median(kept.errors) < 0.003);
}

TEST_CASE("robust interval: without per-window evidence nothing is rejected, and the bursts show") {
  synthetic::Model m;
  m.burst_windows = 3;
  m.burst_probability = 0.3;
  m.refill_penalty = 0.1;
  m.evidence = false;
  auto c = robust_cover(m, 100, 51, Values::clean);
  CHECK(c.share() < 0.5);
}

TEST_CASE("robust interval: one fork, clustered by iteration: 95 % of its own fork, blind to others") {
  synthetic::Model m;
  m.forks = 1;
  m.iterations = 20;
  m.iteration_sd = 0.01;
  m.burst_probability = 0.2;
  m.refill_penalty = 0.1;
  m.fork_sd = 0;  // a fork is the machine's undisturbed cost: the interval should hold it
  auto alone = robust_cover(m, 300, 61, Values::clean);
  INFO("one fork, no fork offsets: " << alone.share());
  CHECK(alone.share() >= 0.91);
  CHECK(alone.share() <= 0.99);
  m.fork_sd = 0.02;  // forks differ: one fork's interval cannot see it, as its note says
  auto blind = robust_cover(m, 300, 62, Values::clean);
  INFO("one fork, forks differing by 2 %: " << blind.share());
  CHECK(blind.share() < 0.6);
}

TEST_CASE("robust interval: one fork is clustered by iteration and says so") {
  cmh::stats::RobustEstimate est;
  cmh::stats::interval_over({{10, 10.2, 9.8, 10.1, 9.9}}, est);
  CHECK_FALSE(est.by_fork);
  CHECK(est.clusters == 5);
  CHECK(est.score == doctest::Approx(10));
  CHECK(est.low < 10);
  CHECK(est.high > 10);
  cmh::stats::interval_over({{10, 11}, {}, {12}}, est);
  CHECK(est.by_fork);
  CHECK(est.clusters == 2);
}

// ---- The method the evidence chooses ----

namespace {

constexpr std::int64_t kOneMsNs = 1'000'000;

ThreadMeasurement thread(std::int64_t window_ns, std::int64_t cpu_ns, std::uint64_t ops, std::int64_t voluntary = 0,
                         std::int64_t involuntary = 0) {
  ThreadMeasurement t;
  t.measured_ops = ops;
  t.duration_ns = t.window_ns = window_ns;
  t.cpu_ns = cpu_ns;
  t.voluntary_switches = voluntary;
  t.involuntary_switches = involuntary;
  t.run_delay_ns = window_ns - cpu_ns;
  return t;
}

/// A 200 ms iteration of 2 ns ops: `cpu_share` of the window on the CPU, others using
/// the rest (the disturbance rule's evidence), the primary the wall time per op.
IterationResult load_iteration(double cpu_share, double clean_mean = std::nan(""), std::int64_t windows = 0,
                               std::int64_t voluntary = 0) {
  IterationResult it;
  const std::int64_t cpu = static_cast<std::int64_t>(200 * kOneMsNs * cpu_share);
  it.threads = {thread(200 * kOneMsNs, cpu, 100'000'000 * cpu_share, voluntary)};
  it.measured_ops = it.threads[0].measured_ops;
  it.primary.value = 200.0 * kOneMsNs / static_cast<double>(it.measured_ops);
  it.host.others_share = 1 - cpu_share;
  it.host.idle_share = 0;
  it.subwindow_clean_mean = clean_mean;
  it.subwindows = windows;
  it.subwindows_rejected = windows / 4;
  it.subwindow_length_ns = windows > 0 ? 30'000 : 0;
  it.subwindow_evidence = windows > 0 ? 1 : 0;
  return it;
}

cmh::stats::RobustEstimate estimate(const cmh::BenchmarkParams& p, const std::vector<ForkResult>& forks) {
  std::vector<const ForkResult*> pointers;
  for (const auto& f : forks) pointers.push_back(&f);
  std::vector<std::vector<double>> primary;
  for (const auto& f : forks) {
    auto& row = primary.emplace_back();
    for (const auto& it : f.measurement) row.push_back(it.primary.value);
  }
  return cmh::stats::robust_estimate(p, pointers, primary, cmh::stats::summarise_disturbance(pointers));
}

cmh::BenchmarkParams avgt_ns() {
  cmh::BenchmarkParams p;
  p.mode = cmh::BenchmarkMode::average_time;
  p.time_unit = cmh::TimeUnit::ns;
  return p;
}

}  // namespace

TEST_CASE("robust estimate: clean sub-windows when at least half the iterations have a mean of them") {
  std::vector<ForkResult> forks(3);
  const double clean[3][3] = {{2.0, 2.01, 1.99}, {2.02, 2.0, 2.01}, {1.98, 2.0, 1.99}};
  for (int f = 0; f < 3; ++f)
    for (int i = 0; i < 3; ++i) forks[f].measurement.push_back(load_iteration(0.5, clean[f][i], 6000));
  forks[2].measurement.push_back(load_iteration(0.5, std::nan(""), 6000));  // too few clean windows
  auto p = avgt_ns();
  p.subwindow = cmh::kSubwindowAuto;
  const auto r = estimate(p, forks);
  REQUIRE(r.available);
  CHECK(r.method == RobustMethod::clean_subwindows);
  CHECK(r.by_fork);
  CHECK(r.clusters == 3);
  CHECK(r.score == doctest::Approx((2.0 + 2.01 + 1.99) / 3));
  CHECK(r.low < 2.0);
  CHECK(r.high > 2.0);
  CHECK(r.evidence.iterations == 10);
  CHECK(r.evidence.clean_iterations == 9);
  CHECK(r.evidence.iterations_used == 9);
  CHECK(r.evidence.subwindows == 60000);
  CHECK(r.evidence.rejected == 15000);
  CHECK(r.evidence.window_evidence == 1);
  CHECK(r.evidence.likely_inflated);  // the wall-clock score is 4 ns/op
  CHECK(r.raw_by_fork[2].size() == 3);
}

TEST_CASE("robust estimate: the stall margin is the clean windows' mean over their median, per iteration") {
  std::vector<ForkResult> forks(3);
  const double clean[3][3] = {{2.0, 2.01, 1.99}, {2.02, 2.0, 2.01}, {1.98, 2.0, 1.99}};
  // Each iteration's mean over its median, minus one: 1 %, 2 % or 3 %; median 2 %.
  const double share[3][3] = {{0.01, 0.02, 0.03}, {0.02, 0.02, 0.01}, {0.03, 0.03, 0.01}};
  for (int f = 0; f < 3; ++f)
    for (int i = 0; i < 3; ++i) {
      auto it = load_iteration(0.5, clean[f][i], 6000);
      it.subwindow_clean_median = clean[f][i] / (1 + share[f][i]);
      forks[f].measurement.push_back(it);
    }
  auto p = avgt_ns();
  p.subwindow = cmh::kSubwindowAuto;
  const auto r = estimate(p, forks);
  REQUIRE(r.method == RobustMethod::clean_subwindows);
  CHECK(r.stall_share == doctest::Approx(0.02));
  std::vector<std::vector<double>> values = {{2.0, 2.01, 1.99}, {2.02, 2.0, 2.01}, {1.98, 2.0, 1.99}};
  cmh::stats::RobustEstimate statistical;
  cmh::stats::interval_over(values, statistical);
  CHECK(r.score == doctest::Approx(statistical.score));
  CHECK(r.low == doctest::Approx(statistical.low - 0.02 * r.score));
  CHECK(r.high == doctest::Approx(statistical.high + 0.02 * r.score));
  CHECK(r.relative_statistical_half_width() == doctest::Approx(statistical.relative_half_width()));
  CHECK(r.relative_half_width() == doctest::Approx(statistical.relative_half_width() + 0.02));

  // Throughput: the scores are rates, so the stalled (slower) mean is the smaller score.
  std::vector<ForkResult> rates(1);
  for (double s : {0.01, 0.03, 0.02}) {
    IterationResult it;
    it.subwindow_clean_mean = 500 / (1 + s);
    it.subwindow_clean_median = 500;
    rates[0].measurement.push_back(it);
  }
  std::vector<const ForkResult*> pointers{&rates[0]};
  CHECK(cmh::stats::stall_share(cmh::BenchmarkMode::throughput, pointers) == doctest::Approx(0.02));
  // A mean below its median is no stall: no margin, not a negative one.
  rates[0].measurement.resize(1);
  rates[0].measurement[0].subwindow_clean_mean = 490;
  CHECK(cmh::stats::stall_share(cmh::BenchmarkMode::average_time, pointers) == 0);
}

TEST_CASE("robust estimate: no margin without clean medians, nor for the other methods") {
  std::vector<ForkResult> forks(3);
  for (auto& f : forks)
    for (int i = 0; i < 3; ++i) f.measurement.push_back(load_iteration(0.5, 2.0 + 0.01 * i, 6000));
  auto p = avgt_ns();
  p.subwindow = cmh::kSubwindowAuto;
  auto r = estimate(p, forks);  // clean means, medians unknown (NaN)
  CHECK(r.method == RobustMethod::clean_subwindows);
  CHECK(r.stall_share == 0);
  for (auto& f : forks)
    for (auto& it : f.measurement) {
      it.subwindow_clean_median = 1.5;  // a run of CPU time per op cannot use these
      it.subwindow_clean_mean = std::nan("");
    }
  r = estimate(p, forks);
  CHECK(r.method == RobustMethod::cpu_time);
  CHECK(r.stall_share == 0);
}

TEST_CASE("robust estimate: without sub-windows, a quiet run's iteration scores") {
  std::vector<ForkResult> forks(2);
  for (auto& f : forks)
    for (int i = 0; i < 4; ++i) f.measurement.push_back(load_iteration(1.0));
  const auto r = estimate(avgt_ns(), forks);
  CHECK(r.method == RobustMethod::iteration_scores);
  CHECK(r.score == doctest::Approx(2.0));
  CHECK(r.note.empty());
}

TEST_CASE("robust estimate: a disturbed run without clean windows falls back to CPU time per op") {
  std::vector<ForkResult> forks(3);
  for (auto& f : forks)
    for (int i = 0; i < 3; ++i) f.measurement.push_back(load_iteration(0.5));
  auto r = estimate(avgt_ns(), forks);
  CHECK(r.method == RobustMethod::cpu_time);
  // 100 ms of CPU over 50 M ops: 2 ns/op, while the wall-clock score is 4.
  CHECK(r.score == doctest::Approx(2.0));
  CHECK(forks[0].measurement[0].primary.value == doctest::Approx(4.0));
  CHECK(r.note.find("CPU time per op stands in") != std::string::npos);
  // Throughput in ops/us: 1000 / 2 ns per op.
  auto p = avgt_ns();
  p.mode = cmh::BenchmarkMode::throughput;
  p.time_unit = cmh::TimeUnit::us;
  r = estimate(p, forks);
  CHECK(r.score == doctest::Approx(500));
}

TEST_CASE("robust estimate: a blocking body that was disturbed keeps its undisturbed iterations") {
  std::vector<ForkResult> forks(2);
  // Blocking: many voluntary switches. Two quiet iterations per fork, one crowded.
  for (auto& f : forks) {
    auto calm = load_iteration(0.3, std::nan(""), 0, 5000);
    calm.host.others_share = 0.02;
    calm.host.idle_share = 0.6;
    f.measurement.push_back(calm);
    f.measurement.push_back(calm);
    f.measurement.push_back(load_iteration(0.3, std::nan(""), 0, 5000));  // crowded: disturbed
  }
  forks[0].measurement.push_back(load_iteration(0.3, std::nan(""), 0, 5000));
  const auto r = estimate(avgt_ns(), forks);
  REQUIRE(r.evidence.blocking);
  REQUIRE(r.evidence.likely_inflated);
  CHECK(r.method == RobustMethod::undisturbed_iterations);
  CHECK(r.evidence.iterations_used == 4);
}

TEST_CASE("robust estimate: too few clean windows falls back and says why") {
  std::vector<ForkResult> forks(2);
  for (auto& f : forks) {
    f.measurement.push_back(load_iteration(0.5, 2.0, 100));
    f.measurement.push_back(load_iteration(0.5, std::nan(""), 100));
    f.measurement.push_back(load_iteration(0.5, std::nan(""), 100));
  }
  auto p = avgt_ns();
  p.subwindow = std::chrono::microseconds(200);
  const auto r = estimate(p, forks);
  CHECK(r.method == RobustMethod::cpu_time);
  CHECK(r.note.find("too few clean sub-windows (2 of 6 iterations") != std::string::npos);
}

TEST_CASE("robust estimate: nothing measured, nothing estimated") {
  std::vector<ForkResult> forks(1);
  CHECK_FALSE(estimate(avgt_ns(), forks).available);
}
