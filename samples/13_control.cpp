// SPDX-License-Identifier: MIT
// Sample 13, Control: a benchmark that waits on another thread must know when to stop.
//
// `ping` and `pong` hand a ball back and forth: each call waits until the ball is on
// its side, then passes it. When the iteration ends, one side stops calling first,
// and the other would wait forever for a ball that never comes back. Taking
// cmh::Control& lets a body see the harness's state: stop_measurement() turns true
// when the measured part of the iteration is over, and every waiting loop must
// check it. (Without the check, the iteration hangs until the timeout, -to.) The
// score is the cost of one hand-off between two cores: the latency of moving one
// cache line there and back.
//
//   cmh-samples Control
#include <cmh/cmh.hpp>

#include <atomic>

using namespace std::chrono_literals;

CMH_OPTIONS(Control, cmh::mode::average_time, cmh::output_unit{1ns}, cmh::warmup{3, 500ms},
            cmh::measurement{5, 500ms}, cmh::fork{1});

namespace {
struct Ball : cmh::GroupState {
  std::atomic<bool> at_pong{false};
};

/// Waits until the ball is at `from`, then sends it over; gives up when the iteration ends.
void pass(Ball& ball, bool from, const cmh::Control& control) {
  while (ball.at_pong.load(std::memory_order_acquire) != from) {
    if (control.stop_measurement()) return;  // the partner may have stopped already
  }
  ball.at_pong.store(!from, std::memory_order_release);
}
}  // namespace

CMH_GROUP_BENCHMARK(Control, pingpong, ping, cmh::group_threads{1}, Ball& b, cmh::Control& c) {
  pass(b, false, c);
}

CMH_GROUP_BENCHMARK(Control, pingpong, pong, cmh::group_threads{1}, Ball& b, cmh::Control& c) {
  pass(b, true, c);
}
