// SPDX-License-Identifier: MIT
// -Xmx means what it says for every block size. Each case is a fresh process under
// -Xmx32m (regions of 2 MiB) that allocates blocks of one size until malloc fails, keeping them all:
//  - every size just above a size-class boundary (9 B, 17 B ... 64 KiB + 1): the blocks fill at
//    least 90 % of -Xmx counted in their usable size (the class granularity the README
//    documents), and more than half of it counted in requested bytes;
//  - every size just above a slice or region boundary (64 KiB + 1, 128 KiB + 1, 1 MiB + 1,
//    half a region + 1, a region + 1): large and huge blocks are charged their requested
//    size, so they fill at least 90 % of -Xmx in requested bytes (before this, blocks of
//    64 KiB + 1 or just above half a region got half of it);
//  - never more than -Xmx.
// malloc(SIZE_MAX) fails quietly: no out-of-memory line (that line is for the heap limit).
#include <cmh/alloc.h>
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>

#include <cstdio>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

constexpr uint64_t kLimit = 32u << 20;

// Child: blocks of `size` until malloc fails (none freed, no other allocation in between).
// Prints "<blocks> <usable size of one block>".
int fill(size_t size) {
  uint64_t blocks = 0;
  size_t usable = 0;
  errno = 0;
  for (;;) {
    void* p = malloc(size);
    if (!p) break;
    if (blocks++ == 0) usable = malloc_usable_size(p);
    cmh_test::escape(p);
  }
  if (errno != ENOMEM) return 3;
  std::printf("%llu %zu\n", static_cast<unsigned long long>(blocks), usable);
  return 0;
}

int quiet_size_max() {
  volatile size_t impossible = SIZE_MAX;  // opaque to the compiler
  errno = 0;
  CHECK(cmh_test::escape(malloc(impossible)) == nullptr);
  CHECK_EQ(errno, ENOMEM);
  CHECK(cmh_test::escape(malloc(impossible - 4096)) == nullptr);
  CHECK(cmh_test::escape(aligned_alloc(4096, impossible - 100)) == nullptr);
  // The heap still works, and the limit's own line is still there for a real heap limit.
  void* p = cmh_test::escape(malloc(100));
  CHECK(p != nullptr);
  free(p);
  return cmh_test::done("limit child");
}

struct Case {
  size_t size;
  bool charged_exactly;  // large/huge: requested bytes; small/medium: the size class
};

void check_case(const Case& c, size_t region) {
  auto child = cmh_test::run_child({cmh_test::self_path(), "fill", std::to_string(c.size)},
                                   {"CMH_ALLOC=-Xmx32m -XX:RegionSize=" + std::to_string(region >> 20) + "m"});
  unsigned long long blocks = 0;
  size_t usable = 0;
  const bool parsed = std::sscanf(child.out.c_str(), "%llu %zu", &blocks, &usable) == 2;
  if (child.code() != 0 || !parsed) {
    std::fprintf(stderr, "size %zu: exit %d, output '%s' '%s'\n", c.size, child.code(), child.out.c_str(),
                 child.err.c_str());
    CHECK(false);
    return;
  }
  const double requested = static_cast<double>(blocks) * static_cast<double>(c.size);
  const double held = static_cast<double>(blocks) * static_cast<double>(usable);
  const double limit = static_cast<double>(kLimit);
  const double share = (c.charged_exactly ? requested : held) / limit;
  if (share < 0.9 || requested <= limit / 2 || requested > limit) {
    std::fprintf(stderr, "size %zu: %llu blocks (usable %zu): %.1f %% of -Xmx32m requested, %.1f %% usable\n", c.size,
                 blocks, usable, 100 * requested / limit, 100 * held / limit);
  }
  CHECK(share >= 0.9);
  CHECK(requested > limit / 2);  // no granularity halves the limit
  CHECK(requested <= limit);
  // Exactly one line, and it names the heap limit.
  CHECK_EQ(cmh_test::count_lines(child.err, "\n"), 1);
  CHECK_EQ(child.err.rfind("cmh-alloc: heap limit reached (-Xmx32m): cannot allocate ", 0), 0u);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "";
  if (which == "fill" && argc > 2) return fill(std::stoull(argv[2]));
  if (which == "size-max") return quiet_size_max();

  auto quiet = cmh_test::run_child({cmh_test::self_path(), "size-max"}, {"CMH_ALLOC=-Xmx32m"});
  CHECK_EQ(quiet.code(), 0);
  if (!quiet.err.empty()) std::fprintf(stderr, "malloc(SIZE_MAX) printed: %s", quiet.err.c_str());
  CHECK(quiet.err.empty());

  // 2 MiB regions: huge blocks start above 1 MiB, and a block of a region + 1 still fits
  // 15 times (a whole number of blocks can hold 90 % of -Xmx).
  const size_t region = size_t{2} << 20;
  std::vector<Case> cases;
  // Just above every size class (8 B, 16-byte steps to 128 B, then four per power of two).
  cases.push_back({9, false});
  for (size_t base = 16; base < 64 * 1024;) {
    cases.push_back({base + 1, false});
    if (base < 128) {
      base += 16;
    } else {
      size_t power = 128;
      while (power * 2 <= base) power *= 2;
      base += power / 4;
    }
  }
  for (size_t size : {size_t{64} << 10, size_t{128} << 10, size_t{1} << 20, region / 2, region})
    cases.push_back({size + 1, true});
  for (const Case& c : cases) check_case(c, region);
  return cmh_test::done("alloc:limits");
}
