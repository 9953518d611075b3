#pragma once
// The quiet NaN that statistics and formats use for "no value". One definition, so that
// sources that spell it can share a unity-build translation unit.
#include <limits>

namespace cmh {
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace cmh
