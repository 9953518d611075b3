// SPDX-License-Identifier: MIT
// Field-by-field encoding of the results model (see codec.hpp). The layout is
// the protocol: any change to it bumps kProtocolVersion in frames.hpp. The
// size checks below make a new field in a contract struct a compile error here
// rather than a field that silently never crosses the channel.
#include "wire/codec.hpp"

#include <string>
#include <utility>
#include <vector>

namespace cmh::forking {

#if defined(__GLIBCXX__) && !defined(_GLIBCXX_DEBUG)  // the sizes below are libstdc++'s
// If one of these fires, a struct of the results model gained or lost a field:
// encode and decode it below, then bump kProtocolVersion (wire/frames.hpp).
static_assert(sizeof(ScalarResult) == 112, "ScalarResult changed: update wire/codec.cpp");
static_assert(sizeof(IterationParams) == 24, "IterationParams changed: update wire/codec.cpp");
static_assert(sizeof(ThreadMeasurement) == 64, "ThreadMeasurement changed: update wire/codec.cpp");
static_assert(sizeof(IterationResult) == 368, "IterationResult changed: update wire/codec.cpp");
// Failure::stack is the host's own (a debugger's view of a fork it stops): never on the wire.
static_assert(sizeof(Failure) == 152, "Failure changed: update wire/codec.cpp");
static_assert(sizeof(BenchmarkParams) == 376, "BenchmarkParams changed: update wire/codec.cpp");
static_assert(sizeof(AllocatorState) == 136, "AllocatorState changed: update wire/codec.cpp");
static_assert(sizeof(ThreadPinning) == 56, "ThreadPinning changed: update wire/codec.cpp");
static_assert(sizeof(Pinning) == 144, "Pinning changed: update wire/codec.cpp");
#endif

namespace {

void encode_strings(ByteWriter& w, const std::vector<std::string>& v) {
  w.put_count(v.size());
  for (const auto& s : v) w.put_string(s);
}

std::vector<std::string> decode_strings(ByteReader& r) {
  std::vector<std::string> v(r.get_count(4));
  for (auto& s : v) s = r.get_string();
  return v;
}

std::vector<int> decode_ints(ByteReader& r) {
  std::vector<int> v(r.get_count(4));
  for (auto& i : v) i = r.get_i32();
  return v;
}

}  // namespace

void encode(ByteWriter& w, const ScalarResult& v) {
  w.put_string(v.label);
  w.put_f64(v.value);
  w.put_string(v.unit);
  w.put_u8(static_cast<std::uint8_t>(v.policy));
  w.put_string(v.note);
}

void decode(ByteReader& r, ScalarResult& v) {
  v.label = r.get_string();
  v.value = r.get_f64();
  v.unit = r.get_string();
  v.policy = r.get_enum(AggregationPolicy::min, "aggregation policy");
  v.note = r.get_string();
}

void encode(ByteWriter& w, const IterationParams& v) {
  w.put_u8(static_cast<std::uint8_t>(v.kind));
  w.put_i32(v.count);
  w.put_i64(v.time.count());
  w.put_i32(v.batch_size);
}

void decode(ByteReader& r, IterationParams& v) {
  v.kind = r.get_enum(IterationKind::measurement, "iteration kind");
  v.count = r.get_i32();
  v.time = Nanos(r.get_i64());
  v.batch_size = r.get_i32();
}

void encode(ByteWriter& w, const BenchmarkParams& v) {
  w.put_string(v.benchmark);
  w.put_string(v.group);
  w.put_string(v.name);
  w.put_u8(static_cast<std::uint8_t>(v.mode));
  w.put_u8(static_cast<std::uint8_t>(v.time_unit));
  encode(w, v.warmup);
  encode(w, v.measurement);
  w.put_i32(v.threads);
  w.put_count(v.thread_groups.size());
  for (int t : v.thread_groups) w.put_i32(t);
  encode_strings(w, v.group_members);
  w.put_i32(v.ops_per_invocation);
  w.put_i64(v.timeout.count());
  w.put_bool(v.sync_iterations);
  w.put_bool(v.gc_between_iterations);
  w.put_i32(v.forks);
  w.put_i32(v.warmup_forks);
  w.put_i64(v.subwindow.count());
  encode_strings(w, v.fork_args);
  w.put_count(v.params.size());
  for (const auto& [key, value] : v.params) {
    w.put_string(key);
    w.put_string(value);
  }
  encode_strings(w, v.profilers);
  w.put_f64(v.precision);
  w.put_i64(v.precision_budget.count());
  w.put_string(v.pin);
  w.put_bool(v.precision_robust);
}

void decode(ByteReader& r, BenchmarkParams& v) {
  v.benchmark = r.get_string();
  v.group = r.get_string();
  v.name = r.get_string();
  v.mode = r.get_enum(BenchmarkMode::single_shot, "benchmark mode");
  v.time_unit = r.get_enum(TimeUnit::day, "time unit");
  decode(r, v.warmup);
  decode(r, v.measurement);
  v.threads = r.get_i32();
  v.thread_groups = decode_ints(r);
  v.group_members = decode_strings(r);
  v.ops_per_invocation = r.get_i32();
  v.timeout = Nanos(r.get_i64());
  v.sync_iterations = r.get_bool();
  v.gc_between_iterations = r.get_bool();
  v.forks = r.get_i32();
  v.warmup_forks = r.get_i32();
  v.subwindow = Nanos(r.get_i64());
  v.fork_args = decode_strings(r);
  v.params.resize(r.get_count(8));
  for (auto& [key, value] : v.params) {
    key = r.get_string();
    value = r.get_string();
  }
  v.profilers = decode_strings(r);
  v.precision = r.get_f64();
  v.precision_budget = Nanos(r.get_i64());
  v.pin = r.get_string();
  v.precision_robust = r.get_bool();
}

void encode(ByteWriter& w, const ThreadMeasurement& v) {
  w.put_i32(v.subgroup_index);
  w.put_u64(v.measured_ops);
  w.put_i64(v.duration_ns);
  w.put_i64(v.cpu_ns);
  w.put_i64(v.window_ns);
  w.put_i64(v.involuntary_switches);
  w.put_i64(v.voluntary_switches);
  w.put_i64(v.run_delay_ns);
}

void decode(ByteReader& r, ThreadMeasurement& v) {
  v.subgroup_index = r.get_i32();
  v.measured_ops = r.get_u64();
  v.duration_ns = r.get_i64();
  v.cpu_ns = r.get_i64();
  v.window_ns = r.get_i64();
  v.involuntary_switches = r.get_i64();
  v.voluntary_switches = r.get_i64();
  v.run_delay_ns = r.get_i64();
}

// Sparse: only non-empty buckets travel, as (bucket index, count) in ascending order.
void encode(ByteWriter& w, const SampleHistogram& v) {
  std::size_t non_empty = 0;
  for (std::size_t b = 0; b < SampleHistogram::kBuckets; ++b) non_empty += v.count_at(b) != 0;
  w.put_count(non_empty);
  for (std::size_t b = 0; b < SampleHistogram::kBuckets; ++b) {
    if (v.count_at(b) == 0) continue;
    w.put_u32(static_cast<std::uint32_t>(b));
    w.put_u64(v.count_at(b));
  }
}

void decode(ByteReader& r, SampleHistogram& v) {
  v.clear();
  const std::size_t n = r.get_count(12);
  std::size_t previous = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t bucket = r.get_u32();
    const std::uint64_t count = r.get_u64();
    if (bucket >= SampleHistogram::kBuckets) throw ProtocolError("histogram bucket out of range");
    if (i > 0 && bucket <= previous) throw ProtocolError("histogram buckets not in ascending order");
    if (count == 0) throw ProtocolError("empty histogram bucket sent");
    previous = bucket;
    // The bucket's lower bound maps back to the bucket: record() puts the count there.
    v.record(static_cast<std::int64_t>(SampleHistogram::lower_bound(bucket)), count);
  }
}

void encode(ByteWriter& w, const IterationResult& v) {
  w.put_u8(static_cast<std::uint8_t>(v.kind));
  w.put_i32(v.index);
  encode(w, v.primary);
  w.put_count(v.threads.size());
  for (const auto& t : v.threads) encode(w, t);
  w.put_u64(v.all_ops);
  w.put_u64(v.measured_ops);
  w.put_i64(v.wall_ns);
  w.put_bool(v.samples.has_value());
  if (v.samples) encode(w, *v.samples);
  w.put_count(v.secondaries.size());
  for (const auto& s : v.secondaries) encode(w, s);
  w.put_bool(v.timed_out);
  w.put_f64(v.host.steal_fraction);
  w.put_f64(v.host.load_average);
  w.put_f64(v.host.others_share);
  w.put_f64(v.host.idle_share);
  w.put_f64(v.subwindow_median);
  w.put_i64(v.subwindows);
  w.put_f64(v.subwindow_clean_mean);
  w.put_f64(v.subwindow_clean_median);
  w.put_i64(v.subwindows_rejected);
  w.put_i64(v.subwindows_corrected);
  w.put_i64(v.subwindow_length_ns);
  w.put_u8(v.subwindow_evidence);
  w.put_string(v.label);
}

void decode(ByteReader& r, IterationResult& v) {
  v.kind = r.get_enum(IterationKind::measurement, "iteration kind");
  v.index = r.get_i32();
  decode(r, v.primary);
  v.threads.resize(r.get_count(60));
  for (auto& t : v.threads) decode(r, t);
  v.all_ops = r.get_u64();
  v.measured_ops = r.get_u64();
  v.wall_ns = r.get_i64();
  if (r.get_bool()) {
    v.samples.emplace();
    decode(r, *v.samples);
  } else {
    v.samples.reset();
  }
  v.secondaries.resize(r.get_count(21));
  for (auto& s : v.secondaries) decode(r, s);
  v.timed_out = r.get_bool();
  v.host.steal_fraction = r.get_f64();
  v.host.load_average = r.get_f64();
  v.host.others_share = r.get_f64();
  v.host.idle_share = r.get_f64();
  v.subwindow_median = r.get_f64();
  v.subwindows = r.get_i64();
  v.subwindow_clean_mean = r.get_f64();
  v.subwindow_clean_median = r.get_f64();
  v.subwindows_rejected = r.get_i64();
  v.subwindows_corrected = r.get_i64();
  v.subwindow_length_ns = r.get_i64();
  v.subwindow_evidence = r.get_u8();
  v.label = r.get_string();
}

void encode(ByteWriter& w, const Failure& v) {
  w.put_u8(static_cast<std::uint8_t>(v.kind));
  w.put_string(v.message);
  w.put_string(v.exception_type);
  w.put_i32(v.exit_code);
  w.put_i32(v.signal);
  encode_strings(w, v.stdout_tail);
  encode_strings(w, v.stderr_tail);
}

void decode(ByteReader& r, Failure& v) {
  v.kind = r.get_enum(FailureKind::other, "failure kind");
  v.message = r.get_string();
  v.exception_type = r.get_string();
  v.exit_code = r.get_i32();
  v.signal = r.get_i32();
  v.stdout_tail = decode_strings(r);
  v.stderr_tail = decode_strings(r);
}

void encode(ByteWriter& w, const AllocatorState& v) {
  w.put_bool(v.known);
  w.put_string(v.numa_mode);
  w.put_string(v.numa_reason);
  w.put_string(v.numa_nodes);
  w.put_string(v.options);
}

void decode(ByteReader& r, AllocatorState& v) {
  v.known = r.get_bool();
  v.numa_mode = r.get_string();
  v.numa_reason = r.get_string();
  v.numa_nodes = r.get_string();
  v.options = r.get_string();
}

void encode(ByteWriter& w, const Pinning& v) {
  w.put_string(v.mode);
  w.put_count(v.threads.size());
  for (const auto& t : v.threads) {
    w.put_i32(t.thread);
    w.put_i32(t.cpu);
    w.put_i32(t.core);
    w.put_i32(t.package);
    w.put_i32(t.node);
    w.put_string(t.core_type);
  }
  w.put_string(v.allowed_cpus);
  w.put_string(v.control_cpus);
  encode_strings(w, v.notes);
}

void decode(ByteReader& r, Pinning& v) {
  v.mode = r.get_string();
  v.threads.resize(r.get_count(24));
  for (auto& t : v.threads) {
    t.thread = r.get_i32();
    t.cpu = r.get_i32();
    t.core = r.get_i32();
    t.package = r.get_i32();
    t.node = r.get_i32();
    t.core_type = r.get_string();
  }
  v.allowed_cpus = r.get_string();
  v.control_cpus = r.get_string();
  v.notes = decode_strings(r);
}

}  // namespace cmh::forking
