// SPDX-License-Identifier: MIT
// -prec within one fork: the rule that decides whether a fork (or the -f 0 trial) adds
// another measurement iteration after the planned -i. A pure function over the
// iteration scores seen so far, so that the worker applies it and the host can say
// afterwards what stopped each fork.
#pragma once

#include <cmh/options.hpp>

#include <vector>

namespace cmh::stats {

/// Why a fork stopped adding measurement iterations.
enum class IterationStop {
  keep_going,     ///< none yet: run another iteration
  target,         ///< its own 99.9 % error is at most the target share of its mean
  iteration_cap,  ///< it ran iteration_cap(planned) iterations
  time_budget,    ///< another iteration would overrun the fork's share of -maxTime
};

/// At most this many measurement iterations per fork: 4 x -i, and at least 50.
int iteration_cap(int planned);

/// JMH's 99.9 % Student t error of `scores` over the absolute value of their mean;
/// NaN for fewer than 3 scores or a zero mean.
double relative_error(const std::vector<double>& scores);

/// The decision after the measurement iterations `scores` (this fork's, in order), at
/// target share `target` (0.02 for 2 %), `planned` iterations asked for with -i, the
/// time this fork has run so far (warmup included) and its share of the budget. Never
/// stops before `planned` iterations. The next iteration is taken to last as long as
/// the mean of those so far (`elapsed_measuring` over their count).
IterationStop next_iteration(const std::vector<double>& scores, double target, int planned, Nanos elapsed,
                             Nanos elapsed_measuring, Nanos budget);

/// What the host reports for a fork that ran `scores` with `planned` asked for: the
/// same rule applied once the fork ended; time_budget when neither target nor cap.
IterationStop why_fork_stopped(const std::vector<double>& scores, double target, int planned);

/// "the target was reached", "the iteration cap (50 per fork) was reached", ...
const char* describe(IterationStop why);
/// The JSON word: "target", "iterationCap", "timeBudget".
const char* json_name(IterationStop why);

}  // namespace cmh::stats
