// SPDX-License-Identifier: MIT
// Linked into the Google Benchmark builds of bench/gbench_compat.py's programs, whose
// sources are not changed: with CMH_BENCH_EXTRA_THREAD=1 one thread is started and
// joined before main(), so the process is multi-threaded as a cmh fork always is
// (control thread + worker). glibc's malloc skips its arena lock only while a process
// has never had a second thread (bench/README.md, "Same allocator, same malloc path").
#include <cstdlib>
#include <string_view>
#include <thread>

namespace {
const bool kExtraThread = [] {
  const char* extra = std::getenv("CMH_BENCH_EXTRA_THREAD");
  if (extra == nullptr || std::string_view(extra) != "1") return false;
  std::thread([] {}).join();  // glibc stays in multi-threaded mode from now on
  return true;
}();
}  // namespace
