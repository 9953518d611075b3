// SPDX-License-Identifier: MIT
// Sample 23, Numa: on a multi-socket machine, where memory lives is part of the result.
//
// Each socket (NUMA node) has its own memory; reaching another node's costs more
// latency and shares a slower link. Fork arguments place the fork, in numactl's
// vocabulary: --cpunodebind=0 runs it on node 0's CPUs, --membind=0 takes its memory
// from node 0 only, --interleave=all spreads pages over every node; -XX:+UseNUMA
// asks the bundled allocator for per-node heaps. The allocator decides whether NUMA
// mode can work here; when it refuses, the fork says why (as the JVM does:
// "NUMA support disabled: Only a single NUMA node is available"). `-prof numa`
// reports the outcome per iteration: numa.enabled (1/0, the mode and reason in the
// result's note and in the JSON file's "cmh" block), heap per node, and whether pages
// landed on the node they were asked for. Both benchmarks stream the same 32 MiB:
// `local` with threads and memory on node 0, `interleaved` with pages spread. On a
// single-node machine (this project's CI VM) they match: a fact to know, not to hide.
//
//   cmh-samples Numa -prof numa
//   cmh-samples Numa.local -prof numa -jvmArgsAppend --membind=1    memory on the far node
#include <cmh/cmh.hpp>

#include <cstdint>
#include <numeric>
#include <vector>

using namespace std::chrono_literals;

CMH_OPTIONS(Numa, cmh::mode::average_time, cmh::output_unit{1us}, cmh::warmup{3, 500ms},
            cmh::measurement{5, 500ms});

namespace {
/// Constructed on the worker thread, so its pages are first touched where that thread runs.
struct Buffer : cmh::BenchmarkState {
  std::vector<std::uint64_t> words = std::vector<std::uint64_t>(4 << 20, 1);  // 32 MiB
};
}  // namespace

CMH_BENCHMARK(Numa, local, const Buffer& b) {
  return std::accumulate(b.words.begin(), b.words.end(), std::uint64_t{0});
}
CMH_BENCHMARK_OPTIONS(Numa, local, cmh::fork{1, {"--cpunodebind=0", "--membind=0", "-XX:+UseNUMA"}});

CMH_BENCHMARK(Numa, interleaved, const Buffer& b) {
  return std::accumulate(b.words.begin(), b.words.end(), std::uint64_t{0});
}
CMH_BENCHMARK_OPTIONS(Numa, interleaved, cmh::fork{1, {"--interleave=all", "-XX:-UseNUMA"}});
