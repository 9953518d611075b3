// SPDX-License-Identifier: MIT
// Build-wide constants and helper macros of the allocator: the slice grain, the
// size-class limits, branch hints, the CMH_ALLOC_DEBUG switch (invariant checks) and
// the export tag. Every other allocator file includes this one first.
#pragma once

#include <cstddef>
#include <cstdint>

#ifndef CMH_ALLOC_DEBUG
#define CMH_ALLOC_DEBUG 0
#endif

#define CMH_LIKELY(x) __builtin_expect(!!(x), 1)
#define CMH_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define CMH_NOINLINE __attribute__((noinline))
#define CMH_COLD __attribute__((cold, noinline))
#define CMH_INLINE inline __attribute__((always_inline))
#define CMH_EXPORT __attribute__((visibility("default")))
// Initial-exec TLS: one %fs-relative load, also inside an LD_PRELOAD library
// (no __tls_get_addr call on the fast path).
#define CMH_TLS __thread __attribute__((tls_model("initial-exec")))

namespace cmh::allocator {

// Memory is handed out in 64 KiB slices; a page is a run of slices inside a region.
inline constexpr unsigned kSliceShift = 16;
inline constexpr size_t kSliceSize = size_t{1} << kSliceShift;

// Regions: power of two between 1 MiB and 32 MiB (G1's range), each bound to one node.
inline constexpr unsigned kMinRegionShift = 20;
inline constexpr unsigned kMaxRegionShift = 25;
inline constexpr unsigned kDefaultRegionShift = 22;  // 4 MiB
inline constexpr size_t kMaxSlicesPerRegion = size_t{1} << (kMaxRegionShift - kSliceShift);
inline constexpr size_t kSliceWords = kMaxSlicesPerRegion / 64;

// Blocks: 16-byte aligned, except those of the smallest class: requests of at most 8
// bytes get 8-byte blocks, 8-aligned (no object of 8 bytes or less needs more; jemalloc,
// tcmalloc and mimalloc do the same). Half the memory, hence half the cache misses, for
// programs full of tiny objects. The checked build keeps 16 bytes there: its freed-block
// cookie lives in a block's second word.
inline constexpr size_t kSmallestBlock = CMH_ALLOC_DEBUG ? 16 : 8;
inline constexpr size_t kDirectMax = 1024;         // sizes served by the direct page table
inline constexpr size_t kDirectGrain = 8;          // direct table: one slot per 8 bytes
inline constexpr size_t kDirectSlots = kDirectMax / kDirectGrain + 1;
inline constexpr size_t kSmallMax = 8 * 1024;      // blocks in 1-slice pages
inline constexpr size_t kMediumMax = 64 * 1024;    // blocks in 8-slice pages
inline constexpr size_t kMediumPageSlices = 8;
inline constexpr size_t kClassCount = 45;          // 8 B, 16 B .. 64 KiB

inline constexpr size_t kMaxNodes = 64;  // node ids 0..63
inline constexpr size_t kMaxCpus = 1024;

// Free-list extension grain: a fresh page is threaded 4 KiB (or one block) at a time so
// that untouched memory stays untouched (RSS) and the slow path runs at bounded intervals.
inline constexpr size_t kExtendBytes = 4096;

inline constexpr int64_t kDefaultDecayMs = 1000;

}  // namespace cmh::allocator
