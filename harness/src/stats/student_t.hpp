// SPDX-License-Identifier: MIT
// Student t quantiles for JMH's score error, from Boost.Math (no hand-written
// distribution code): the critical value of a two-sided interval.
#pragma once

#include <cstdint>

namespace cmh::stats {

/// t such that P(-t < T < t) = confidence for T ~ Student t with `degrees_of_freedom`.
/// NaN when degrees_of_freedom < 1 or confidence is outside (0, 1).
double student_t_critical(double confidence, std::uint64_t degrees_of_freedom);

}  // namespace cmh::stats
