// SPDX-License-Identifier: MIT
// A benchmark file whose static constructor never returns (issue 24: a fork hung in its
// static initialisation, before main). Linked into cmh-fork-faults; it hangs only where
// CMH_TEST_HANG_AT_START is set, which tests/e2e/fork_start.py sets in the fork alone
// (-jvmArgsAppend -DCMH_TEST_HANG_AT_START=1), so the host and the other tests run.
#include <unistd.h>

#include <cstdlib>

namespace cmh_fault {

/// Out of line with a name of its own, so the report's stack can be checked for it.
[[gnu::noinline]] void sleep_forever_before_main() {
  for (;;) ::pause();
}

namespace {

struct HangAtStart {
  HangAtStart() {
    if (std::getenv("CMH_TEST_HANG_AT_START") != nullptr) sleep_forever_before_main();
  }
};

const HangAtStart hang_at_start;

}  // namespace

}  // namespace cmh_fault
