// SPDX-License-Identifier: MIT
// Sample 05, InvocationLevel: per-call fixtures, and why they are a last resort.
//
// Sorting changes its input, so each call needs a fresh unsorted copy. Three ways:
//   sorted_by_mistake   copies once per trial: only the first call sorts random data,
//                       every later call sorts sorted data and the score is far too good;
//   fresh_each_call     setup_invocation copies before every call, outside the timing.
//                       To exclude the copy the harness must read the clock around every
//                       single call, and the copy leaves the data hot in cache;
//   copy_in_body        copies inside the body and reports copy + sort; `copy_only`
//                       measures the copy alone, to subtract.
// The timing cost is what makes invocation level dangerous: `tiny_with_fixture` is a
// one-instruction body whose score is almost all clock reads (tens of ns here, much
// more under a hypervisor), while `tiny` is the same body without the fixture. Use
// invocation level only for calls that take far longer than a clock read (well over a
// microsecond), and prefer a batch (sample 19) or an in-body copy you can subtract.
//
//   cmh-samples InvocationLevel
#include <cmh/cmh.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

using namespace std::chrono_literals;

CMH_OPTIONS(InvocationLevel, cmh::mode::average_time, cmh::output_unit{1ns},
            cmh::warmup{3, 500ms}, cmh::measurement{5, 500ms}, cmh::fork{1});

namespace {
/// 64 different shuffles, used in turn: a CPU that sorts the same shuffle call after
/// call learns the sort's branches (see sample 17) and random input looks sorted.
struct Input : cmh::ThreadState {
  static constexpr std::size_t kShuffles = 64;
  std::vector<std::vector<int>> shuffles;
  std::vector<int> work;
  std::size_t next = 0;
  void setup_trial() {
    std::mt19937 rng(7);
    shuffles.assign(kShuffles, std::vector<int>(1000));
    for (auto& s : shuffles)
      for (int& v : s) v = static_cast<int>(rng());
    work = shuffles[0];
  }
  const std::vector<int>& next_shuffle() { return shuffles[next++ % kShuffles]; }
};

struct FreshCopy : cmh::ThreadState {
  std::vector<int> work;
  void setup_invocation(Input& in) { work = in.next_shuffle(); }  // same size: no allocation
};
}  // namespace

CMH_BENCHMARK(InvocationLevel, sorted_by_mistake, Input& in) {
  std::sort(in.work.begin(), in.work.end());
  return in.work.front();
}

CMH_BENCHMARK(InvocationLevel, fresh_each_call, FreshCopy& f) {
  std::sort(f.work.begin(), f.work.end());
  return f.work.front();
}

CMH_BENCHMARK(InvocationLevel, copy_in_body, Input& in) {
  in.work = in.next_shuffle();
  std::sort(in.work.begin(), in.work.end());
  return in.work.front();
}

CMH_BENCHMARK(InvocationLevel, copy_only, Input& in, cmh::Blackhole& bh) {
  in.work = in.next_shuffle();
  bh.consume(in.work.data());
}

namespace {
struct Tick : cmh::ThreadState {
  std::uint64_t n = 0;
};
struct TickPerCall : cmh::ThreadState {
  std::uint64_t n = 0;
  void setup_invocation() { ++n; }
};
}  // namespace

CMH_BENCHMARK(InvocationLevel, tiny, Tick& t) { return ++t.n; }
CMH_BENCHMARK(InvocationLevel, tiny_with_fixture, TickPerCall& t) { return t.n; }
