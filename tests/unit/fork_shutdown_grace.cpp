// SPDX-License-Identifier: MIT
// The host's grace for a finished fork to exit: 3 s, longer only on machines where
// forks start slowly (an emulated guest), in whole seconds.
#include <doctest/doctest.h>

#include <chrono>

#include "fork/fork_runner.hpp"

using namespace std::chrono_literals;
using cmh::Nanos;
using cmh::forking::shutdown_grace;

TEST_CASE("fork shutdown grace: 3 s for a fork that starts in milliseconds") {
  CHECK(shutdown_grace(Nanos(5ms)) == Nanos(3s));
  CHECK(shutdown_grace(Nanos(300ms)) == Nanos(3s));
  CHECK(shutdown_grace(Nanos(0)) == Nanos(3s));
  CHECK(shutdown_grace(Nanos(-1)) == Nanos(3s));
}

TEST_CASE("fork shutdown grace: ten start-ups, rounded up to whole seconds, on a slow machine") {
  CHECK(shutdown_grace(Nanos(400ms)) == Nanos(4s));
  CHECK(shutdown_grace(Nanos(1210ms)) == Nanos(13s));
  CHECK(shutdown_grace(Nanos(2s)) == Nanos(20s));
  CHECK(shutdown_grace(Nanos::max()) == Nanos(3s));  // no overflow: an absurd start-up keeps the floor
}
