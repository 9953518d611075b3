// SPDX-License-Identifier: MIT
// ProtocolTracker: the host's view of a fork's messages, on sequences alone (no
// process): the normal sequence, messages out of order, duplicated, cut short by a
// fork that died, and a failure reported in each phase. Where a sequence ends in a
// verdict, classify() gives it, as the host would.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <initializer_list>
#include <string>

#include "fork/classify.hpp"
#include "fork/protocol_tracker.hpp"

using namespace cmh;
using namespace cmh::forking;

namespace {

/// One warmup and two measurement iterations; bulk warmup 0 (-wm BULK) is "Other.warm".
struct Fixture {
  BenchmarkParams plan;
  std::vector<BenchmarkParams> bulk;
  Fixture() {
    plan.benchmark = "Group.bench";
    plan.warmup = IterationParams{IterationKind::warmup, 1, Nanos(1'000'000), 1};
    plan.measurement = IterationParams{IterationKind::measurement, 2, Nanos(1'000'000), 1};
    BenchmarkParams other = plan;
    other.benchmark = "Other.warm";
    bulk.push_back(other);
  }
  ProtocolTracker tracker(bool fail_on_error = false) const { return ProtocolTracker(plan, &bulk, fail_on_error); }
};

Message hello(std::uint32_t version = kProtocolVersion) { return Handshake{version, 4242, AllocatorState{}}; }
Message started(IterationKind kind, int index, int bulk = -1) { return IterationStarted{kind, index, bulk}; }
Message result(IterationKind kind, int index) {
  IterationFinished m;
  m.result.kind = kind;
  m.result.index = index;
  return m;
}
Failure failure_of(FailureKind kind, std::string message) {
  Failure f;
  f.kind = kind;
  f.message = std::move(message);
  return f;
}
Message failed(IterationKind kind, int index, Failure f, int bulk = -1) {
  return IterationFailed{kind, index, std::move(f), bulk};
}
Message error(std::string message) { return BenchmarkError{failure_of(FailureKind::exception, std::move(message))}; }
Message oom(std::string line) { return OutOfMemory{true, std::move(line)}; }

constexpr auto W = IterationKind::warmup;
constexpr auto M = IterationKind::measurement;

/// The whole of a good fork's messages.
std::vector<Message> normal_sequence() {
  return {hello(), started(W, 1), result(W, 1), started(M, 1), result(M, 1), started(M, 2), result(M, 2), Finish{}};
}

void feed(ProtocolTracker& t, const std::vector<Message>& messages) {
  for (const Message& m : messages) t.accept(m);
}

/// The message of the ProtocolError `m` raises, or "" if it is accepted.
std::string refusal(ProtocolTracker& t, const Message& m) {
  try {
    t.accept(m);
  } catch (const ProtocolError& e) {
    return e.what();
  }
  return "";
}

/// What the host would report for the fork, had it then exited with `wait_status`.
std::optional<Failure> verdict(const ProtocolTracker& t, int wait_status) {
  ForkObservations seen;
  t.report_to(seen);
  seen.wait_status = wait_status;
  return classify(seen);
}

bool mentions(const std::optional<Failure>& f, std::string_view text) {
  return f && f->message.find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("protocol tracker: the normal sequence, phase by phase") {
  const Fixture fx;
  ProtocolTracker t = fx.tracker();
  CHECK(t.phase() == ForkPhase::awaiting_handshake);
  CHECK_FALSE(t.handshake_seen());

  CHECK_FALSE(t.accept(hello()).bulk_changed);
  CHECK(t.phase() == ForkPhase::set_up);
  REQUIRE(t.handshake());
  CHECK(t.handshake()->pid == 4242);
  CHECK(t.idle_phase_text() == "in trial set-up, before the first iteration");

  const ProtocolStep first = t.accept(started(W, 1));
  CHECK(first.first_iteration);
  CHECK_FALSE(first.bulk_changed);
  CHECK(t.phase() == ForkPhase::in_iteration);
  REQUIRE(t.open_iteration() != nullptr);
  CHECK(t.open_iteration()->kind == W);
  CHECK(&t.params_of(W) == &fx.plan.warmup);

  CHECK(t.accept(result(W, 1)).kept);
  CHECK(t.phase() == ForkPhase::between_iterations);
  CHECK(t.open_iteration() == nullptr);
  CHECK(t.idle_phase_text() == "between iterations");

  CHECK_FALSE(t.accept(started(M, 1)).first_iteration);
  CHECK(t.accept(result(M, 1)).kept);
  CHECK(t.phase() == ForkPhase::between_iterations);
  t.accept(started(M, 2));
  CHECK(t.accept(result(M, 2)).kept);
  CHECK(t.phase() == ForkPhase::tear_down);
  CHECK(t.iterations_done() == 3);
  CHECK(t.idle_phase_text() == "in trial tear-down, after the last iteration");

  const ProtocolStep end = t.accept(Finish{});
  CHECK_FALSE(end.stop);
  CHECK(t.phase() == ForkPhase::finished);
  CHECK_FALSE(t.worker_failure());
  CHECK_FALSE(verdict(t, W_EXITCODE(0, 0)));
}

TEST_CASE("protocol tracker: bulk warmups come first, are shown and not kept") {
  const Fixture fx;
  ProtocolTracker t = fx.tracker();
  t.accept(hello());
  const ProtocolStep into = t.accept(started(W, 1, 0));
  CHECK(into.bulk_changed);
  CHECK(into.first_iteration);
  CHECK(t.bulk() == 0);
  CHECK(t.plan_of(0).benchmark == "Other.warm");
  CHECK_FALSE(t.accept(result(W, 1)).kept);
  CHECK(t.iterations_done() == 0);
  CHECK(t.phase() == ForkPhase::between_iterations);

  const ProtocolStep back = t.accept(started(W, 1));
  CHECK(back.bulk_changed);
  CHECK_FALSE(back.first_iteration);
  CHECK(t.bulk() == -1);
  for (const Message& m : {result(W, 1), started(M, 1), result(M, 1), started(M, 2), result(M, 2), Message{Finish{}}})
    t.accept(m);
  CHECK(t.iterations_done() == 3);
  CHECK(t.finished());
}

TEST_CASE("protocol tracker: messages out of order are protocol errors") {
  const Fixture fx;
  SUBCASE("anything before the handshake") {
    for (const Message& m : {started(M, 1), result(M, 1), error("x"), Message{Finish{}}, oom("cmh-alloc: limit")}) {
      ProtocolTracker t = fx.tracker();
      CHECK(refusal(t, m) == "the first frame is not a handshake");
    }
  }
  SUBCASE("a plan from the fork") {
    ProtocolTracker t = fx.tracker();
    t.accept(hello());
    CHECK(refusal(t, PlanMessage{fx.plan, {}}) == "a plan frame from the fork");
  }
  SUBCASE("a result with no iteration started") {
    ProtocolTracker t = fx.tracker();
    t.accept(hello());
    CHECK(refusal(t, result(W, 1)) == "an iteration result that does not match the iteration that started");
  }
  SUBCASE("a result of another iteration than the one running") {
    ProtocolTracker t = fx.tracker();
    feed(t, {hello(), started(M, 1)});
    CHECK(refusal(t, result(M, 2)) == "an iteration result that does not match the iteration that started");
    ProtocolTracker u = fx.tracker();
    feed(u, {hello(), started(M, 1)});
    CHECK(refusal(u, result(W, 1)) == "an iteration result that does not match the iteration that started");
  }
  SUBCASE("an iteration starting inside another") {
    ProtocolTracker t = fx.tracker();
    feed(t, {hello(), started(W, 1)});
    CHECK(refusal(t, started(M, 1)) == "an iteration started while another was running");
  }
  SUBCASE("iterations after the finish") {
    ProtocolTracker t = fx.tracker();
    feed(t, normal_sequence());
    CHECK(refusal(t, started(M, 3)) == "a frame after the finish frame");
  }
  SUBCASE("a bulk warmup the host did not send") {
    ProtocolTracker t = fx.tracker();
    t.accept(hello());
    CHECK(refusal(t, started(W, 1, 1)) == "an iteration of bulk warmup 1, of 1");
    ProtocolTracker none(fx.plan, nullptr, false);
    none.accept(hello());
    CHECK(refusal(none, started(W, 1, 0)) == "an iteration of bulk warmup 0, of 0");
    CHECK(refusal(none, failed(W, 1, failure_of(FailureKind::exception, "x"), -2)) ==
          "an iteration of bulk warmup -2, of 0");
  }
  SUBCASE("another protocol version") {
    ProtocolTracker t = fx.tracker();
    CHECK(refusal(t, hello(kProtocolVersion + 1)) == "the fork speaks protocol version " +
                                                          std::to_string(kProtocolVersion + 1) + ", the host " +
                                                          std::to_string(kProtocolVersion));
  }
}

TEST_CASE("protocol tracker: duplicated messages") {
  const Fixture fx;
  ProtocolTracker t = fx.tracker();
  t.accept(hello());
  CHECK(refusal(t, hello()) == "a second handshake");

  ProtocolTracker s = fx.tracker();
  feed(s, {hello(), started(W, 1)});
  CHECK(refusal(s, started(W, 1)) == "an iteration started while another was running");

  ProtocolTracker r = fx.tracker();
  feed(r, {hello(), started(W, 1), result(W, 1)});
  CHECK(refusal(r, result(W, 1)) == "an iteration result that does not match the iteration that started");

  ProtocolTracker f = fx.tracker();
  feed(f, normal_sequence());
  CHECK(refusal(f, Finish{}) == "a frame after the finish frame");

  // Reports the fork may repeat: the first one is the one that counts.
  ProtocolTracker e = fx.tracker();
  feed(e, {hello(), error("first"), error("second"), oom("cmh-alloc: one"), oom("cmh-alloc: two")});
  REQUIRE(e.worker_failure());
  CHECK(e.worker_failure()->message == "first");
  REQUIRE(e.allocator_oom());
  CHECK(e.allocator_oom()->line == "cmh-alloc: one");
  CHECK(e.phase() == ForkPhase::set_up);
}

TEST_CASE("protocol tracker: a fork that died mid-stream") {
  const Fixture fx;
  const std::vector<Message> all = normal_sequence();
  // Every proper prefix: the fork never finished, whatever it sent, and is reported so.
  for (std::size_t n = 0; n < all.size(); ++n) {
    CAPTURE(n);
    ProtocolTracker t = fx.tracker();
    feed(t, std::vector<Message>(all.begin(), all.begin() + static_cast<long>(n)));
    CHECK_FALSE(t.finished());
    CHECK(mentions(verdict(t, W_EXITCODE(0, 0)), "forked process failed: exit code 0, it exited before the harness had "
                                                  "finished with it"));
    CHECK(mentions(verdict(t, W_EXITCODE(0, SIGSEGV)), "forked process failed: signal 11"));
  }

  ProtocolTracker hung = fx.tracker();
  feed(hung, {hello(), started(W, 1), result(W, 1), started(M, 1)});
  CHECK(hung.phase() == ForkPhase::in_iteration);
  REQUIRE(hung.open_iteration() != nullptr);
  CHECK(hung.open_iteration()->kind == M);
  CHECK(hung.open_iteration()->index == 1);

  // Its allocator said why before it died.
  ProtocolTracker starved = fx.tracker();
  feed(starved, {hello(), started(M, 1), oom("cmh-alloc: heap limit reached")});
  const auto f = verdict(starved, W_EXITCODE(0, SIGKILL));
  REQUIRE(f);
  CHECK(f->kind == FailureKind::out_of_memory);
  CHECK(mentions(f, "(cmh-alloc: heap limit reached)"));
}

TEST_CASE("protocol tracker: a failure reported in each phase") {
  const Fixture fx;
  SUBCASE("awaiting the handshake: not a handshake") {
    ProtocolTracker t = fx.tracker();
    CHECK(refusal(t, error("early")) == "the first frame is not a handshake");
  }
  SUBCASE("set-up: a fixture threw") {
    ProtocolTracker t = fx.tracker();
    feed(t, {hello(), error("setup threw")});
    CHECK(t.phase() == ForkPhase::set_up);
    t.accept(Finish{});
    CHECK(mentions(verdict(t, W_EXITCODE(0, 0)), "setup threw"));
  }
  SUBCASE("in an iteration") {
    ProtocolTracker t = fx.tracker();
    feed(t, {hello(), started(W, 1)});
    const ProtocolStep step = t.accept(failed(W, 1, failure_of(FailureKind::exception, "boom")));
    REQUIRE(step.iteration_failure);
    CHECK(step.iteration_failure->message == "boom");
    CHECK_FALSE(step.stop);
    CHECK(t.phase() == ForkPhase::between_iterations);
    CHECK(t.open_iteration() == nullptr);
    t.accept(Finish{});
    CHECK(mentions(verdict(t, W_EXITCODE(0, 0)), "boom"));
  }
  SUBCASE("between iterations") {
    ProtocolTracker t = fx.tracker();
    feed(t, {hello(), started(W, 1), result(W, 1), error("between")});
    CHECK(t.phase() == ForkPhase::between_iterations);
    REQUIRE(t.worker_failure());
    CHECK(t.worker_failure()->message == "between");
  }
  SUBCASE("tear-down: a fixture threw after the last iteration") {
    ProtocolTracker t = fx.tracker();
    std::vector<Message> seq = normal_sequence();
    seq.pop_back();
    feed(t, seq);
    CHECK(t.phase() == ForkPhase::tear_down);
    t.accept(error("teardown threw"));
    CHECK(t.phase() == ForkPhase::tear_down);
    t.accept(Finish{});
    CHECK(mentions(verdict(t, W_EXITCODE(0, 0)), "teardown threw"));
  }
  SUBCASE("finished: only the allocator's report may follow") {
    ProtocolTracker t = fx.tracker();
    feed(t, normal_sequence());
    CHECK(refusal(t, error("late")) == "a frame after the finish frame");
    CHECK(refusal(t, failed(M, 2, failure_of(FailureKind::exception, "late"))) == "a frame after the finish frame");
    CHECK(refusal(t, oom("cmh-alloc: in a static destructor")).empty());
    CHECK(t.allocator_oom());
  }
  SUBCASE("an iteration out of memory is said so") {
    ProtocolTracker t = fx.tracker();
    feed(t, {hello(), started(M, 1)});
    Failure bad_alloc = failure_of(FailureKind::out_of_memory, "std::bad_alloc");
    bad_alloc.exception_type = "std::bad_alloc";
    const ProtocolStep step = t.accept(failed(M, 1, bad_alloc));
    REQUIRE(step.iteration_failure);
    CHECK(step.iteration_failure->message == "out of memory: std::bad_alloc");
  }
}

TEST_CASE("protocol tracker: a failed bulk warmup stops the fork only under -foe") {
  const Fixture fx;
  for (bool fail_on_error : {false, true}) {
    CAPTURE(fail_on_error);
    ProtocolTracker t = fx.tracker(fail_on_error);
    feed(t, {hello(), started(W, 1, 0)});
    const ProtocolStep step = t.accept(failed(W, 1, failure_of(FailureKind::exception, "warm boom"), 0));
    REQUIRE(step.iteration_failure);
    CHECK(step.iteration_failure->message == "warm boom");
    // Another benchmark's failure is not this fork's own.
    CHECK_FALSE(t.worker_failure());
    CHECK(step.stop.has_value() == fail_on_error);
    if (step.stop) CHECK(step.stop->message == "the bulk warmup of Other.warm failed (-foe true): warm boom");
  }
}

TEST_CASE("protocol tracker: a bulk warmup that fails before it starts leaves the fork in set-up") {
  const Fixture fx;
  ProtocolTracker t = fx.tracker();
  t.accept(hello());
  const ProtocolStep step = t.accept(failed(W, 1, failure_of(FailureKind::other, "not in this executable"), 0));
  CHECK(step.bulk_changed);
  CHECK(t.phase() == ForkPhase::set_up);
  CHECK(t.idle_phase_text() == "in trial set-up, before the first iteration");
  CHECK(t.accept(started(W, 1)).first_iteration);
}
