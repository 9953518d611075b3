// SPDX-License-Identifier: MIT
// Shared spellings of the result formats (see labels.hpp).
#include "formats/labels.hpp"

#include <array>
#include <utility>

namespace cmh::formats {

std::string jmh_time_value(Nanos time) {
  static constexpr std::array<std::pair<long long, std::string_view>, 7> kUnits = {{
      {86'400'000'000'000LL, "day"},
      {3'600'000'000'000LL, "hr"},
      {60'000'000'000LL, "min"},
      {1'000'000'000LL, "s"},
      {1'000'000LL, "ms"},
      {1'000LL, "us"},
      {1LL, "ns"},
  }};
  const long long ns = time.count();
  if (ns == 0) return "0 s";
  for (const auto& [size, label] : kUnits)
    if (ns % size == 0) return std::to_string(ns / size) + " " + std::string(label);
  return std::to_string(ns) + " ns";
}

std::string_view failure_kind_name(FailureKind kind) {
  switch (kind) {
    case FailureKind::exception: return "exception";
    case FailureKind::signal: return "signal";
    case FailureKind::exited_early: return "exited_early";
    case FailureKind::timeout: return "timeout";
    case FailureKind::startup_timeout: return "startup_timeout";
    case FailureKind::stray_threads: return "stray_threads";
    case FailureKind::out_of_memory: return "out_of_memory";
    case FailureKind::protocol: return "protocol";
    case FailureKind::spawn: return "spawn";
    case FailureKind::interrupted: return "interrupted";
    case FailureKind::other: return "other";
  }
  return "other";
}

std::string primary_unit_of(const stats::AggregatedBenchmark& agg, const BenchmarkParams& params) {
  if (!agg.primary.unit.empty()) return agg.primary.unit;
  return primary_unit(params.mode, params.time_unit);
}

}  // namespace cmh::formats
