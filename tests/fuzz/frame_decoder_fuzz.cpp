// SPDX-License-Identifier: MIT
// libFuzzer target for the fork channel's decoder: arbitrary bytes, fed in
// arbitrary chunks, must only ever yield frames or a ProtocolError — no crash,
// no sanitizer report, no unbounded allocation. Every frame that decodes must
// re-encode to exactly the same bytes (the encoding is canonical), which checks
// the decoders against the encoders on inputs nobody thought of.
//
// Built from the decoder sources alone (wire, codec, frames, messages) by
// tests/fuzz/run_fuzz.py. With CMH_FUZZ_SEED_DIR set it first writes one valid
// frame of every type there, as the seed corpus.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

#include "wire/messages.hpp"

using namespace cmh;
using namespace cmh::forking;

namespace {

void write_seed(const std::string& dir, int n, const std::string& bytes) {
  std::ofstream(dir + "/seed-" + std::to_string(n), std::ios::binary) << bytes;
}

void write_seeds(const std::string& dir) {
  BenchmarkParams plan;
  plan.benchmark = "TAB.inline";
  plan.group = "TAB";
  plan.name = "inline";
  plan.thread_groups = {1, 2};
  plan.group_members = {"a", "b"};
  plan.fork_args = {"-Xmx1g", "--membind=0"};
  plan.params = {{"size", "64"}};
  plan.profilers = {"alloc"};
  IterationResult result;
  result.primary = {"TAB.inline", 1.5, "ops/s", AggregationPolicy::average};
  result.threads = {{0, 10, 20}};
  result.samples.emplace();
  result.samples->record(5, 3);
  result.samples->record(100000, 2);
  result.secondaries = {{"alloc.rate.norm", 0, "B/op", AggregationPolicy::average, "note"}};
  Failure failure{FailureKind::exception, "boom", "std::runtime_error", 0, 0, {"out"}, {"err"}};
  int n = 0;
  write_seed(dir, n++, encode_message(Handshake{kProtocolVersion, 4242, {}}));
  write_seed(dir, n++, encode_message(PlanMessage{plan}));
  write_seed(dir, n++, encode_message(IterationStarted{IterationKind::warmup, 1}));
  write_seed(dir, n++, encode_message(IterationFinished{result}));
  write_seed(dir, n++, encode_message(IterationFailed{IterationKind::measurement, 2, failure}));
  write_seed(dir, n++, encode_message(BenchmarkError{failure}));
  write_seed(dir, n++, encode_message(Finish{}));
  write_seed(dir, n++,
             encode_message(IterationStarted{}) + encode_message(IterationFinished{result}) +
                 encode_message(Finish{}));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* dir = std::getenv("CMH_FUZZ_SEED_DIR")) write_seeds(dir);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte picks the chunk size, so frames are split across feeds the way reads split them.
  const std::size_t chunk = 1 + data[0] % 64;
  const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
  FrameDecoder decoder;
  try {
    for (std::size_t pos = 0; pos < input.size(); pos += chunk) {
      decoder.feed(input.substr(pos, chunk));
      while (auto frame = decoder.next()) {
        const Message message = decode_message(*frame);
        const std::string again = encode_message(message);
        const std::string original = encode_frame(frame->type, frame->payload);
        if (again != original) {
          std::fprintf(stderr, "re-encoding a decoded %s frame changed its bytes\n",
                       frame_type_name(frame->type));
          std::abort();
        }
      }
    }
  } catch (const ProtocolError&) {
    // The expected outcome for malformed input.
  }
  return 0;
}
