// SPDX-License-Identifier: MIT
// HistogramStatistics (counted values) and the distribution bins: the counted
// pool must give exactly what the expanded list gives, SampleHistogram input is
// scaled into the unit, and the bins cover every observation once.
#include <doctest/doctest.h>

#include "stats/histogram_statistics.hpp"
#include "stats/list_statistics.hpp"

#include <cmath>
#include <cstdint>
#include <numeric>

using cmh::stats::HistogramStatistics;
using cmh::stats::ListStatistics;

TEST_CASE("stats: counted values give the statistics of their expansion") {
  // A deterministic, lumpy pool: values 0..39 with counts from a small LCG.
  std::vector<std::pair<double, std::uint64_t>> counted;
  ListStatistics expanded;
  std::uint32_t state = 12345;
  for (int v = 39; v >= 0; --v) {  // descending: the constructor must sort
    state = state * 1103515245u + 12345u;
    const std::uint64_t count = (state >> 16) % 7;  // zero counts included
    counted.emplace_back(v * 1.25, count);
    for (std::uint64_t i = 0; i < count; ++i) expanded.add(v * 1.25);
  }
  const HistogramStatistics h(counted);
  REQUIRE(h.n() == expanded.n());
  CHECK(h.sum() == doctest::Approx(expanded.sum()));
  CHECK(h.mean() == doctest::Approx(expanded.mean()));
  CHECK(h.variance() == doctest::Approx(expanded.variance()));
  CHECK(h.min() == expanded.min());
  CHECK(h.max() == expanded.max());
  CHECK(h.mean_error_at(0.999) == doctest::Approx(expanded.mean_error_at(0.999)));
  for (double p : {0.0, 1.0, 10.0, 25.0, 33.3, 50.0, 66.6, 90.0, 95.0, 99.0, 99.9, 100.0}) {
    CAPTURE(p);
    CHECK(h.percentile(p) == doctest::Approx(expanded.percentile(p)));
  }
}

TEST_CASE("stats: percentiles over counted values, by hand") {
  // Sorted expansion: 10 10 10 20 30 30 (n = 6).
  const HistogramStatistics h({{30.0, 2}, {10.0, 3}, {20.0, 1}});
  CHECK(h.percentile(0) == 10);
  CHECK(h.percentile(50) == doctest::Approx(15.0));  // pos 3.5: 10 + 0.5 * (20 - 10)
  CHECK(h.percentile(60) == doctest::Approx(22.0));  // pos 4.2: 20 + 0.2 * (30 - 20)
  CHECK(h.percentile(90) == 30);                     // pos 6.3 >= n
  CHECK(h.mean() == doctest::Approx(110.0 / 6.0));
}

TEST_CASE("stats: a SampleHistogram of nanoseconds, scaled into the output unit") {
  cmh::SampleHistogram samples;
  samples.record(100, 4);  // exact below 1024
  samples.record(200, 4);
  samples.record(900, 2);
  HistogramStatistics us(samples, 1e3);  // ns -> us
  CHECK(us.n() == 10);
  CHECK(us.min() == doctest::Approx(0.1));
  CHECK(us.max() == doctest::Approx(0.9));
  CHECK(us.mean() == doctest::Approx((400.0 + 800.0 + 1800.0) / 10.0 / 1e3));
  CHECK(us.percentile(50) == doctest::Approx(0.2));  // pos 5.5, both neighbours 200 ns
  // Pooling a second histogram merges equal buckets.
  us.add(samples, 1e3);
  CHECK(us.n() == 20);
  CHECK(us.counted().size() == 3);
  CHECK(us.counted()[0].second == 8);

  // Above 1024 ns a value stands for its bucket: within 1/512 of the truth.
  cmh::SampleHistogram big;
  big.record(1'000'000);
  const HistogramStatistics one(big, 1.0);
  CHECK(std::fabs(one.mean() - 1e6) / 1e6 < 1.0 / 512);
}

TEST_CASE("stats: distribution bins are round, at least ten, and cover every value once") {
  const ListStatistics s({1.0, 1.5, 2.0, 2.5, 3.0});
  const auto bins = s.histogram(10);
  // Range 2: width 1 halved to 0.125, from 1.0; the maximum needs a 17th bin.
  REQUIRE(bins.size() == 17);
  CHECK(bins.front().lo == 1.0);
  CHECK(bins.front().hi == 1.125);
  CHECK(bins.back().lo == 3.0);
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < bins.size(); ++i) {
    total += bins[i].count;
    if (i + 1 < bins.size()) CHECK(bins[i].hi == bins[i + 1].lo);
    CHECK(bins[i].count == (i % 4 == 0 ? 1u : 0u));
  }
  CHECK(total == 5);

  ListStatistics wide;
  for (int i = 0; i < 1000; ++i) wide.add(12.5 + i * 0.377);
  const auto wide_bins = wide.histogram(10);
  CHECK(wide_bins.size() >= 10);
  CHECK(wide_bins.size() <= 22);
  std::uint64_t wide_total = 0;
  for (const auto& b : wide_bins) wide_total += b.count;
  CHECK(wide_total == 1000);
  CHECK(wide_bins.front().lo <= wide.min());
  CHECK(wide_bins.back().hi > wide.max());

  const auto single = ListStatistics({4.0, 4.0, 4.0}).histogram(10);
  REQUIRE(single.size() == 1);
  CHECK(single[0].count == 3);
  CHECK(ListStatistics().histogram(10).empty());
}

TEST_CASE("stats: sample-time derived percentiles are labelled as JMH 1.37 labels them") {
  const HistogramStatistics h({{1.0, 1}, {2.0, 1}, {3.0, 1}, {4.0, 1}});
  const auto derived = cmh::stats::derived_percentiles(h, "ns/op");
  REQUIRE(derived.size() == 8);
  const char* labels[] = {"p0.00", "p0.50", "p0.90", "p0.95", "p0.99", "p0.999", "p0.9999", "p1.00"};
  for (std::size_t i = 0; i < derived.size(); ++i) {
    CHECK(derived[i].label == labels[i]);
    CHECK(derived[i].unit == "ns/op");
    CHECK(derived[i].policy == cmh::AggregationPolicy::average);
  }
  CHECK(derived[0].value == 1.0);
  CHECK(derived[1].value == doctest::Approx(2.5));  // pos 2.5
  CHECK(derived[7].value == 4.0);
}
