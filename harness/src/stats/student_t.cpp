// SPDX-License-Identifier: MIT
// The Student t critical value behind every score error, from Boost.Math's
// students_t distribution (the same quantile commons-math's TDistribution gives JMH).
#include "stats/student_t.hpp"

#include <boost/math/distributions/students_t.hpp>

#include <cmath>
#include <limits>

namespace cmh::stats {

double student_t_critical(double confidence, std::uint64_t degrees_of_freedom) {
  if (degrees_of_freedom < 1 || !(confidence > 0.0 && confidence < 1.0))
    return std::numeric_limits<double>::quiet_NaN();
  const boost::math::students_t distribution(static_cast<double>(degrees_of_freedom));
  // Two-sided: the upper (1 + confidence) / 2 quantile.
  return boost::math::quantile(distribution, 1.0 - (1.0 - confidence) / 2.0);
}

}  // namespace cmh::stats
