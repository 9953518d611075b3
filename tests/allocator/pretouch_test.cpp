// SPDX-License-Identifier: MIT
// -XX:+AlwaysPreTouch against memory that is already in use (issue 24). The -Xms regions are
// committed into the node pools on the first allocation, so blocks allocated before the
// allocator's constructor runs its touch threads (here: from the executable's
// .preinit_array, which runs before every library's initialiser) already live in them.
// Touching must back that memory without changing a byte of it: a store of zero per 4 KiB
// once cut the low byte of live pointers, a freed wrong pointer then made a page's free list
// cyclic, and forks hung at start-up. Each scenario runs in a fresh child, since the
// allocator reads CMH_ALLOC once.
#include <cmh/alloc.h>
#include <stdlib.h>
#include <string.h>

#include <cstdint>
#include <string>

#include "test_support.hpp"

namespace {

// Sizes from every kind of page: small classes (blocks at 4 KiB multiples exist in each),
// medium, large (slice-aligned, so its first byte is on a 4 KiB boundary) and huge.
constexpr size_t kSizes[] = {16, 48, 128, 512, 4096, 8192, 20000, 65536, 100000, 300000, 3u << 20};
constexpr int kPerSize = 64;
constexpr int kBlocks = static_cast<int>(sizeof(kSizes) / sizeof(kSizes[0])) * kPerSize;

struct EarlyBlock {
  unsigned char* p;
  size_t size;
};
EarlyBlock g_early[kBlocks];
int g_early_count = 0;

unsigned char pattern(const void* block, size_t i) {
  const auto at = reinterpret_cast<uintptr_t>(block) + i;
  // Never zero: the old bug stored zeros, so a zero byte anywhere is a hit.
  return static_cast<unsigned char>((at * 131 + (at >> 12)) % 255 + 1);
}

void allocate_early() {
  for (size_t size : kSizes) {
    for (int k = 0; k < kPerSize; ++k) {
      // The large and huge ones are few enough: one each is as good as many.
      if (size > 65536 && k > 0) break;
      auto* p = static_cast<unsigned char*>(malloc(size));
      if (!p) continue;
      for (size_t i = 0; i < size; ++i) p[i] = pattern(p, i);
      g_early[g_early_count++] = {p, size};
    }
  }
}

// Runs before any shared library's initialiser, so before the allocator's constructor.
__attribute__((section(".preinit_array"), used)) void (*const g_preinit)() = allocate_early;

int child() {
  long damaged_bytes = 0;
  int damaged_blocks = 0;
  for (int b = 0; b < g_early_count; ++b) {
    const EarlyBlock& e = g_early[b];
    bool damaged = false;
    for (size_t i = 0; i < e.size; ++i) {
      if (e.p[i] != pattern(e.p, i)) {
        if (damaged_bytes < 5)
          std::fprintf(stderr, "alloc:pretouch: block %p (%zu B) byte %zu changed\n", static_cast<void*>(e.p),
                       e.size, i);
        ++damaged_bytes;
        damaged = true;
      }
    }
    damaged_blocks += damaged ? 1 : 0;
  }
  CHECK(g_early_count > 500);
  CHECK_EQ(damaged_bytes, 0);
  CHECK_EQ(damaged_blocks, 0);
  // The blocks are still good allocator blocks: freeing them all and allocating again keeps
  // the (debug-checked) free lists consistent.
  for (int b = 0; b < g_early_count; ++b) free(cmh_test::hide(g_early[b].p));
  for (int round = 0; round < 4; ++round) {
    void* again[256];
    for (auto& p : again) p = cmh_test::escape(malloc(128));
    for (auto* p : again) free(p);
  }
  // And the -Xms heap was really touched: resident now.
  cmh_alloc_stats_t stats;
  cmh_alloc_stats_init(&stats);
  CHECK(cmh_alloc_stats_get(&stats));
  const char* expect = getenv("PRETOUCH_EXPECT_RESIDENT_MIB");
  if (expect) CHECK(stats.resident_bytes >= (static_cast<uint64_t>(atoi(expect)) << 20));
  return cmh_test::done("alloc:pretouch (child)");
}

void scenario(const char* name, const std::string& options, const char* topology, int resident_mib) {
  std::vector<std::string> env = {"CMH_ALLOC=" + options, "PRETOUCH_EXPECT_RESIDENT_MIB=" + std::to_string(resident_mib)};
  env.push_back(topology ? std::string("CMH_ALLOC_TOPOLOGY=") + topology : std::string("CMH_ALLOC_TOPOLOGY="));
  const cmh_test::ChildResult r = cmh_test::run_child({cmh_test::self_path(), "child"}, env);
  if (r.code() != 0) {
    std::fprintf(stderr, "alloc:pretouch: scenario %s (CMH_ALLOC=\"%s\") failed (status %d, signal %d):\n%s%s", name,
                 options.c_str(), r.code(), r.signal(), r.out.c_str(), r.err.c_str());
  }
  CHECK_EQ(r.code(), 0);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && strcmp(argv[1], "child") == 0) return child();
  // Without pre-touch (the control), with it on the real topology, with NUMA off, and on an
  // injected two-node machine (one touch thread per node, the regions spread over both).
  scenario("control", "-Xms64m", nullptr, 0);
  scenario("pretouch", "-Xms64m -XX:+AlwaysPreTouch", nullptr, 64);
  scenario("pretouch-numa-off", "-Xms64m -XX:+AlwaysPreTouch -XX:-UseNUMA", nullptr, 64);
  scenario("pretouch-two-nodes", "-Xms64m -XX:+AlwaysPreTouch -XX:+UseNUMA", "node0=0;node1=1;policy=default", 64);
  scenario("pretouch-small-regions", "-Xms16m -Xmx64m -XX:RegionSize=1m -XX:+AlwaysPreTouch", nullptr, 16);
  return cmh_test::done("alloc:pretouch");
}
