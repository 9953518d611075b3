// SPDX-License-Identifier: MIT
// Binary encoding of the results model for the fork channel: BenchmarkParams
// (the plan), IterationResult (with secondaries and the sample histogram),
// Failure, ScalarResult and the fork's AllocatorState. Each decode validates
// enums, counts and histogram buckets, and throws ProtocolError on anything that
// is not a valid encoding.
#pragma once

#include <cmh/histogram.hpp>
#include <cmh/params.hpp>
#include <cmh/result.hpp>

#include "wire/bytes.hpp"

namespace cmh::forking {

void encode(ByteWriter& w, const ScalarResult& v);
void encode(ByteWriter& w, const IterationParams& v);
void encode(ByteWriter& w, const BenchmarkParams& v);
void encode(ByteWriter& w, const ThreadMeasurement& v);
void encode(ByteWriter& w, const SampleHistogram& v);
void encode(ByteWriter& w, const IterationResult& v);
void encode(ByteWriter& w, const Failure& v);
void encode(ByteWriter& w, const AllocatorState& v);
void encode(ByteWriter& w, const Pinning& v);

void decode(ByteReader& r, ScalarResult& v);
void decode(ByteReader& r, IterationParams& v);
void decode(ByteReader& r, BenchmarkParams& v);
void decode(ByteReader& r, ThreadMeasurement& v);
void decode(ByteReader& r, SampleHistogram& v);
void decode(ByteReader& r, IterationResult& v);
void decode(ByteReader& r, Failure& v);
void decode(ByteReader& r, AllocatorState& v);
void decode(ByteReader& r, Pinning& v);

}  // namespace cmh::forking
