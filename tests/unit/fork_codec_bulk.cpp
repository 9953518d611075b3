// SPDX-License-Identifier: MIT
// The fork channel's fields added for issue 30 (protocol 5): a plan's bulk warmups,
// the bulk index of iteration frames, and an iteration's label.
#include <doctest/doctest.h>

#include "fork/codec.hpp"
#include "fork/messages.hpp"

using namespace cmh;
using namespace cmh::forking;

namespace {

Message through_frame(const Message& m) {
  FrameDecoder decoder;
  decoder.feed(encode_message(m));
  auto frame = decoder.next();
  REQUIRE(frame.has_value());
  return decode_message(*frame);
}

}  // namespace

TEST_CASE("fork messages: a plan's bulk warmups cross in order") {
  PlanMessage m;
  m.plan.benchmark = "B.c";
  for (const char* name : {"X.extra", "B.a", "B.b"}) {
    BenchmarkParams p;
    p.benchmark = name;
    p.warmup = {IterationKind::warmup, 2, std::chrono::milliseconds(10), 1};
    p.measurement = {IterationKind::measurement, 0, std::chrono::milliseconds(10), 1};
    p.params = {{"size", name}};
    m.bulk_warmups.push_back(p);
  }
  const auto out = std::get<PlanMessage>(through_frame(m));
  CHECK(out.plan.benchmark == "B.c");
  REQUIRE(out.bulk_warmups.size() == 3);
  CHECK(out.bulk_warmups[1].benchmark == "B.a");
  CHECK(out.bulk_warmups[1].warmup.count == 2);
  CHECK(out.bulk_warmups[1].measurement.count == 0);
  CHECK(out.bulk_warmups[2].params == std::vector<std::pair<std::string, std::string>>{{"size", "B.b"}});
  CHECK(std::get<PlanMessage>(through_frame(PlanMessage{m.plan, {}})).bulk_warmups.empty());
}

TEST_CASE("fork messages: iteration frames carry their bulk index") {
  CHECK(std::get<IterationStarted>(through_frame(IterationStarted{IterationKind::warmup, 3, 2})).bulk == 2);
  CHECK(std::get<IterationStarted>(through_frame(IterationStarted{IterationKind::measurement, 1, -1})).bulk == -1);
  IterationFailed failed{IterationKind::warmup, 1, Failure{FailureKind::exception, "boom", "std::runtime_error", 0, 0, {}, {}}, 0};
  const auto out = std::get<IterationFailed>(through_frame(failed));
  CHECK(out.bulk == 0);
  CHECK(out.failure.message == "boom");
}

TEST_CASE("fork codec: an iteration's label is text that survives as it is") {
  IterationResult r;
  r.label = "fast \"path\", n=64 \xc3\xbc";
  ByteWriter w;
  encode(w, r);
  ByteReader reader(w.bytes());
  IterationResult out;
  decode(reader, out);
  CHECK(reader.remaining() == 0);
  CHECK(out.label == r.label);
}
