// SPDX-License-Identifier: MIT
#pragma once

namespace cmh::profilers {
/// Adds alloc (alias gc), rusage, perf, perfnorm and numa to cmh::ProfilerRegistry.
/// Idempotent.
void register_builtins();
}  // namespace cmh::profilers
