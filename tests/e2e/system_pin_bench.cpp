// SPDX-License-Identifier: MIT
// For system_pin.py: a body that records, on every call, the CPU its worker runs
// on (sched_getcpu), and prints the set each worker saw when the trial ends, so
// the test compares what the fork did with what cmh.pinning says it did; and where
// every other thread of the process may run.
#include <cmh/cmh.hpp>

#include <sched.h>
#include <unistd.h>

#include <bitset>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

struct SeenCpus : cmh::ThreadState {
  std::bitset<8192> seen;
  int thread = -1;
  void teardown_trial() {
    std::string list;
    for (std::size_t c = 0; c < seen.size(); ++c)
      if (seen.test(c)) list += (list.empty() ? "" : ",") + std::to_string(c);
    std::printf("PINCHECK thread=%d tid=%d cpus=%s\n", thread, static_cast<int>(::gettid()), list.c_str());
    if (thread != 0) return;
    // Every thread of the process and where it may run: the others must stay off the workers' CPUs.
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
      std::ifstream status(task.path() / "status");
      for (std::string line; std::getline(status, line);)
        if (line.rfind("Cpus_allowed_list:", 0) == 0)
          std::printf("TASK tid=%s cpus=%s\n", task.path().filename().c_str(), line.substr(line.find_first_not_of(" \t", 18)).c_str());
    }
  }
};

CMH_OPTIONS(Pin, cmh::warmup{1, std::chrono::milliseconds(50)}, cmh::measurement{2, std::chrono::milliseconds(100)},
            cmh::fork{1});

CMH_BENCHMARK(Pin, where, SeenCpus& s, const cmh::ThreadParams& t) {
  s.thread = t.thread_index;
  const int cpu = sched_getcpu();
  if (cpu >= 0 && cpu < 8192) s.seen.set(static_cast<std::size_t>(cpu));
  return cpu;
}
