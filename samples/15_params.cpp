// SPDX-License-Identifier: MIT
// Sample 15, Params: one benchmark, a grid of configurations.
//
// Performance depends on inputs, so measure more than one. A state declares
// parameters with cmh::param(name, &member, defaults...): the values are strings,
// converted to the member's type before any fixture runs, and the harness runs the
// outer product of all parameters, one row per point. `-p name=v1,v2` replaces the
// values from the command line; -lp lists them. Any type works if an ADL-visible
// `bool cmh_parse_param(std::string_view, T&)` converts it (the enum below).
// Summing a vector, a deque and a list of the same ints: at 100 elements all fit in
// L1 and differ little; at 100,000 the list's pointer chasing misses the cache on
// every node, while the vector streams. A single data point would tell neither story.
//
//   cmh-samples Params
//   cmh-samples Params -p kind=vector,list -p size=10,1000000
#include <cmh/cmh.hpp>

#include <deque>
#include <list>
#include <numeric>
#include <string_view>
#include <vector>

using namespace std::chrono_literals;

CMH_OPTIONS(Params, cmh::mode::average_time, cmh::output_unit{1ns}, cmh::warmup{3, 500ms},
            cmh::measurement{5, 500ms}, cmh::fork{1});

namespace {
enum class Container { vector, deque, list };

bool cmh_parse_param(std::string_view text, Container& out) {
  if (text == "vector") return out = Container::vector, true;
  if (text == "deque") return out = Container::deque, true;
  if (text == "list") return out = Container::list, true;
  return false;  // the harness reports the bad value and the parameter's name
}

struct Data : cmh::ThreadState {
  int size = 0;
  Container kind = Container::vector;
  static constexpr auto params = cmh::params(cmh::param("kind", &Data::kind, "vector", "deque", "list"),
                                             cmh::param("size", &Data::size, "100", "100000"));
  std::vector<int> vector;
  std::deque<int> deque;
  std::list<int> list;

  void setup_trial() {
    for (int i = 0; i < size; ++i) {
      if (kind == Container::vector) vector.push_back(i);
      if (kind == Container::deque) deque.push_back(i);
      if (kind == Container::list) list.push_back(i);
    }
  }
};
}  // namespace

CMH_BENCHMARK(Params, sum, Data& d) {
  switch (d.kind) {
    case Container::vector: return std::accumulate(d.vector.begin(), d.vector.end(), 0L);
    case Container::deque: return std::accumulate(d.deque.begin(), d.deque.end(), 0L);
    case Container::list: return std::accumulate(d.list.begin(), d.list.end(), 0L);
  }
  return 0L;
}
