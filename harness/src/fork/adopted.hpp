// SPDX-License-Identifier: MIT
// Processes a fork leaves behind. The host is a child subreaper
// (PR_SET_CHILD_SUBREAPER): whatever a fork starts and orphans (a daemon that
// double-forks and setsid()s out of the fork's process group, which the
// group-wide SIGKILL misses) is re-parented to the host instead of to init, and
// is killed and reaped here when the fork ends.
#pragma once

#include <sys/types.h>

namespace cmh::forking {

/// The state letter of /proc/<pid>/stat ('R', 'S', 'T' stopped, 'Z', ...), or 0 if gone.
char process_state(pid_t pid);

/// Makes this process a child subreaper. Returns false where the kernel refuses.
bool become_subreaper();

/// SIGKILLs and reaps every child of this process except `keep` (0: none), and
/// then their children re-parented in turn, until none is left. Only called
/// between forks, when the host's one legitimate child has been reaped.
void kill_adopted_children(pid_t keep = 0);

}  // namespace cmh::forking
