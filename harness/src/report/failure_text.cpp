// SPDX-License-Identifier: MIT
// describe_failure(): the failure's own message, prefixed with the exception type
// for exceptions, or the kind of failure when nothing else is known.
#include "report/failure_text.hpp"

namespace cmh::report {
namespace {

std::string_view kind_text(FailureKind kind) {
  switch (kind) {
    case FailureKind::exception: return "exception";
    case FailureKind::signal: return "killed by a signal";
    case FailureKind::exited_early: return "exited before the harness was done with it";
    case FailureKind::timeout: return "timed out";
    case FailureKind::startup_timeout: return "hung at start-up";
    case FailureKind::stray_threads: return "finished but did not exit";
    case FailureKind::out_of_memory: return "out of memory";
    case FailureKind::protocol: return "malformed results from the fork";
    case FailureKind::spawn: return "the fork could not be started";
    case FailureKind::interrupted: return "interrupted";
    case FailureKind::other: return "failed";
  }
  return "failed";
}

}  // namespace

std::string describe_failure(const Failure& f) {
  std::string text;
  if (f.kind == FailureKind::exception && !f.exception_type.empty()) {
    text = f.exception_type;
    if (!f.message.empty()) text += ": " + f.message;
  } else {
    text = f.message;
  }
  if (text.empty()) text = kind_text(f.kind);
  return text;
}

}  // namespace cmh::report
