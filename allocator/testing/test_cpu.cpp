// SPDX-License-Identifier: MIT
// cmh_alloc_test_set_cpu (cmh/alloc_testing.h): the calling thread's CPU as current_node()
// sees it, so that tests place threads on the nodes of an injected topology.
#include <cmh/alloc_testing.h>

#include "internal.hpp"

extern "C" CMH_EXPORT void cmh_alloc_test_set_cpu(int cpu) { cmh::allocator::tls_test_cpu = cpu; }
