// SPDX-License-Identifier: MIT
// The seam to the allocator's test hooks (allocator/testing/): weak, so in the product
// allocator, which does not link them, each is a null pointer and its caller takes the
// real path.
#pragma once

#include "topology.hpp"

namespace cmh::allocator::testing {

/// Fills `topology` from CMH_ALLOC_TOPOLOGY when set and well formed and returns true;
/// a malformed text is reported through report() and false returned.
__attribute__((weak, visibility("hidden"))) bool inject_topology(Topology* topology, void (*report)(const char*));

}  // namespace cmh::allocator::testing
