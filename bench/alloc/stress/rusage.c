// SPDX-License-Identifier: MIT
// cmh-stress-rusage PROGRAM [ARGS...]: runs PROGRAM (with LD_PRELOAD set to
// $CMH_STRESS_PRELOAD when that is not empty) and, once it has exited, prints
//   rusage <exit status> <user+system CPU s> <peak RSS KiB>
// on stdout. The driver starts every run through this small process, not straight from
// Python: Linux carries the RSS high-water mark of the process image replaced by exec
// into the child's ru_maxrss, so a child forked (or vforked) from the driver's ~13 MiB
// Python process reports at least that. Forked from this one, the inherited mark is this
// program's few anonymous pages, far below any allocator's footprint.
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: cmh-stress-rusage PROGRAM [ARGS...]\n");
    return 2;
  }
  const char* preload = getenv("CMH_STRESS_PRELOAD");
  fflush(stdout);
  const pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "cmh-stress-rusage: fork failed: %s\n", strerror(errno));
    return 2;
  }
  if (pid == 0) {
    unsetenv("CMH_STRESS_PRELOAD");
    if (preload && *preload) setenv("LD_PRELOAD", preload, 1);
    else unsetenv("LD_PRELOAD");
    execvp(argv[1], argv + 1);
    fprintf(stderr, "cmh-stress-rusage: cannot run %s: %s\n", argv[1], strerror(errno));
    _exit(127);
  }
  int status = 0;
  struct rusage usage;
  while (wait4(pid, &status, 0, &usage) < 0) {
    if (errno != EINTR) {
      fprintf(stderr, "cmh-stress-rusage: wait4 failed: %s\n", strerror(errno));
      return 2;
    }
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  const double cpu = (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec * 1e-6 +
                     (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec * 1e-6;
  printf("rusage %d %.6f %ld\n", code, cpu, usage.ru_maxrss);
  return code;
}
