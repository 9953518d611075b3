// SPDX-License-Identifier: MIT
// add_samples(): a WindowSampler's raw records into a ForkProfile, in the sampled
// process after the trial: each ip located in its object (CodeMap), call stacks taken
// from the kernel's frame-pointer chain or unwound from the stack copy (DwarfUnwinder).
#pragma once

#include "sampling/profile.hpp"
#include "sampling/sampler.hpp"

namespace cmh::profilers::sampling {

/// The deepest stack kept; deeper ones are cut (their outermost frames dropped) and
/// counted as truncated.
inline constexpr std::size_t kMaxStackDepth = 256;

/// Adds every sample the sampler holds to `fork` (whose `events` it sizes); module
/// paths go into `profile`.
void add_samples(const WindowSampler& sampler, Profile& profile, ForkProfile& fork);

}  // namespace cmh::profilers::sampling
