// SPDX-License-Identifier: MIT
// The interval of a two-level estimate: observations grouped in clusters (a fork's
// iterations; or, with one fork, each iteration alone), the estimate the mean over
// clusters of each cluster's median. Values inside one cluster share its conditions
// (the process, its memory layout, the machine's state at the time), so they are not
// independent: the clusters are the unit that is resampled, never the values in them.
//
// The standard error comes from a bootstrap over the clusters: B resamples of G clusters
// drawn with replacement, members kept whole (Davison & Hinkley 1997, section 3.8,
// strategy 1), the estimate recomputed on each, times sqrt(G/(G-1)) because a resample of
// G clusters varies (G-1)/G as much as the clusters do. The interval is
// estimate +- t(G-1) x SE, Student t with G-1 degrees of freedom: with 3 forks the
// bootstrap's own percentile interval, which treats the spread of 3 values as known,
// covers far less often than it says (tests/unit/stats_cluster_bootstrap.cpp measures
// it), while t(G-1) pays for estimating that spread from G values.
//
// A floor: the half-width is never below what the clusters' own members imply (the pooled
// within-cluster spread, as the variance of a median of that many members, with Student t
// at that variance's own degrees of freedom). Three forks can agree closely by chance (or
// to the last digit, with coarse values); the between-fork variance is then estimated as
// zero, as a random-effects model truncates it, and the within-fork spread sets the width.
//
// Deterministic: a fixed seed, so the same data always gives the same interval.
#pragma once

#include <cstdint>
#include <vector>

namespace cmh::stats {

/// The estimate: mean over the non-empty clusters of each one's median; NaN when none.
double mean_of_medians(const std::vector<std::vector<double>>& clusters);

struct ClusterInterval {
  double estimate = 0;        ///< mean_of_medians of the data
  /// Bootstrap SD of the estimate x sqrt(G/(G-1)), or the within-cluster floor where that
  /// gives the wider interval; NaN below 2 clusters.
  double standard_error = 0;
  double critical = 0;        ///< Student t quantile: G-1 degrees of freedom, or the floor's
  double low = 0, high = 0;   ///< estimate -+ critical x standard_error; NaN below 2 clusters
  /// The resamples' own percentile interval (not used for the result: see above).
  double percentile_low = 0, percentile_high = 0;
  int clusters = 0;           ///< non-empty clusters
  /// Relative spread of the clusters' medians: their SD over |estimate|; NaN below 2.
  double cluster_spread = 0;
};

inline constexpr int kBootstrapResamples = 2000;
inline constexpr std::uint64_t kBootstrapSeed = 0x636d68'5eedULL;

/// Empty clusters are ignored. `confidence` in (0, 1).
ClusterInterval cluster_bootstrap(const std::vector<std::vector<double>>& clusters, double confidence,
                                  int resamples = kBootstrapResamples, std::uint64_t seed = kBootstrapSeed);

}  // namespace cmh::stats
