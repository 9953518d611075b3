// SPDX-License-Identifier: MIT
// classify(): every row of the README's fault table, the sanitizer rows, and the
// wrong diagnoses of issue 16 (finding 13), from observations alone: no process.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <csignal>

#include "fork/classify.hpp"
#include "fork/fork_runner.hpp"

using namespace cmh;
using namespace cmh::forking;

namespace {

ForkObservations exited(int code, bool finished = false) {
  ForkObservations o;
  o.wait_status = W_EXITCODE(code, 0);
  o.finished = finished;
  return o;
}

ForkObservations killed(int sig) {
  ForkObservations o;
  o.wait_status = W_EXITCODE(0, sig);
  return o;
}

Failure failure(FailureKind kind, std::string message, std::string type = {}) {
  Failure f;
  f.kind = kind;
  f.message = std::move(message);
  f.exception_type = std::move(type);
  return f;
}

bool has(const std::optional<Failure>& f, std::string_view text) {
  return f && f->message.find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("classify: a fork that did everything right did not fail") {
  CHECK_FALSE(classify(exited(0, true)));
}

TEST_CASE("classify: fatal signals") {
  for (int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL}) {
    const auto f = classify(killed(sig));
    REQUIRE(f);
    CHECK(f->kind == FailureKind::signal);
    CHECK(f->signal == sig);
    CHECK(has(f, "forked process failed: signal " + std::to_string(sig) + " ("));
  }
  CHECK(has(classify(killed(SIGSEGV)), "signal 11 (Segmentation fault)"));
  auto after = killed(SIGSEGV);
  after.finished = true;
  CHECK(has(classify(after), "after the benchmark had finished"));
}

TEST_CASE("classify: exit() or _exit() before the harness is done") {
  const auto f = classify(exited(3));
  REQUIRE(f);
  CHECK(f->kind == FailureKind::exited_early);
  CHECK(f->exit_code == 3);
  CHECK(has(f, "exit code 3, it exited before the harness had finished with it (exit() or _exit() called"));
  CHECK(classify(exited(0))->kind == FailureKind::exited_early);
  auto truncated = exited(3);
  truncated.channel_truncated = true;
  CHECK(has(classify(truncated), "ended in the middle of a frame"));
}

TEST_CASE("classify: exit codes after the finish frame, and a truncated channel") {
  const auto f = classify(exited(2, true));
  REQUIRE(f);
  CHECK(f->kind == FailureKind::other);
  CHECK(has(f, "exit code 2, after the benchmark had finished"));
  auto truncated = exited(0, true);
  truncated.channel_truncated = true;
  CHECK(classify(truncated)->kind == FailureKind::protocol);
}

TEST_CASE("classify: an exception from the benchmark or a fixture is the worker's report") {
  auto o = exited(0, true);
  o.worker_failure = failure(FailureKind::exception, "the benchmark failed on purpose", "std::runtime_error");
  const auto f = classify(o);
  REQUIRE(f);
  CHECK(f->kind == FailureKind::exception);
  CHECK(f->exception_type == "std::runtime_error");
  CHECK(f->message == "the benchmark failed on purpose");
}

TEST_CASE("classify: the watchdog's timeouts and stray threads are the host's reason") {
  for (auto kind : {FailureKind::timeout, FailureKind::stray_threads, FailureKind::protocol}) {
    auto o = killed(SIGTERM);
    o.host_failure = failure(kind, "the host's reason");
    const auto f = classify(o);
    REQUIRE(f);
    CHECK(f->kind == kind);
    CHECK(f->message == "the host's reason");
  }
  // A fork that threw and then hung at exit failed because it threw.
  auto o = killed(SIGTERM);
  o.host_failure = failure(FailureKind::stray_threads, "did not exit");
  o.worker_failure = failure(FailureKind::exception, "threw", "std::logic_error");
  CHECK(classify(o)->kind == FailureKind::exception);
}

TEST_CASE("classify: a fork hung at start-up is the host's reason, with the stacks it took") {
  auto o = killed(SIGTERM);
  o.host_failure = failure(FailureKind::startup_timeout, "forked process hung at start-up: no handshake within 5 s");
  o.host_failure->stack = {"Thread 42:", "  #0 pause"};
  o.stderr_tail = {"printed in a static constructor"};
  const auto f = classify(o);
  REQUIRE(f);
  CHECK(f->kind == FailureKind::startup_timeout);
  CHECK(f->message == "forked process hung at start-up: no handshake within 5 s");
  CHECK(f->stack == std::vector<std::string>{"Thread 42:", "  #0 pause"});
}

TEST_CASE("classify: SIGKILL after SIGTERM says why: ignored, or stopped") {
  auto o = killed(SIGKILL);
  o.host_failure = failure(FailureKind::timeout, "forked process timed out");
  o.kill_note = " (it was stopped, SIGSTOP, and was killed with SIGKILL)";
  const auto f = classify(o);
  CHECK(has(f, "timed out (it was stopped, SIGSTOP"));
  CHECK_FALSE(has(f, "ignored SIGTERM"));
}

TEST_CASE("classify: the user's interrupt wins over everything") {
  auto o = killed(SIGTERM);
  o.host_failure = failure(FailureKind::interrupted, "interrupted");
  o.worker_failure = failure(FailureKind::exception, "threw", "std::logic_error");
  CHECK(classify(o)->kind == FailureKind::interrupted);
}

TEST_CASE("classify: out of memory under -Xmx, from typed reports only") {
  const std::string line = "cmh-alloc: heap limit reached (-Xmx32m): cannot allocate 1048576 bytes\n";
  // std::bad_alloc, typed by the worker, with the allocator's frame.
  auto o = exited(0, true);
  o.worker_failure = failure(FailureKind::out_of_memory, "std::bad_alloc", "std::bad_alloc");
  o.allocator_oom = line;
  o.allocator_heap_limit = true;
  auto f = classify(o);
  REQUIRE(f);
  CHECK(f->kind == FailureKind::out_of_memory);
  CHECK(f->message == "out of memory: std::bad_alloc (cmh-alloc: heap limit reached (-Xmx32m): cannot allocate "
                      "1048576 bytes)");
  // The allocator's frame, then a crash: out of memory, not a plain signal.
  auto crash = killed(SIGSEGV);
  crash.allocator_oom = line;
  f = classify(crash);
  CHECK(f->kind == FailureKind::out_of_memory);
  CHECK(has(f, "signal 11 (Segmentation fault) after running out of memory (cmh-alloc: heap limit"));
  // ... or an exit.
  auto gone = exited(1);
  gone.allocator_oom = line;
  CHECK(classify(gone)->kind == FailureKind::out_of_memory);
}

TEST_CASE("classify: the kernel's OOM killer") {
  auto o = killed(SIGKILL);
  o.oom_kills_before = 4;
  o.oom_kills_after = 5;
  const auto f = classify(o);
  CHECK(f->kind == FailureKind::out_of_memory);
  CHECK(has(f, "signal 9 (Killed), killed by the kernel's OOM killer"));
  o.oom_kills_after = 4;
  CHECK(classify(o)->kind == FailureKind::signal);
}

TEST_CASE("classify: a 'heap limit' line in the output is only text (finding 13)") {
  auto o = killed(SIGSEGV);
  o.stderr_tail = {"note: heap limit reached in my own data structure"};
  const auto f = classify(o);
  CHECK(f->kind == FailureKind::signal);
  CHECK_FALSE(has(f, "out of memory"));
}

TEST_CASE("classify: a lost results channel is not blamed on exit() (finding 13)") {
  const auto f = classify(exited(kChannelLostExitCode));
  REQUIRE(f);
  CHECK(f->kind == FailureKind::protocol);
  CHECK(has(f, "lost its results channel"));
  CHECK_FALSE(has(f, "exit() or _exit()"));
}

TEST_CASE("classify: junk on the results channel") {
  auto o = exited(0, true);
  o.host_failure = failure(FailureKind::protocol, "the fork corrupted the results channel: bad frame magic");
  CHECK(has(classify(o), "bad frame magic"));
}

TEST_CASE("classify: a sanitizer's report in the tail is the cause") {
  // ASan exits 1 after its report: not "exit() called in the benchmark?".
  auto asan = exited(1);
  asan.stderr_tail = {"==4242==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x55 bp 0x7f)",
                      "    #0 0x55 in Fault_segfault fork_faults.cpp:92", "==4242==ABORTING"};
  auto f = classify(asan);
  REQUIRE(f);
  CHECK(has(f, "forked process failed: AddressSanitizer: SEGV on unknown address"));
  CHECK(has(f, "exit code 1"));
  CHECK_FALSE(has(f, "exit() or _exit()"));
  // Only the SUMMARY line left in the tail.
  auto summary = exited(1);
  summary.stderr_tail = {"SUMMARY: AddressSanitizer: stack-overflow (/x/fork_faults+0x1234) in recurse"};
  CHECK(has(classify(summary), "AddressSanitizer: stack-overflow"));
  // UBSan with -fno-sanitize-recover.
  auto ubsan = exited(1);
  ubsan.stderr_tail = {"fork_faults.cpp:10:5: runtime error: signed integer overflow: 2147483647 + 1"};
  CHECK(has(classify(ubsan), "UndefinedBehaviorSanitizer: runtime error: signed integer overflow"));
  // Killed by a signal with a report (ASan with abort_on_error=1).
  auto aborted = killed(SIGABRT);
  aborted.stderr_tail = asan.stderr_tail;
  f = classify(aborted);
  CHECK(has(f, "AddressSanitizer: SEGV"));
  CHECK(f->signal == SIGABRT);
  // A clean exit with a stray report line is not a failure.
  auto clean = exited(0, true);
  clean.stderr_tail = asan.stderr_tail;
  CHECK_FALSE(classify(clean));
}

TEST_CASE("classify: describe_out_of_memory is idempotent") {
  Failure f = failure(FailureKind::out_of_memory, "std::bad_alloc", "std::bad_alloc");
  describe_out_of_memory(f);
  describe_out_of_memory(f);
  CHECK(f.message == "out of memory: std::bad_alloc");
}
