// SPDX-License-Identifier: MIT
// ListStatistics and the Student t critical value: JMH's own published numbers,
// hand-computed percentiles of commons-math's legacy estimator, and the N <= 2 rule.
#include <doctest/doctest.h>

#include "results_fixture.hpp"
#include "stats/list_statistics.hpp"
#include "stats/student_t.hpp"

#include <cmath>

using cmh::stats::ListStatistics;

namespace {
using cmh::test::close_rel;
}  // namespace

TEST_CASE("stats: JMH's published three-iteration result (Netflix/hollow, JMH 1.25)") {
  const ListStatistics s({47.89632694414653, 45.454670110836894, 47.35651372578907});
  CHECK(s.n() == 3);
  CHECK(close_rel(s.mean(), 46.902503593590836));
  CHECK(close_rel(s.mean_error_at(0.999), 23.399065583844617));
  const auto [lo, hi] = s.confidence_interval_at(0.999);
  CHECK(close_rel(lo, 23.50343800974622));
  CHECK(close_rel(hi, 70.30156917743545));
  // The scorePercentiles of the same JSON record.
  CHECK(s.percentile(0) == 45.454670110836894);
  CHECK(s.percentile(50) == 47.35651372578907);
  CHECK(s.percentile(90) == 47.89632694414653);
  CHECK(s.percentile(100) == 47.89632694414653);
}

TEST_CASE("stats: Student t critical values match scipy's t.ppf(0.9995, df)") {
  // df = 1 is the Cauchy distribution: t = tan(pi (p - 1/2)) exactly (scipy is off in the 9th digit).
  CHECK(close_rel(cmh::stats::student_t_critical(0.999, 1), std::tan(3.14159265358979323846 * 0.4995), 1e-10));
  CHECK(close_rel(cmh::stats::student_t_critical(0.999, 2), 31.599054577041514, 1e-10));
  CHECK(close_rel(cmh::stats::student_t_critical(0.999, 4), 8.610301581379899, 1e-10));
  CHECK(close_rel(cmh::stats::student_t_critical(0.999, 10), 4.586893858703131, 1e-10));
  CHECK(close_rel(cmh::stats::student_t_critical(0.999, 1000), 3.300282648423858, 1e-10));
  CHECK(std::isnan(cmh::stats::student_t_critical(0.999, 0)));
  CHECK(std::isnan(cmh::stats::student_t_critical(1.0, 5)));
}

TEST_CASE("stats: legacy percentile estimator, pos = p(n+1)/100 with interpolation") {
  // Added out of order on purpose: percentiles are over the sorted values.
  const ListStatistics s({40, 15, 50, 35, 20});
  CHECK(s.percentile(0) == 15);    // p = 0 is the minimum
  CHECK(s.percentile(10) == 15);   // pos 0.6 < 1: clamped to the first value
  CHECK(s.percentile(25) == doctest::Approx(17.5));  // pos 1.5: 15 + 0.5 * (20 - 15)
  CHECK(s.percentile(40) == doctest::Approx(26.0));  // pos 2.4: 20 + 0.4 * (35 - 20)
  CHECK(s.percentile(50) == 35);   // pos 3: exactly the third value
  CHECK(s.percentile(75) == doctest::Approx(45.0));  // pos 4.5: 40 + 0.5 * (50 - 40)
  CHECK(s.percentile(83.3333333333333) == doctest::Approx(50.0));  // pos 5: the last value
  CHECK(s.percentile(99.9) == 50);  // pos > n: clamped to the maximum
  CHECK(s.percentile(100) == 50);
  CHECK(std::isnan(s.percentile(-1)));
  CHECK(std::isnan(s.percentile(101)));
}

TEST_CASE("stats: sum, extremes and the sample variance with N-1") {
  ListStatistics s;
  for (double v : {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}) s.add(v);
  CHECK(s.sum() == 40);
  CHECK(s.mean() == 5);
  CHECK(s.min() == 2);
  CHECK(s.max() == 9);
  CHECK(s.variance() == doctest::Approx(32.0 / 7.0));
  CHECK(s.stdev() == doctest::Approx(std::sqrt(32.0 / 7.0)));
  // t(0.999, 7) * s / sqrt(8), from the same critical value as JMH.
  CHECK(s.mean_error_at(0.999) ==
        doctest::Approx(cmh::stats::student_t_critical(0.999, 7) * std::sqrt(32.0 / 7.0) / std::sqrt(8.0)));
}

TEST_CASE("stats: at least three observations are needed for an error") {
  ListStatistics s;
  CHECK(s.n() == 0);
  CHECK(std::isnan(s.mean()));
  CHECK(std::isnan(s.min()));
  CHECK(std::isnan(s.percentile(50)));
  CHECK(std::isnan(s.variance()));
  s.add(3);
  CHECK(s.variance() == 0);
  CHECK(std::isnan(s.mean_error_at(0.999)));
  s.add(5);
  CHECK(std::isnan(s.mean_error_at(0.999)));
  CHECK(std::isnan(s.confidence_interval_at(0.999).first));
  CHECK(std::isnan(s.confidence_interval_at(0.999).second));
  s.add(4);
  CHECK(s.mean_error_at(0.999) > 0);
}
