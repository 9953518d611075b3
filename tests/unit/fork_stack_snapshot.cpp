// SPDX-License-Identifier: MIT
// A hung fork's stacks as the report shows them (issue 24): eu-stack's and gdb's
// output trimmed to one header per thread and one line per frame, without addresses,
// cut to a bounded size; and taken from a live process when a debugger is installed.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "fork/spawner.hpp"
#include "fork/stack_snapshot.hpp"

using cmh::forking::trim_stack_output;

namespace {

// The shapes of `eu-stack -s -p PID` and of gdb's `thread apply all bt` (gdb 13).
constexpr const char* kEuStack =
    "PID 4242 - process\n"
    "TID 4242:\n"
    "#0  0x00007f0000001234 pause\n"
    "    ../sysdeps/unix/sysv/linux/pause.c:29:10\n"
    "#1  0x0000550000005678 demo::sleep_before_main()\n"
    "    /src/demo.cpp:12:5\n"
    "#2  0x00005500000056aa _GLOBAL__sub_I_demo.cpp\n"
    "#3  0x00007f0000009999\n"
    "TID 4243:\n"
    "#0  0x00007f0000001240 clock_nanosleep@GLIBC_2.2.5\n"
    "eu-stack: dwfl_thread_getframes tid 4243 at 0x7f0000001240 in libc.so.6: no matching address range\n";

constexpr const char* kGdb =
    "[New LWP 4243]\n"
    "[Thread debugging using libthread_db enabled]\n"
    "Using host libthread_db library \"/lib/x86_64-linux-gnu/libthread_db.so.1\".\n"
    "0x00007f0000001234 in __libc_pause () at ../sysdeps/unix/sysv/linux/pause.c:29\n"
    "29\t../sysdeps/unix/sysv/linux/pause.c: No such file or directory.\n"
    "\n"
    "Thread 2 (Thread 0x7f00000016c0 (LWP 4243) \"demo\"):\n"
    "#0  0x00007f0000001240 in __GI___clock_nanosleep (...) at clock_nanosleep.c:48\n"
    "\n"
    "Thread 1 (Thread 0x7f0000001440 (LWP 4242) \"demo\"):\n"
    "#0  0x00007f0000001234 in __libc_pause () at ../sysdeps/unix/sysv/linux/pause.c:29\n"
    "#1  0x0000550000005678 in demo::sleep_before_main () at demo.cpp:12\n"
    "#2  demo::Hang::Hang (...) at demo.cpp:20\n"
    "#3  0x00005500000056aa in _GLOBAL__sub_I_demo.cpp () at demo.cpp:22\n"
    "[Inferior 1 (process 4242) detached]\n";

}  // namespace

TEST_CASE("stack snapshot: eu-stack's output, one line per frame with its source line") {
  const auto lines = trim_stack_output(kEuStack);
  REQUIRE(lines.size() == 7);
  CHECK(lines[0] == "Thread 4242:");
  CHECK(lines[1] == "  #0 pause at ../sysdeps/unix/sysv/linux/pause.c:29:10");
  CHECK(lines[2] == "  #1 demo::sleep_before_main() at /src/demo.cpp:12:5");
  CHECK(lines[3] == "  #2 _GLOBAL__sub_I_demo.cpp");
  CHECK(lines[4] == "  #3 ??");
  CHECK(lines[5] == "Thread 4243:");
  CHECK(lines[6] == "  #0 clock_nanosleep@GLIBC_2.2.5");  // the unwinder's complaint is left out
}

TEST_CASE("stack snapshot: gdb's output, the main thread first, its notes left out") {
  const auto lines = trim_stack_output(kGdb);
  REQUIRE(lines.size() == 7);
  CHECK(lines[0] == "Thread 4242 (demo):");
  CHECK(lines[1] == "  #0 __libc_pause () at ../sysdeps/unix/sysv/linux/pause.c:29");
  CHECK(lines[2] == "  #1 demo::sleep_before_main () at demo.cpp:12");
  CHECK(lines[3] == "  #2 demo::Hang::Hang (...) at demo.cpp:20");  // an inlined frame has no address
  CHECK(lines[4] == "  #3 _GLOBAL__sub_I_demo.cpp () at demo.cpp:22");
  CHECK(lines[5] == "Thread 4243 (demo):");
  CHECK(lines[6] == "  #0 __GI___clock_nanosleep (...) at clock_nanosleep.c:48");
  // Without libthread_db gdb names the process instead.
  CHECK(trim_stack_output("Thread 1 (process 77):\n#0  0x0000000000401000 in main () at m.c:3\n") ==
        std::vector<std::string>{"Thread 77:", "  #0 main () at m.c:3"});
}

TEST_CASE("stack snapshot: frames, threads and lines are cut to a readable size") {
  std::string raw;
  for (int t = 0; t < cmh::forking::kStackThreads + 3; ++t) {
    raw += "TID " + std::to_string(100 + t) + ":\n";
    for (int f = 0; f < cmh::forking::kStackFrames + 5; ++f)
      raw += "#" + std::to_string(f) + "  0x00000000000000aa " + std::string(300, 'x') + "\n";
  }
  const auto lines = trim_stack_output(raw);
  const std::size_t per_thread = 1 + cmh::forking::kStackFrames + 1;
  REQUIRE(lines.size() == per_thread * cmh::forking::kStackThreads + 1);
  CHECK(lines[per_thread - 1] == "  ... 5 more frames");
  CHECK(lines.back() == "... 3 more threads");
  for (const auto& l : lines) CHECK(l.size() <= cmh::forking::kStackLineChars);
  CHECK(lines[1].ends_with("..."));
  CHECK(trim_stack_output("").empty());
  CHECK(trim_stack_output("ptrace: Operation not permitted.\n").empty());
}

TEST_CASE("stack snapshot: a live process, when a debugger is installed") {
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    for (;;) ::pause();
  }
  const auto snap = cmh::forking::take_stack_snapshot(child, std::chrono::seconds(30));
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  if (cmh::forking::find_in_path("eu-stack").empty() && cmh::forking::find_in_path("gdb").empty()) {
    CHECK(snap.lines.empty());
    CHECK(snap.problem == "neither eu-stack nor gdb is installed");
  } else if (snap.lines.empty()) {
    // Attaching may be forbidden here (a container without ptrace): then it says why.
    MESSAGE("no stack taken: " << snap.problem);
    CHECK(!snap.problem.empty());
  } else {
    CHECK((snap.tool == "eu-stack" || snap.tool == "gdb"));
    CHECK(snap.lines.front().starts_with("Thread"));
    CHECK(snap.lines.size() >= 2);
  }
}
