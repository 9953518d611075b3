// SPDX-License-Identifier: MIT
// What the host process fixes about itself before it opens anything: the
// standard descriptors and SIGPIPE. Both are about not losing the report: a
// closed fd 1 would make the next open() (the run lock) the "report", and a
// reader that closed its pipe (`cmh | head`) would kill the host with SIGPIPE
// before it wrote its result files.
#pragma once

namespace cmh::host {

/// Opens /dev/null on each of fds 0, 1 and 2 that is closed, so that no file the
/// host opens later gets one of those numbers.
void ensure_standard_fds();

/// Ignores SIGPIPE: a write to a closed pipe then fails with EPIPE, which the
/// report stream turns into "stop printing". Forks get SIGPIPE back at its
/// default (the spawner resets it between fork and exec).
void ignore_sigpipe();

}  // namespace cmh::host
