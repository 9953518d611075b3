// SPDX-License-Identifier: MIT
// Sample 25, StdFunction: type erasure can allocate, and inlining is lost.
//
// std::function stores any callable. Small, trivially copyable ones live inside the
// std::function object (libstdc++: up to 16 bytes, two pointers); anything larger is
// copied to the heap each time a std::function is made. `small_capture` captures two
// pointers (16 B): 0 B/op under -prof alloc. `large_capture` captures three (24 B):
// one allocation of 24 B per op, and a call through a pointer the compiler cannot
// inline. `template_parameter` passes the same lambda as a template argument: no
// allocation and the call inlined. Callbacks built per call (std::function as a
// by-value parameter, in a loop) are where this shows up in real code.
//
//   cmh-samples StdFunction -prof alloc
#include <cmh/cmh.hpp>

#include <functional>

using namespace std::chrono_literals;

CMH_OPTIONS(StdFunction, cmh::mode::average_time, cmh::output_unit{1ns}, cmh::warmup{3, 500ms},
            cmh::measurement{5, 500ms}, cmh::fork{1});

namespace {
struct Inputs : cmh::ThreadState {
  long a = 1, b = 2, c = 3;
};

/// Takes the callback by value, as many APIs do; not inlined, like a call into a library.
[[gnu::noinline]] long apply_erased(std::function<long()> f) { return f(); }

template <class F>
long apply_template(F f) {
  return f();
}
}  // namespace

CMH_BENCHMARK(StdFunction, small_capture, Inputs& in) {
  const long* a = &in.a;
  const long* b = &in.b;
  return apply_erased([a, b] { return *a + *b; });
}

CMH_BENCHMARK(StdFunction, large_capture, Inputs& in) {
  const long* a = &in.a;
  const long* b = &in.b;
  const long* c = &in.c;
  return apply_erased([a, b, c] { return *a + *b + *c; });
}

CMH_BENCHMARK(StdFunction, template_parameter, Inputs& in) {
  const long* a = &in.a;
  const long* b = &in.b;
  const long* c = &in.c;
  return apply_template([a, b, c] { return *a + *b + *c; });
}
