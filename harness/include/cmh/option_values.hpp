// SPDX-License-Identifier: MIT
// The option values a benchmark file writes inside CMH_OPTIONS(...) and
// CMH_BENCHMARK_OPTIONS(...): cmh::warmup{5, 1s}, cmh::mode::average_time, ...
//
// This header is part of <cmh/cmh.hpp> and is kept light on purpose: it needs no
// <chrono> (times are any std::chrono::duration, read through cmh::Duration) and
// no OptionSet (each value's apply() is defined in the library). The OptionSet
// they fill, with the rules by which settings resolve, is <cmh/options.hpp>.
#pragma once

#include <string>
#include <vector>

namespace cmh {

struct OptionSet;

/// JMH's benchmark modes. `all` is not a mode of its own: it expands to the four.
enum class BenchmarkMode { throughput, average_time, sample_time, single_shot };

/// Output time units, as JMH's TimeUnit subset it prints (ns, us, ms, s, min, hr, day).
enum class TimeUnit { ns, us, ms, s, min, hr, day };

/// Thread-count sentinels, as JMH's Threads.MAX and Threads.HALF_MAX.
inline constexpr int kThreadsMax = -1;
inline constexpr int kThreadsHalfMax = -2;

/// A length of time in nanoseconds, converted from any std::chrono::duration (1s, 200ms,
/// 1.5s) the way std::chrono::duration_cast<nanoseconds> would (truncating). Duck-typed on
/// count() and period so that this header does not parse <chrono> for every benchmark file.
struct Duration {
  long long nanos = 0;

  constexpr Duration() = default;
  template <class D>
    requires requires(const D& d) {
      d.count();
      D::period::num;
      D::period::den;
    }
  constexpr Duration(const D& d)  // NOLINT(google-explicit-constructor): 1s reads as a time
      : nanos(to_nanos(d.count(), D::period::num, D::period::den)) {}
  static constexpr Duration from_nanos(long long n) {
    Duration d;
    d.nanos = n;
    return d;
  }

 private:
  static constexpr long long gcd(long long a, long long b) { return b == 0 ? a : gcd(b, a % b); }
  template <class Rep>
  static constexpr long long to_nanos(Rep count, long long num, long long den) {
    // Period / nano, reduced, as duration_cast computes it.
    const long long g = gcd(num * 1'000'000'000, den);
    const long long n = num * 1'000'000'000 / g;
    const long long d = den / g;
    if constexpr (static_cast<Rep>(1) / 2 != 0) {  // floating-point representation
      return static_cast<long long>(static_cast<long double>(count) * n / d);
    } else {
      return static_cast<long long>(count) * n / d;
    }
  }
};

// Each value's apply() sets its fields in an OptionSet; defined in the library
// (harness/src/model/option_values.cpp).

/// Warmup iterations: count, minimum time each, calls per op (batch size).
struct warmup {
  int iterations;
  Duration time = Duration::from_nanos(1'000'000'000);
  int batch_size = 1;
  void apply(OptionSet& o) const;
};

/// Measurement iterations: count, minimum time each, calls per op (batch size).
struct measurement {
  int iterations;
  Duration time = Duration::from_nanos(1'000'000'000);
  int batch_size = 1;
  void apply(OptionSet& o) const;
};

/// Forks: count, and fork arguments that *replace* the inherited ones.
struct fork {
  int count;
  std::vector<std::string> args = {};
  int warmups = 0;
  void apply(OptionSet& o) const;
};
struct fork_warmups {
  int count;
  void apply(OptionSet& o) const;
};
struct fork_args_prepend {
  std::vector<std::string> args;
  void apply(OptionSet& o) const;
};
struct fork_args_append {
  std::vector<std::string> args;
  void apply(OptionSet& o) const;
};

/// Output time unit, given as a duration of one unit: cmh::output_unit{1ms}.
struct output_unit {
  TimeUnit unit;
  constexpr output_unit(TimeUnit u) : unit(u) {}  // NOLINT(google-explicit-constructor)
  constexpr output_unit(Duration d) : unit(from_nanos(d.nanos)) {}  // NOLINT(google-explicit-constructor)
  void apply(OptionSet& o) const;

 private:
  static constexpr TimeUnit from_nanos(long long n) {
    if (n <= 1) return TimeUnit::ns;
    if (n <= 1'000) return TimeUnit::us;
    if (n <= 1'000'000) return TimeUnit::ms;
    if (n <= 1'000'000'000) return TimeUnit::s;
    if (n <= 60'000'000'000) return TimeUnit::min;
    if (n <= 3'600'000'000'000) return TimeUnit::hr;
    return TimeUnit::day;
  }
};

/// Worker threads; cmh::threads::max / cmh::threads::half_max as in JMH.
struct threads {
  int count;
  static constexpr int max = kThreadsMax;
  static constexpr int half_max = kThreadsHalfMax;
  void apply(OptionSet& o) const;
};

/// Operations counted per call of the benchmark body (@OperationsPerInvocation).
struct ops_per_invocation {
  int count;
  void apply(OptionSet& o) const;
};

/// Per-iteration timeout (@Timeout).
struct timeout {
  Duration time;
  void apply(OptionSet& o) const;
};

/// Synchronised iterations (-si); on by default.
struct sync_iterations {
  bool on;
  void apply(OptionSet& o) const;
};

/// Benchmark mode values: cmh::mode::throughput, ..., cmh::mode::all. A set of modes,
/// one bit per BenchmarkMode; applied in the enum's order, each mode once.
struct mode_option {
  unsigned modes = 0;
  void apply(OptionSet& o) const;
};
namespace mode {
inline constexpr mode_option throughput{1u << static_cast<int>(BenchmarkMode::throughput)};
inline constexpr mode_option average_time{1u << static_cast<int>(BenchmarkMode::average_time)};
inline constexpr mode_option sample_time{1u << static_cast<int>(BenchmarkMode::sample_time)};
inline constexpr mode_option single_shot{1u << static_cast<int>(BenchmarkMode::single_shot)};
inline constexpr mode_option all{throughput.modes | average_time.modes | sample_time.modes |
                                 single_shot.modes};
}  // namespace mode

namespace detail {
/// A new, empty OptionSet for the macros to fill (they see it only by reference).
OptionSet* new_option_set();
/// Take ownership of `options` (from new_option_set): CMH_OPTIONS and CMH_BENCHMARK_OPTIONS.
void adopt_group_options(const char* group, OptionSet* options);
void adopt_benchmark_options(const char* group, const char* name, OptionSet* options, const char* file,
                             int line);

template <class... Opts>
bool register_group_option_values(const char* group, const Opts&... opts) {
  OptionSet* set = new_option_set();
  (opts.apply(*set), ...);
  adopt_group_options(group, set);
  return true;
}
template <class... Opts>
bool register_benchmark_option_values(const char* group, const char* name, const char* file, int line,
                                      const Opts&... opts) {
  OptionSet* set = new_option_set();
  (opts.apply(*set), ...);
  adopt_benchmark_options(group, name, set, file, line);
  return true;
}
}  // namespace detail

}  // namespace cmh
