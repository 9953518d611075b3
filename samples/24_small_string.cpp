// SPDX-License-Identifier: MIT
// Sample 24, SmallString: one character can decide whether a string allocates.
//
// std::string keeps short contents inside the object itself (the small-string
// optimisation; libstdc++ holds up to 15 chars, libc++ 22), so making or copying a
// short string touches no heap. One character more and every construction and every
// copy calls operator new. -prof alloc shows it exactly: with length = 15,
// alloc.rate.norm is 0 B/op; with 16 it is 17 B/op (the chars and the terminating
// NUL) and alloc.count.norm is 1. A benchmark with short test strings can miss the
// allocation that dominates with real data. std::string_view (`view`) never
// allocates, whatever the length.
//
//   cmh-samples SmallString -prof alloc
#include <cmh/cmh.hpp>

#include <string>
#include <string_view>

using namespace std::chrono_literals;

CMH_OPTIONS(SmallString, cmh::mode::average_time, cmh::output_unit{1ns}, cmh::warmup{3, 500ms},
            cmh::measurement{5, 500ms}, cmh::fork{1});

namespace {
struct Text : cmh::ThreadState {
  int length = 0;
  static constexpr auto params = cmh::params(cmh::param("length", &Text::length, "15", "16", "100"));
  std::string source;
  void setup_trial() { source.assign(static_cast<std::size_t>(length), 'x'); }
};
}  // namespace

CMH_BENCHMARK(SmallString, construct, const Text& t, cmh::Blackhole& bh) {
  std::string s(t.source.data(), t.source.size());
  bh.consume(s.data());  // the pointer escapes: the compiler cannot elide the allocation
}

CMH_BENCHMARK(SmallString, copy, const Text& t, cmh::Blackhole& bh) {
  std::string s = t.source;
  bh.consume(s.data());
}

CMH_BENCHMARK(SmallString, view, const Text& t, cmh::Blackhole& bh) {
  std::string_view v = t.source;
  bh.consume(v);
}
