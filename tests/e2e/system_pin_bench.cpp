// SPDX-License-Identifier: MIT
// For system_pin.py: a body that records, on every call, the CPU its worker runs
// on (sched_getcpu), and prints the set each worker saw when the trial ends, so
// the test compares what the fork did with what cmh.pinning says it did.
#include <cmh/cmh.hpp>

#include <sched.h>

#include <bitset>
#include <cstdio>
#include <string>

struct SeenCpus : cmh::ThreadState {
  std::bitset<8192> seen;
  int thread = -1;
  void teardown_trial() {
    std::string list;
    for (std::size_t c = 0; c < seen.size(); ++c)
      if (seen.test(c)) list += (list.empty() ? "" : ",") + std::to_string(c);
    std::printf("PINCHECK thread=%d cpus=%s\n", thread, list.c_str());
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
