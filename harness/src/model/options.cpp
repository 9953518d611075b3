// SPDX-License-Identifier: MIT
// OptionSet::overlay (how one level of settings is laid over another: command line
// over benchmark over group, as JMH resolves annotations) and the printable labels
// of modes and time units declared in <cmh/options.hpp>.
#include <cmh/options.hpp>

namespace cmh {

namespace {

template <class T>
void take_if_set(std::optional<T>& target, const std::optional<T>& higher) {
  if (higher) target = higher;
}

void overlay_iterations(IterationOptions& target, const IterationOptions& higher) {
  take_if_set(target.iterations, higher.iterations);
  take_if_set(target.time, higher.time);
  take_if_set(target.batch_size, higher.batch_size);
}

void append_all(std::vector<std::string>& target, const std::vector<std::string>& more) {
  target.insert(target.end(), more.begin(), more.end());
}

}  // namespace

void OptionSet::overlay(const OptionSet& higher) {
  // A higher level that names modes replaces the lower level's list outright, as
  // -bm replaces the annotated modes in JMH; it does not add to them.
  if (!higher.modes.empty()) modes = higher.modes;
  take_if_set(output_unit, higher.output_unit);
  overlay_iterations(warmup, higher.warmup);
  overlay_iterations(measurement, higher.measurement);

  take_if_set(fork.count, higher.fork.count);
  take_if_set(fork.warmups, higher.fork.warmups);
  take_if_set(fork.args, higher.fork.args);
  // Prepend/append accumulate across levels, so a group can pin "-Xmx1g" while one
  // benchmark adds "-XX:+AlwaysPreTouch" and the command line adds a binding.
  append_all(fork.args_prepend, higher.fork.args_prepend);
  append_all(fork.args_append, higher.fork.args_append);

  take_if_set(threads, higher.threads);
  take_if_set(thread_groups, higher.thread_groups);
  take_if_set(ops_per_invocation, higher.ops_per_invocation);
  take_if_set(timeout, higher.timeout);
  take_if_set(sync_iterations, higher.sync_iterations);
  take_if_set(gc_between_iterations, higher.gc_between_iterations);
  take_if_set(subwindow, higher.subwindow);
  // Each parameter is replaced as a whole: -p size=1,2 drops the declared sizes.
  for (const auto& [name, values] : higher.params) params[name] = values;
}

std::string_view unit_label(TimeUnit u) {
  switch (u) {
    case TimeUnit::ns: return "ns";
    case TimeUnit::us: return "us";
    case TimeUnit::ms: return "ms";
    case TimeUnit::s: return "s";
    case TimeUnit::min: return "min";
    case TimeUnit::hr: return "hr";
    case TimeUnit::day: return "day";
  }
  return "?";
}

std::string_view mode_short_label(BenchmarkMode m) {
  switch (m) {
    case BenchmarkMode::throughput: return "thrpt";
    case BenchmarkMode::average_time: return "avgt";
    case BenchmarkMode::sample_time: return "sample";
    case BenchmarkMode::single_shot: return "ss";
  }
  return "?";
}

std::string_view mode_long_label(BenchmarkMode m) {
  switch (m) {
    case BenchmarkMode::throughput: return "Throughput, ops/time";
    case BenchmarkMode::average_time: return "Average time, time/op";
    case BenchmarkMode::sample_time: return "Sampling time";
    case BenchmarkMode::single_shot: return "Single shot invocation time";
  }
  return "?";
}

}  // namespace cmh
