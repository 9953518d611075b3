// SPDX-License-Identifier: MIT
// The doctest main of cmh-unit-tests (every tests/unit/*.cpp is linked into it).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
