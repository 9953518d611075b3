// SPDX-License-Identifier: MIT
// The native half of e2e:paused_alloc (cmh-paused-alloc): invocation fixtures run
// outside each call's timing, so -prof alloc leaves what they allocate out unless
// paused=include. Per call: 1000 bytes in setup_invocation, 1024 in the body.
#include <cmh/cmh.hpp>

#include <cstring>
#include <memory>

struct Input : cmh::ThreadState {
  std::unique_ptr<char[]> data;
  void setup_invocation() {
    data.reset(new char[1000]);
    std::memset(data.get(), 'x', 1000);
  }
  void teardown_invocation() { data.reset(); }
};

CMH_OPTIONS(Paused, cmh::mode::average_time);

CMH_BENCHMARK(Paused, invocation, Input& in, cmh::Blackhole& bh) {
  std::unique_ptr<char[]> out(new char[1024]);
  std::memcpy(out.get(), in.data.get(), 1000);
  bh.consume(out.get());
}
