// SPDX-License-Identifier: MIT
// Killing what forks leave behind (see adopted.hpp). Children are found in
// /proc/<pid>/stat (field 4, the parent): /proc/self/task/*/children would miss
// a child adopted by a thread that has since exited.
#include "fork/adopted.hpp"

#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace cmh::forking {

namespace {

/// The state letter and parent pid in /proc/<pid>/stat; false if it is gone.
bool read_stat(const char* pid, char& state, int& ppid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%s/stat", pid);
  std::FILE* f = std::fopen(path, "r");
  if (!f) return false;
  char buf[512];
  const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  buf[n] = '\0';
  const char* close_paren = std::strrchr(buf, ')');  // the command name may hold anything
  return close_paren && std::sscanf(close_paren + 1, " %c %d", &state, &ppid) == 2;
}

pid_t parent_of(const char* pid) {
  char state = 0;
  int ppid = -1;
  return read_stat(pid, state, ppid) ? ppid : -1;
}

std::vector<pid_t> children_of(pid_t parent, pid_t keep) {
  std::vector<pid_t> out;
  DIR* d = ::opendir("/proc");
  if (!d) return out;
  while (const dirent* e = ::readdir(d)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    const pid_t pid = static_cast<pid_t>(std::atol(e->d_name));
    if (pid != keep && parent_of(e->d_name) == parent) out.push_back(pid);
  }
  ::closedir(d);
  return out;
}

}  // namespace

char process_state(pid_t pid) {
  char state = 0;
  int ppid = -1;
  return read_stat(std::to_string(pid).c_str(), state, ppid) ? state : 0;
}

bool become_subreaper() { return ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0; }

void kill_adopted_children(pid_t keep) {
  const pid_t self = ::getpid();
  // Each round kills one generation; killing it re-parents the next one to us.
  // Bounded, in case something forks as fast as it is killed.
  for (int round = 0; round < 100; ++round) {
    const std::vector<pid_t> children = children_of(self, keep);
    if (children.empty()) return;
    for (pid_t pid : children) ::kill(pid, SIGKILL);
    for (pid_t pid : children) {
      int status = 0;
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
  }
}

}  // namespace cmh::forking
