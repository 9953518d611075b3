// SPDX-License-Identifier: MIT
// The debug build's checks, which stand in for ASan (it cannot run on a replaced malloc):
// each misuse runs in a fresh process that must abort with one line naming the problem.
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <thread>

#include "test_support.hpp"

namespace {

using cmh_test::escape;
using cmh_test::hide;

[[noreturn]] void misuse(const std::string& which) {
  if (which == "double-free") {
    char* p = escape(static_cast<char*>(malloc(64)));
    char* again = hide(p);
    free(p);
    free(again);
  } else if (which == "double-free-large") {
    char* p = escape(static_cast<char*>(malloc(200000)));
    char* again = hide(p);
    free(p);
    free(again);
  } else if (which == "double-free-remote") {
    char* p = escape(static_cast<char*>(malloc(64)));
    char* same = hide(p);
    free(p);
    std::thread([same] { free(same); }).join();
  } else if (which == "interior") {
    char* p = escape(static_cast<char*>(malloc(64)));
    free(hide(p + 8));
  } else if (which == "foreign") {
    static char not_heap[64];
    free(hide(not_heap));
  } else if (which == "write-after-free") {
    char* p = escape(static_cast<char*>(malloc(64)));
    char* stale = hide(p);
    free(p);
    stale[40] = 'x';
    // The check fires when the block is handed out again.
    for (int i = 0; i < 100000; ++i) escape(malloc(64));
  }
  std::exit(0);  // not reached when the check works
}

struct Expect {
  const char* which;
  const char* message;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2 && std::string(argv[1]) == "misuse") misuse(argv[2]);
  const Expect cases[] = {
      {"double-free", "cmh-alloc: double free"},
      {"double-free-large", "cmh-alloc: double free"},
      {"double-free-remote", "cmh-alloc: double free"},
      {"interior", "cmh-alloc: free() of a pointer that is not the start of a block"},
      {"foreign", "cmh-alloc: free() of a pointer cmh did not allocate"},
      {"write-after-free", "cmh-alloc: a free block was overwritten (write after free?)"},
  };
  for (const Expect& e : cases) {
    auto child = cmh_test::run_child({cmh_test::self_path(), "misuse", e.which}, {});
    const bool ok = child.signal() == SIGABRT && child.err.rfind(e.message, 0) == 0 &&
                    cmh_test::count_lines(child.err, "\n") == 1;
    if (!ok) std::fprintf(stderr, "%s: status %d, stderr: %s\n", e.which, child.status, child.err.c_str());
    CHECK(ok);
  }
  return cmh_test::done("alloc:debug-checks");
}
