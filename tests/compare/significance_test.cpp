// SPDX-License-Identifier: MIT
// The statistics of cmh-compare against reference values. Every expected number
// below was computed once with SciPy 1.10.1 (Debian's python3-scipy, /usr/bin/python3):
//   a = [10.1, 10.4, 9.8, 10.0, 10.3]; b = [11.2, 11.9, 11.0, 11.5]
//   scipy.stats.ttest_ind(b, a, equal_var=False)          -> t 5.739660245337133, p 0.0026852930252887442
//   scipy.stats.mannwhitneyu(a, b, method='exact')         -> U 0.0, p 0.015873015873015872
//   mannwhitneyu([1.2, 3.4, 2.2], [5.0, 6.1], method='exact') -> U 0.0, p 0.2
//   a2 = 1..22, b2 = a2 + 4.5: mannwhitneyu(a2, b2, method='asymptotic') -> U 153.0, p 0.03777134895141666
//   a3 = [1,2,2,3,3,3,4,5]; b3 = [3,4,4,5,5,6,7,7]:
//     mannwhitneyu(a3, b3, method='asymptotic')            -> U 7.5, p 0.010515245935858907
//   Fieller 95 % for mean(b)/mean(a): the roots of (mb - q ma)^2 = t^2 (vb + q^2 va) with
//     t = scipy.stats.t.ppf(0.975, df), df Welch-Satterthwaite at q = mb/ma (5.142263797256818)
//     -> ratio 1.1264822134387353, [1.0693866061303154, 1.1852088709872612]
#include <cmh/compare/significance.hpp>

#include <doctest/doctest.h>

using namespace cmh::compare;
using doctest::Approx;

namespace {
const std::vector<double> kA = {10.1, 10.4, 9.8, 10.0, 10.3};
const std::vector<double> kB = {11.2, 11.9, 11.0, 11.5};
}  // namespace

TEST_CASE("compare stats: Welch's t matches scipy.stats.ttest_ind(equal_var=False)") {
  const auto r = welch_t_test(moments_of(kA), moments_of(kB));
  REQUIRE(r);
  CHECK(r->t == Approx(5.739660245337133).epsilon(1e-12));
  CHECK(r->p == Approx(0.0026852930252887442).epsilon(1e-9));
}

TEST_CASE("compare stats: Welch's t needs two values a side, and zero variance is decided by the means") {
  CHECK_FALSE(welch_t_test(moments_of({1.0}), moments_of({1.0, 2.0})));
  CHECK(welch_t_test(moments_of({3.0, 3.0}), moments_of({3.0, 3.0}))->p == 1.0);
  CHECK(welch_t_test(moments_of({3.0, 3.0}), moments_of({4.0, 4.0}))->p == 0.0);
}

TEST_CASE("compare stats: exact Mann-Whitney U matches scipy method='exact'") {
  auto r = mann_whitney_u(kA, kB);
  REQUIRE(r);
  CHECK(r->method == "exact");
  CHECK(r->u == 0.0);
  CHECK(r->p == Approx(0.015873015873015872).epsilon(1e-12));
  r = mann_whitney_u({1.2, 3.4, 2.2}, {5.0, 6.1});
  CHECK(r->method == "exact");
  CHECK(r->p == Approx(0.2).epsilon(1e-12));
  // Symmetric: swapping the samples gives U2 = n1 n2 - U1 and the same p.
  r = mann_whitney_u(kB, kA);
  CHECK(r->u == 20.0);
  CHECK(r->p == Approx(0.015873015873015872).epsilon(1e-12));
}

TEST_CASE("compare stats: normal-approximation U matches scipy method='asymptotic', with and without ties") {
  std::vector<double> a2, b2;
  for (int i = 1; i <= 22; ++i) {
    a2.push_back(i);
    b2.push_back(i + 4.5);
  }
  auto r = mann_whitney_u(a2, b2);  // 22 x 22 > kExactLimit
  REQUIRE(r);
  CHECK(r->method == "normal");
  CHECK(r->u == 153.0);
  CHECK(r->p == Approx(0.03777134895141666).epsilon(1e-9));
  r = mann_whitney_u({1, 2, 2, 3, 3, 3, 4, 5}, {3, 4, 4, 5, 5, 6, 7, 7});  // ties: never exact
  CHECK(r->method == "normal");
  CHECK(r->u == 7.5);
  CHECK(r->p == Approx(0.010515245935858907).epsilon(1e-9));
}

TEST_CASE("compare stats: Fieller's ratio interval") {
  const auto r = fieller_ratio(moments_of(kA), moments_of(kB), 0.95);
  REQUIRE(r);
  REQUIRE(r->bounded);
  CHECK(r->ratio == Approx(1.1264822134387353).epsilon(1e-12));
  CHECK(r->df == Approx(5.142263797256818).epsilon(1e-9));
  CHECK(r->lo == Approx(1.0693866061303154).epsilon(1e-9));
  CHECK(r->hi == Approx(1.1852088709872612).epsilon(1e-9));
  // A new side of all zeros (ratio 0, its variance 0) still gives an interval.
  const auto zero = fieller_ratio(moments_of({1.0, 2.0, 1.5}), moments_of({0.0, 0.0, 0.0}), 0.95);
  REQUIRE(zero);
  CHECK(zero->df == 2);
  CHECK(zero->ratio == 0);
  // A base mean indistinguishable from zero has no bounded interval.
  const auto wide = fieller_ratio(moments_of({-1.0, 1.0, 0.5}), moments_of({2.0, 2.1, 1.9}), 0.95);
  REQUIRE(wide);
  CHECK_FALSE(wide->bounded);
}
