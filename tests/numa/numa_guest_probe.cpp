// SPDX-License-Identifier: MIT
// numa-guest-probe: one row of the binding table, checked in the 2-node guest of
// make test-numa (scripts/test-numa), and runnable on any Linux machine.
//
//   numa-guest-probe MODE REASON PLACEMENT      (run under numactl <flags>)
//
// MODE is off, membind or interleave; REASON a substring the allocator's reason must
// contain ("!text" : must not contain); PLACEMENT says where the pages the allocator
// hands out must be, as move_pages(2) (nodes = NULL) reports them after a thread writes
// them: "thread" (on the node of the thread that allocated and wrote them, for every
// node the process may run on), "N<k>" (all on node k), "split" (some on each node),
// "any" (not checked, printed only). For every node the process may run on, a thread
// pinned to that node's CPUs allocates 64 B x 2000, 4 KiB x 200, 200 KiB and 8 MiB,
// writes them and counts their pages per node. Exit status 0 when everything matched.
#include <cmh/alloc.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::set<int> parse_list(const std::string& text) {
  std::set<int> out;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) {
    if (part.empty() || part == "\n") continue;
    const auto dash = part.find('-');
    const int a = std::atoi(part.c_str());
    const int b = dash == std::string::npos ? a : std::atoi(part.c_str() + dash + 1);
    for (int v = a; v <= b; ++v) out.insert(v);
  }
  return out;
}

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

struct Job {
  cpu_set_t cpus;
  std::map<std::size_t, std::map<int, long>> pages;  // size -> node -> pages
  int cpu = -1;
  bool failed = false;
};

void* run_job(void* arg) {
  auto* job = static_cast<Job*>(arg);
  job->cpu = sched_getcpu();
  const long page = sysconf(_SC_PAGESIZE);
  const std::size_t sizes[] = {64, 4096, 200 * 1024, 8u << 20};
  for (std::size_t size : sizes) {
    const int count = size <= 4096 ? (size == 64 ? 2000 : 200) : 1;
    std::vector<char*> blocks;
    for (int i = 0; i < count; ++i) {
      auto* p = static_cast<char*>(std::malloc(size));
      if (!p) {
        job->failed = true;
        return nullptr;
      }
      std::memset(p, 0x5a, size);
      blocks.push_back(p);
    }
    std::set<std::uintptr_t> unique;
    for (char* p : blocks)
      for (std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p) & ~static_cast<std::uintptr_t>(page - 1);
           a < reinterpret_cast<std::uintptr_t>(p) + size; a += static_cast<std::uintptr_t>(page))
        unique.insert(a);
    std::vector<void*> addrs;
    for (auto a : unique) addrs.push_back(reinterpret_cast<void*>(a));
    std::vector<int> status(addrs.size(), -1);
    if (syscall(SYS_move_pages, 0, addrs.size(), addrs.data(), nullptr, status.data(), 0) != 0) job->failed = true;
    for (int s : status) ++job->pages[size][s];
    for (char* p : blocks) std::free(p);
  }
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s off|membind|interleave REASON thread|N<k>|split|any\n", argv[0]);
    return 2;
  }
  const std::string want_mode = argv[1], want_reason = argv[2], placement = argv[3];
  const char* reason = nullptr;
  const int mode = cmh_alloc_numa_mode(&reason);
  const char* mode_name = mode == CMH_ALLOC_NUMA_MEMBIND ? "membind" : mode == CMH_ALLOC_NUMA_INTERLEAVE ? "interleave" : "off";
  int failures = 0;
  std::printf("probe mode=%s nodes=%s reason=%s\n", mode_name, cmh_alloc_numa_nodes(), reason);
  if (want_mode != mode_name) {
    std::printf("probe FAIL: mode %s, expected %s\n", mode_name, want_mode.c_str());
    ++failures;
  }
  const bool negate = !want_reason.empty() && want_reason[0] == '!';
  const std::string text = negate ? want_reason.substr(1) : want_reason;
  if ((std::string(reason).find(text) != std::string::npos) == negate) {
    std::printf("probe FAIL: reason '%s' %s '%s'\n", reason, negate ? "contains" : "lacks", text.c_str());
    ++failures;
  }
  cpu_set_t affinity;
  sched_getaffinity(0, sizeof affinity, &affinity);
  const std::set<int> nodes = parse_list(read_line("/sys/devices/system/node/online"));
  std::map<int, long> all;  // node -> pages, over every job
  for (int node : nodes) {
    Job job;
    CPU_ZERO(&job.cpus);
    for (int cpu : parse_list(read_line("/sys/devices/system/node/node" + std::to_string(node) + "/cpulist")))
      if (CPU_ISSET(cpu, &affinity)) CPU_SET(cpu, &job.cpus);
    if (CPU_COUNT(&job.cpus) == 0) continue;  // the binding does not let us run there
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setaffinity_np(&attr, sizeof job.cpus, &job.cpus);
    pthread_t thread;
    if (pthread_create(&thread, &attr, run_job, &job) != 0) return 2;
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attr);
    if (job.failed) {
      std::printf("probe FAIL: node %d: malloc or move_pages failed\n", node);
      ++failures;
      continue;
    }
    for (const auto& [size, counts] : job.pages) {
      std::string line;
      long total = 0, on_thread_node = 0;
      for (const auto& [n, c] : counts) {
        line += " N" + std::to_string(n) + "=" + std::to_string(c);
        total += c;
        all[n] += c;
        if (n == node) on_thread_node = c;
      }
      std::printf("probe thread-node=%d cpu=%d size=%zu pages:%s\n", node, job.cpu, size, line.c_str());
      if (placement == "thread" && on_thread_node != total) {
        std::printf("probe FAIL: size %zu from a thread on node %d: %ld of %ld pages on that node\n", size, node,
                    on_thread_node, total);
        ++failures;
      }
      if (placement.size() > 1 && placement[0] == 'N') {
        const int want = std::atoi(placement.c_str() + 1);
        const long on = counts.count(want) ? counts.at(want) : 0;
        if (on != total) {
          std::printf("probe FAIL: size %zu: %ld of %ld pages on node %d\n", size, on, total, want);
          ++failures;
        }
      }
    }
  }
  if (placement == "split") {
    int with_pages = 0;
    for (const auto& [n, c] : all) with_pages += n >= 0 && c > 0;
    if (with_pages < 2) {
      std::printf("probe FAIL: expected pages on both nodes (interleave)\n");
      ++failures;
    }
  }
  std::printf("probe %s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
