// SPDX-License-Identifier: MIT
// The option values of <cmh/option_values.hpp> applied to an OptionSet. Out of line so
// that a benchmark file needs neither OptionSet nor <chrono> to write CMH_OPTIONS.
#include <cmh/option_values.hpp>
#include <cmh/options.hpp>

namespace cmh {

void warmup::apply(OptionSet& o) const {
  o.warmup.iterations = iterations;
  o.warmup.time = Nanos(time.nanos);
  o.warmup.batch_size = batch_size;
}

void measurement::apply(OptionSet& o) const {
  o.measurement.iterations = iterations;
  o.measurement.time = Nanos(time.nanos);
  o.measurement.batch_size = batch_size;
}

void fork::apply(OptionSet& o) const {
  o.fork.count = count;
  o.fork.warmups = warmups;
  if (!args.empty()) o.fork.args = args;
}

void fork_warmups::apply(OptionSet& o) const { o.fork.warmups = count; }

void fork_args_prepend::apply(OptionSet& o) const {
  o.fork.args_prepend.insert(o.fork.args_prepend.end(), args.begin(), args.end());
}

void fork_args_append::apply(OptionSet& o) const {
  o.fork.args_append.insert(o.fork.args_append.end(), args.begin(), args.end());
}

void output_unit::apply(OptionSet& o) const { o.output_unit = unit; }

void threads::apply(OptionSet& o) const { o.threads = count; }

void ops_per_invocation::apply(OptionSet& o) const { o.ops_per_invocation = count; }

void timeout::apply(OptionSet& o) const { o.timeout = Nanos(time.nanos); }

void sync_iterations::apply(OptionSet& o) const { o.sync_iterations = on; }

void mode_option::apply(OptionSet& o) const {
  for (BenchmarkMode m : {BenchmarkMode::throughput, BenchmarkMode::average_time, BenchmarkMode::sample_time,
                          BenchmarkMode::single_shot}) {
    if ((modes & (1u << static_cast<int>(m))) == 0) continue;
    bool present = false;
    for (auto have : o.modes) present = present || have == m;
    if (!present) o.modes.push_back(m);
  }
}

namespace detail {
OptionSet* new_option_set() { return new OptionSet(); }
}  // namespace detail

}  // namespace cmh
