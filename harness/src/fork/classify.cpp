// SPDX-License-Identifier: MIT
// The fork failure classifier (see classify.hpp). Order of precedence: the user's
// interrupt; what the fork itself reported (a fork that threw and then hung at
// exit failed because it threw); the host's own reason to stop it; a sanitizer's
// report; then how the process ended.
#include "fork/classify.hpp"

#include <sys/wait.h>

#include <cstring>
#include <string_view>

#include "wire/worker_process.hpp"

namespace cmh::forking {

namespace {

Failure make(FailureKind kind, std::string message) {
  Failure f;
  f.kind = kind;
  f.message = std::move(message);
  return f;
}

std::string signal_text(int sig) {
  const char* name = ::strsignal(sig);
  return "signal " + std::to_string(sig) + " (" + (name ? name : "unknown") + ")";
}

std::string oom_note(const ForkObservations& seen) {
  if (!seen.allocator_oom) return "";
  std::string line = *seen.allocator_oom;
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return " (" + line + ")";
}

/// "==123==ERROR: AddressSanitizer: SEGV ..." -> "AddressSanitizer: SEGV ...".
std::string without_pid_prefix(std::string_view line) {
  if (line.starts_with("==")) {
    const auto end = line.find("==", 2);
    if (end != std::string_view::npos) line.remove_prefix(end + 2);
  }
  for (std::string_view p : {"ERROR: ", "WARNING: ", "SUMMARY: "})
    if (line.starts_with(p)) line.remove_prefix(p.size());
  return std::string(line);
}

}  // namespace

void describe_out_of_memory(Failure& f) {
  if (f.message.starts_with("out of memory")) return;
  const bool plain = f.exception_type.empty() || f.message.empty() || f.message == f.exception_type;
  f.kind = FailureKind::out_of_memory;
  f.message = "out of memory: " + (f.exception_type.empty() ? f.message
                                   : plain                  ? f.exception_type
                                                            : f.exception_type + ": " + f.message);
}

std::optional<std::string> sanitizer_report(const ForkObservations& seen) {
  // The report's first line names the error; the tail may only hold its SUMMARY line.
  static constexpr std::string_view kFirst[] = {"ERROR: AddressSanitizer", "ERROR: LeakSanitizer",
                                                "WARNING: ThreadSanitizer", "WARNING: MemorySanitizer"};
  static constexpr std::string_view kSummary[] = {"SUMMARY: AddressSanitizer", "SUMMARY: LeakSanitizer",
                                                  "SUMMARY: ThreadSanitizer", "SUMMARY: UndefinedBehaviorSanitizer",
                                                  "SUMMARY: MemorySanitizer"};
  for (const auto* tail : {&seen.stderr_tail, &seen.stdout_tail})
    for (const auto& line : *tail)
      for (auto key : kFirst)
        if (line.find(key) != std::string::npos) return without_pid_prefix(line.substr(line.find(key)));
  for (const auto* tail : {&seen.stderr_tail, &seen.stdout_tail})
    for (const auto& line : *tail) {
      for (auto key : kSummary)
        if (line.find(key) != std::string::npos) return without_pid_prefix(line.substr(line.find(key)));
      if (const auto at = line.find(": runtime error: "); at != std::string::npos)
        return "UndefinedBehaviorSanitizer: " + line.substr(at + 2);
    }
  return std::nullopt;
}

std::optional<Failure> classify(const ForkObservations& seen) {
  std::optional<Failure> f;
  const bool interrupted = seen.host_failure && seen.host_failure->kind == FailureKind::interrupted;
  if (seen.host_failure && (interrupted || !seen.worker_failure)) {
    f = seen.host_failure;
    f->message += seen.kill_note;
    return f;
  }
  if (seen.worker_failure) {
    f = seen.worker_failure;
    if (f->kind == FailureKind::out_of_memory || seen.allocator_oom) {
      describe_out_of_memory(*f);
      f->message += oom_note(seen);
    }
    return f;
  }
  const int status = seen.wait_status;
  const bool exited = WIFEXITED(status), signalled = WIFSIGNALED(status);
  if (auto report = sanitizer_report(seen); report && (signalled || (exited && WEXITSTATUS(status) != 0))) {
    f = make(FailureKind::signal, "forked process failed: " + *report + " (" +
                                      (signalled ? signal_text(WTERMSIG(status))
                                                 : "exit code " + std::to_string(WEXITSTATUS(status))) +
                                      "; the sanitizer's report is in the output)");
    if (signalled) f->signal = WTERMSIG(status);
    if (exited) f->exit_code = WEXITSTATUS(status);
    return f;
  }
  if (signalled) {
    const int sig = WTERMSIG(status);
    if (sig == SIGKILL && seen.oom_kills_before && seen.oom_kills_after &&
        *seen.oom_kills_after > *seen.oom_kills_before) {
      f = make(FailureKind::out_of_memory,
               "forked process failed: " + signal_text(sig) + ", killed by the kernel's OOM killer");
    } else if (seen.allocator_oom) {
      f = make(FailureKind::out_of_memory,
               "forked process failed: " + signal_text(sig) + " after running out of memory" + oom_note(seen));
    } else {
      f = make(FailureKind::signal,
               "forked process failed: " + signal_text(sig) + (seen.finished ? ", after the benchmark had finished" : ""));
    }
    f->signal = sig;
    return f;
  }
  if (!exited) return std::nullopt;
  const int code = WEXITSTATUS(status);
  if (!seen.finished) {
    const std::string prefix = "forked process failed: exit code " + std::to_string(code);
    if (seen.allocator_oom) {
      f = make(FailureKind::out_of_memory,
               prefix + ", it exited before the harness had finished with it after running out of memory" +
                   oom_note(seen));
    } else if (code == kChannelLostExitCode) {
      f = make(FailureKind::protocol,
               prefix + ": the fork lost its results channel before the harness had finished with it (did the "
                        "benchmark close or replace descriptor 3?)");
    } else {
      f = make(FailureKind::exited_early,
               prefix + ", it exited before the harness had finished with it (exit() or _exit() called in the "
                        "benchmark?)");
    }
    if (seen.channel_truncated) f->message += "; the results channel ended in the middle of a frame";
  } else if (code != 0) {
    f = make(FailureKind::other, "forked process failed: exit code " + std::to_string(code) +
                                     ", after the benchmark had finished");
  } else if (seen.channel_truncated) {
    f = make(FailureKind::protocol, "the fork corrupted the results channel: it ended inside a frame");
  }
  if (f) f->exit_code = code;
  return f;
}

}  // namespace cmh::forking
