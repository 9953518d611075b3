/* SPDX-License-Identifier: MIT */
/* Test hooks of the bundled allocator. Linked only into the test and debug builds
 * (cmh_alloc_debug, cmh_alloc_test_hooks, libcmhalloc-testing.so), never installed: the
 * product allocator neither exports these functions nor reads CMH_ALLOC_TOPOLOGY.
 * See allocator/README.md, "Injected topology". */
#ifndef CMH_ALLOC_TESTING_H
#define CMH_ALLOC_TESTING_H

#include <cmh/alloc.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Makes the calling thread report `cpu` as its current CPU (-1: the real one again), so that
 *  tests can place threads on the nodes of an injected topology (CMH_ALLOC_TOPOLOGY). The
 *  heap notices on its next page refill, as it would notice a migration. */
CMH_ALLOC_DECL void cmh_alloc_test_set_cpu(int cpu);

#ifdef __cplusplus
}
#endif

#endif /* CMH_ALLOC_TESTING_H */
