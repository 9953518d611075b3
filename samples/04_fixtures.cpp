// SPDX-License-Identifier: MIT
// Sample 04, Fixtures: prepare outside the measurement, check after it.
//
// A state's setup_* and teardown_* members are fixtures, run by the harness and
// never timed. Levels: *_trial once per fork's run of a benchmark, *_iteration
// around every iteration (warmup included), *_invocation around every call (see
// sample 05 for why that level is a trap). Here building the hash table, which
// costs far more than a lookup, happens in setup_trial; setup_iteration restarts
// each thread's walk through the probe keys so every iteration sees the same
// sequence; the teardowns verify the work, and a fixture that throws fails the
// benchmark (its row says FAILED and why) instead of reporting a number for code
// that did not do what it should. Fixtures may take other states by reference
// (Probe's setup_trial reads the Table): dependencies are set up first.
//
//   cmh-samples Fixtures
#include <cmh/cmh.hpp>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <unordered_map>
#include <vector>

using namespace std::chrono_literals;

CMH_OPTIONS(Fixtures, cmh::mode::average_time, cmh::output_unit{1ns}, cmh::warmup{3, 500ms},
            cmh::measurement{5, 500ms}, cmh::fork{1});

namespace {
struct Table : cmh::BenchmarkState {
  static constexpr int kKeys = 100'000;
  std::unordered_map<int, int> map;

  void setup_trial() {
    map.reserve(kKeys);
    for (int k = 0; k < kKeys; ++k) map.emplace(k * 7, k);
  }
  void teardown_trial() {
    if (map.size() != kKeys) throw std::logic_error("the table changed during the benchmark");
  }
};

struct Probe : cmh::ThreadState {
  static constexpr std::size_t kProbes = 4096;  // a power of two: the walk wraps with a mask
  std::vector<int> keys;
  std::size_t next = 0;
  std::uint64_t found = 0, calls = 0;

  void setup_trial(const Table&) {
    std::mt19937 rng(42);
    std::uniform_int_distribution<int> pick(0, Table::kKeys - 1);
    for (std::size_t i = 0; i < kProbes; ++i) keys.push_back(pick(rng) * 7);  // always present
  }
  void setup_iteration() { next = 0; found = calls = 0; }
  void teardown_iteration() {
    if (found != calls) throw std::logic_error("a key that is in the table was not found");
  }
};
}  // namespace

CMH_BENCHMARK(Fixtures, lookup, const Table& t, Probe& p) {
  const int key = p.keys[p.next];
  p.next = (p.next + 1) & (Probe::kProbes - 1);
  ++p.calls;
  const auto it = t.map.find(key);
  if (it == t.map.end()) return 0;
  ++p.found;
  return it->second;
}
