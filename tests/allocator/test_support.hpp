// SPDX-License-Identifier: MIT
// A tiny check helper for the allocator tests (mimalloc's testhelper.h in spirit): CHECK
// records a failure with its line and carries on, done() prints the summary and gives the
// exit status. Also: running this executable again as a child with a chosen environment
// (each NUMA or OOM scenario needs a fresh process, since the allocator reads its options
// and topology once at start-up), and a compiler barrier so that a malloc/free pair is not
// optimised away.
#pragma once

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern char** environ;

namespace cmh_test {

inline int& failures() {
  static int n = 0;
  return n;
}

#define CHECK(cond)                                                                      \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);      \
      ++::cmh_test::failures();                                                          \
    }                                                                                    \
  } while (0)

#define CHECK_EQ(a, b)                                                                          \
  do {                                                                                          \
    const auto check_a_ = (a);                                                                  \
    const auto check_b_ = (b);                                                                  \
    if (!(check_a_ == check_b_)) {                                                              \
      std::fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (%lld vs %lld)\n", __FILE__, __LINE__, \
                   #a, #b, static_cast<long long>(check_a_), static_cast<long long>(check_b_));  \
      ++::cmh_test::failures();                                                                 \
    }                                                                                           \
  } while (0)

inline int done(const char* name) {
  if (failures() == 0) {
    std::printf("%s: all checks passed\n", name);
    return 0;
  }
  std::printf("%s: %d check(s) failed\n", name, failures());
  return 1;
}

/// Keeps the compiler from eliding an allocation (GCC removes unused malloc/free pairs).
template <typename T>
inline T* escape(T* p) {
  asm volatile("" : : "g"(p) : "memory");
  return p;
}

/// The same pointer, but the compiler cannot know where it came from (for deliberate
/// misuse and for blocks a failed realloc left valid).
template <typename T>
inline T* hide(T* p) {
  asm volatile("" : "+r"(p));
  return p;
}

struct ChildResult {
  int status = -1;  // raw wait status
  std::string out, err;
  bool exited() const { return WIFEXITED(status); }
  int code() const { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }
  int signal() const { return WIFSIGNALED(status) ? WTERMSIG(status) : 0; }
};

inline std::string read_all(int fd) {
  std::string s;
  char buf[4096];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n <= 0) break;
    s.append(buf, static_cast<size_t>(n));
  }
  return s;
}

/// Runs argv with the current environment plus `env` ("NAME=value"; "NAME=" removes NAME).
inline ChildResult run_child(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
  std::vector<std::string> environment;
  for (char** e = environ; *e; ++e) {
    std::string entry = *e;
    bool replaced = false;
    for (const auto& over : env)
      if (entry.compare(0, over.find('=') + 1, over, 0, over.find('=') + 1) == 0) replaced = true;
    if (!replaced) environment.push_back(entry);
  }
  for (const auto& over : env)
    if (over.back() != '=') environment.push_back(over);
  std::vector<char*> args, envp;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (const auto& e : environment) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  int out[2], err[2];
  ChildResult result;
  if (pipe(out) != 0 || pipe(err) != 0) return result;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  posix_spawn_file_actions_addclose(&actions, err[0]);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  close(err[1]);
  if (rc != 0) {
    close(out[0]);
    close(err[0]);
    return result;
  }
  // stderr is small in every scenario; read stdout first, then stderr.
  result.out = read_all(out[0]);
  result.err = read_all(err[0]);
  close(out[0]);
  close(err[0]);
  waitpid(pid, &result.status, 0);
  return result;
}

inline std::string self_path() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

inline int count_lines(const std::string& text, const char* needle) {
  int n = 0;
  size_t at = 0;
  while ((at = text.find(needle, at)) != std::string::npos) ++n, ++at;
  return n;
}

}  // namespace cmh_test
