// SPDX-License-Identifier: MIT
// detect_allocator_state() through a fake allocator table: what the result files say with
// the bundled allocator, without it, and with an allocator of API version 1.
#include <doctest/doctest.h>

#include <cmh/allocator_api.hpp>

#include "model/allocator_state.hpp"

using cmh::AllocatorApi;
using cmh::model::detect_allocator_state;

TEST_CASE("allocator state: every entry point null means the allocator is not linked") {
  const AllocatorApi none;
  const auto s = detect_allocator_state(none);
  CHECK(s.known);
  CHECK(s.numa_mode == "off");
  CHECK(s.numa_reason == "allocator not linked");
  CHECK(s.options == "allocator not linked");
}

TEST_CASE("allocator state: mode, reason, nodes and options come from the table") {
  AllocatorApi fake;
  fake.numa_mode = [](const char** reason) {
    *reason = "UseNUMA is enabled";
    return 1;
  };
  fake.numa_nodes = [] { return "0-1"; };
  fake.options_string = [] { return "-Xmx1g -XX:+UseNUMA"; };
  const auto s = detect_allocator_state(fake);
  CHECK(s.numa_mode == "on");
  CHECK(s.numa_reason == "UseNUMA is enabled");
  CHECK(s.numa_nodes == "0-1");
  CHECK(s.options == "-Xmx1g -XX:+UseNUMA");
  CHECK(cmh::model::numa_summary(s) == "on (nodes 0-1): UseNUMA is enabled");
}

TEST_CASE("allocator state: an allocator without numa_nodes or options leaves them empty") {
  AllocatorApi v1;
  v1.numa_mode = [](const char**) { return 0; };
  const auto s = detect_allocator_state(v1);
  CHECK(s.numa_mode == "off");
  CHECK(s.numa_reason.empty());
  CHECK(s.numa_nodes.empty());
  CHECK(s.options.empty());
}
