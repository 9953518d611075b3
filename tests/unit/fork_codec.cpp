// SPDX-License-Identifier: MIT
// Round trips of the fork channel's codec: every field of the plan, of an
// iteration result (threads, histogram, secondaries) and of a failure survives
// encode -> decode unchanged, and malformed payloads are ProtocolErrors.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "wire/codec.hpp"
#include "wire/messages.hpp"

using namespace cmh;
using namespace cmh::forking;

namespace {

BenchmarkParams sample_plan() {
  BenchmarkParams p;
  p.benchmark = "TAB.separate";
  p.group = "TAB";
  p.name = "separate";
  p.mode = BenchmarkMode::sample_time;
  p.time_unit = TimeUnit::us;
  p.warmup = {IterationKind::warmup, 7, std::chrono::milliseconds(250), 3};
  p.measurement = {IterationKind::measurement, 11, std::chrono::seconds(2), 5};
  p.threads = 4;
  p.thread_groups = {3, 1};
  p.group_members = {"get", "put"};
  p.ops_per_invocation = 9;
  p.timeout = std::chrono::seconds(42);
  p.sync_iterations = false;
  p.gc_between_iterations = true;
  p.forks = 6;
  p.warmup_forks = 2;
  p.subwindow = std::chrono::microseconds(1500);
  p.fork_args = {"-Xmx1g", "--membind=0", "-DFOO=b a r"};
  p.params = {{"size", "64"}, {"text", "ünïcode, with comma"}};
  p.profilers = {"alloc", "perf:events=cycles;x=1"};
  p.pin = "3,1-2";
  return p;
}

template <class T>
T round_trip(const T& value) {
  ByteWriter w;
  encode(w, value);
  ByteReader r(w.bytes());
  T out{};
  decode(r, out);
  CHECK(r.remaining() == 0);
  return out;
}

void check_same(const ScalarResult& a, const ScalarResult& b) {
  CHECK(a.label == b.label);
  CHECK(a.unit == b.unit);
  CHECK(a.policy == b.policy);
  CHECK(a.note == b.note);
  if (std::isnan(a.value)) CHECK(std::isnan(b.value));
  else CHECK(a.value == b.value);
}

}  // namespace

TEST_CASE("fork codec: the plan crosses the channel field by field") {
  const BenchmarkParams p = sample_plan();
  const BenchmarkParams q = round_trip(p);
  CHECK(q.benchmark == p.benchmark);
  CHECK(q.group == p.group);
  CHECK(q.name == p.name);
  CHECK(q.mode == p.mode);
  CHECK(q.time_unit == p.time_unit);
  CHECK(q.warmup.kind == p.warmup.kind);
  CHECK(q.warmup.count == p.warmup.count);
  CHECK(q.warmup.time == p.warmup.time);
  CHECK(q.warmup.batch_size == p.warmup.batch_size);
  CHECK(q.measurement.kind == p.measurement.kind);
  CHECK(q.measurement.count == p.measurement.count);
  CHECK(q.measurement.time == p.measurement.time);
  CHECK(q.measurement.batch_size == p.measurement.batch_size);
  CHECK(q.threads == p.threads);
  CHECK(q.thread_groups == p.thread_groups);
  CHECK(q.group_members == p.group_members);
  CHECK(q.ops_per_invocation == p.ops_per_invocation);
  CHECK(q.timeout == p.timeout);
  CHECK(q.sync_iterations == p.sync_iterations);
  CHECK(q.gc_between_iterations == p.gc_between_iterations);
  CHECK(q.forks == p.forks);
  CHECK(q.warmup_forks == p.warmup_forks);
  CHECK(q.subwindow == p.subwindow);
  CHECK(q.fork_args == p.fork_args);
  CHECK(q.params == p.params);
  CHECK(q.profilers == p.profilers);
  CHECK(q.pin == p.pin);
}

TEST_CASE("fork codec: an iteration result keeps threads, histogram, secondaries and NaN") {
  IterationResult r;
  r.kind = IterationKind::warmup;
  r.index = 3;
  r.primary = {"TAB.inline", 1234.5678, "ops/s", AggregationPolicy::average};
  r.threads = {{0, 1000, 1'000'000'123, 987'654'321, 1'000'000'500, 3, 7, 12'345'678},
               {1, std::numeric_limits<std::uint64_t>::max(), -5, 0, 0, -1, -1, -1}};
  r.all_ops = 1'000'000'000'000ull;
  r.measured_ops = 999;
  r.wall_ns = 1'000'000'999;
  r.samples.emplace();
  r.samples->record(0);
  r.samples->record(17, 5);
  r.samples->record(1023);
  r.samples->record(1024, 2);
  r.samples->record(123'456'789, 7);
  r.samples->record(std::numeric_limits<std::int64_t>::max());
  r.secondaries = {{"alloc.rate.norm", 4000.0, "B/op", AggregationPolicy::average},
                   {"gc.count", std::numeric_limits<double>::quiet_NaN(), "counts", AggregationPolicy::sum},
                   {"max", -0.0, "", AggregationPolicy::max, "a note"},
                   {"min", std::numeric_limits<double>::infinity(), "x", AggregationPolicy::min}};
  r.timed_out = true;
  r.host.steal_fraction = 0.125;  // load_average stays NaN: "unknown" must cross as NaN
  r.host.others_share = 0.375;    // idle_share stays NaN
  r.subwindow_median = 73.25;
  r.subwindows = 4980;
  r.subwindow_clean_mean = 74.5;
  r.subwindow_clean_median = 72.75;
  r.subwindows_rejected = 12;
  r.subwindows_corrected = 7;

  const IterationResult q = round_trip(r);
  CHECK(q.kind == r.kind);
  CHECK(q.index == r.index);
  check_same(q.primary, r.primary);
  REQUIRE(q.threads.size() == r.threads.size());
  for (std::size_t i = 0; i < r.threads.size(); ++i) {
    CHECK(q.threads[i].subgroup_index == r.threads[i].subgroup_index);
    CHECK(q.threads[i].measured_ops == r.threads[i].measured_ops);
    CHECK(q.threads[i].duration_ns == r.threads[i].duration_ns);
    CHECK(q.threads[i].cpu_ns == r.threads[i].cpu_ns);
    CHECK(q.threads[i].window_ns == r.threads[i].window_ns);
    CHECK(q.threads[i].involuntary_switches == r.threads[i].involuntary_switches);
    CHECK(q.threads[i].voluntary_switches == r.threads[i].voluntary_switches);
    CHECK(q.threads[i].run_delay_ns == r.threads[i].run_delay_ns);
  }
  CHECK(q.host.steal_fraction == r.host.steal_fraction);
  CHECK(std::isnan(q.host.load_average));
  CHECK(q.host.others_share == r.host.others_share);
  CHECK(std::isnan(q.host.idle_share));
  CHECK(q.subwindow_median == r.subwindow_median);
  CHECK(q.subwindows == r.subwindows);
  CHECK(q.subwindow_clean_mean == r.subwindow_clean_mean);
  CHECK(q.subwindow_clean_median == r.subwindow_clean_median);
  CHECK(q.subwindows_rejected == r.subwindows_rejected);
  CHECK(q.subwindows_corrected == r.subwindows_corrected);
  CHECK(q.all_ops == r.all_ops);
  CHECK(q.measured_ops == r.measured_ops);
  CHECK(q.wall_ns == r.wall_ns);
  REQUIRE(q.samples.has_value());
  CHECK(q.samples->total_count() == r.samples->total_count());
  for (std::size_t b = 0; b < SampleHistogram::kBuckets; ++b) {
    if (q.samples->count_at(b) != r.samples->count_at(b)) {
      FAIL_CHECK("histogram bucket " << b << " differs");
      break;
    }
  }
  REQUIRE(q.secondaries.size() == r.secondaries.size());
  for (std::size_t i = 0; i < r.secondaries.size(); ++i) check_same(q.secondaries[i], r.secondaries[i]);
  CHECK(std::signbit(q.secondaries[2].value));
  CHECK(q.timed_out);

  r.samples.reset();
  CHECK_FALSE(round_trip(r).samples.has_value());
}

TEST_CASE("fork codec: every histogram bucket maps back to itself") {
  // decode() rebuilds a bucket by recording its lower bound; that must land in the same bucket.
  for (std::size_t b = 0; b < SampleHistogram::kBuckets; ++b) {
    const auto lo = SampleHistogram::lower_bound(b);
    if (lo > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) break;
    if (SampleHistogram::index_of(lo) != b) {
      FAIL_CHECK("bucket " << b << " does not round-trip");
      break;
    }
  }
}

TEST_CASE("fork codec: a failure keeps kind, texts, codes and tails") {
  Failure f;
  f.kind = FailureKind::exception;
  f.message = "vector::_M_range_check: __n (which is 5) >= this->size() (which is 0)";
  f.exception_type = "std::out_of_range";
  f.exit_code = 3;
  f.signal = 11;
  f.stdout_tail = {"line 1", "", "line 3"};
  f.stderr_tail = {"boom"};
  const Failure g = round_trip(f);
  CHECK(g.kind == f.kind);
  CHECK(g.message == f.message);
  CHECK(g.exception_type == f.exception_type);
  CHECK(g.exit_code == f.exit_code);
  CHECK(g.signal == f.signal);
  CHECK(g.stdout_tail == f.stdout_tail);
  CHECK(g.stderr_tail == f.stderr_tail);
}

TEST_CASE("fork codec: malformed payloads are protocol errors") {
  ByteWriter w;
  encode(w, sample_plan());
  const std::string good = w.bytes();
  // Every truncation of a valid payload is rejected.
  for (std::size_t n = 0; n < good.size(); ++n) {
    ByteReader r(std::string_view(good).substr(0, n));
    BenchmarkParams p;
    CHECK_THROWS_AS(decode(r, p), ProtocolError);
  }
  SUBCASE("bad enum") {
    ScalarResult s{"x", 1, "u", AggregationPolicy::min};
    ByteWriter ws;
    encode(ws, s);
    std::string bytes = ws.bytes();
    bytes.back() = 9;  // the policy byte
    ByteReader r(bytes);
    CHECK_THROWS_AS(decode(r, s), ProtocolError);
  }
  SUBCASE("a count larger than the frame does not allocate") {
    ByteWriter ws;
    ws.put_u32(0xFFFFFFFFu);
    ByteReader r(ws.bytes());
    Failure f;
    CHECK_THROWS_AS(decode(r, f), ProtocolError);
  }
  SUBCASE("histogram buckets out of order") {
    ByteWriter ws;
    ws.put_count(2);
    ws.put_u32(10);
    ws.put_u64(1);
    ws.put_u32(5);
    ws.put_u64(1);
    ByteReader r(ws.bytes());
    SampleHistogram h;
    CHECK_THROWS_AS(decode(r, h), ProtocolError);
  }
}

TEST_CASE("fork messages: every message type round-trips through a frame") {
  const std::vector<Message> messages = {
      Handshake{kProtocolVersion, 12345, {true, "off", "The process is bound to a single NUMA node", "", "-Xms0 -XX:-UseNUMA"}},
      PlanMessage{sample_plan()},
      IterationStarted{IterationKind::warmup, 2},
      IterationFinished{IterationResult{}},
      IterationFailed{IterationKind::measurement, 4, Failure{FailureKind::exception, "what", "std::logic_error", 0, 0, {}, {}}},
      BenchmarkError{Failure{FailureKind::other, "benchmark not found", "", 0, 0, {}, {}}},
      Finish{},
      Pinned{Pinning{"cores", {{0, 2, 1, 0, 0, "P"}, {1, 5, 3, 1, -1, ""}}, "0-7", "0,4", {"a note"}}},
  };
  FrameDecoder decoder;
  std::string stream;
  for (const auto& m : messages) stream += encode_message(m);
  // Feed one byte at a time: frames come out whole, in order.
  std::vector<Message> out;
  for (char c : stream) {
    decoder.feed(std::string_view(&c, 1));
    while (auto frame = decoder.next()) out.push_back(decode_message(*frame));
  }
  CHECK(decoder.pending() == 0);
  REQUIRE(out.size() == messages.size());
  for (std::size_t i = 0; i < out.size(); ++i) CHECK(out[i].index() == messages[i].index());
  CHECK(std::get<Handshake>(out[0]).pid == 12345);
  CHECK(std::get<Handshake>(out[0]).allocator == std::get<Handshake>(messages[0]).allocator);
  CHECK(std::get<PlanMessage>(out[1]).plan.benchmark == "TAB.separate");
  CHECK(std::get<IterationStarted>(out[2]).index == 2);
  CHECK(std::get<IterationFailed>(out[4]).failure.exception_type == "std::logic_error");
  CHECK(std::get<BenchmarkError>(out[5]).failure.message == "benchmark not found");
  CHECK(std::get<Pinned>(out[7]).pinning == std::get<Pinned>(messages[7]).pinning);
}

TEST_CASE("fork messages: a handshake of protocol version 1 decodes, so the host refuses it by its version") {
  ByteWriter w;
  w.put_u32(1);
  w.put_i64(42);
  const Message m = decode_message(Frame{FrameType::handshake, w.bytes()});
  CHECK(std::get<Handshake>(m).version == 1);
  CHECK_FALSE(std::get<Handshake>(m).allocator.known);
}
