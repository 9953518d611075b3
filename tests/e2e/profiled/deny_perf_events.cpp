// SPDX-License-Identifier: MIT
// deny_perf_events PROGRAM ARGS...: runs PROGRAM with perf_event_open failing with
// EACCES (a seccomp filter, inherited by its forks), as in a container or under a
// perf_event_paranoid level that forbids it. Lets the tests check that perf and
// perfnorm then say why they cannot run, on a machine where root could count.
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s PROGRAM [ARGS...]\n", argv[0]);
    return 2;
  }
  sock_filter filter[] = {
      // Another architecture's syscall numbers mean something else: allow and let it be.
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_perf_event_open, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  sock_fprog program{static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) {
    std::fprintf(stderr, "deny_perf_events: cannot install the seccomp filter: %s\n", std::strerror(errno));
    return 2;
  }
  execv(argv[1], argv + 1);
  std::fprintf(stderr, "deny_perf_events: cannot run %s: %s\n", argv[1], std::strerror(errno));
  return 2;
}
