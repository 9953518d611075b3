// SPDX-License-Identifier: MIT
#include "host/sharding.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <string>

namespace cmh::host {

namespace {

/// Starting a fork (exec, handshake, the allocator's setup): a fixed estimate, so that
/// many short runs in many forks weigh what they cost.
constexpr Nanos kForkStart = std::chrono::milliseconds(50);
/// A single-shot iteration has no time budget: count it as this.
constexpr Nanos kSingleShotCall = std::chrono::milliseconds(1);

}  // namespace

std::optional<cli::Shard> requested_shard(const cli::CommandLine& cl) {
  if (cl.shard) return cl.shard;
  const char* index = std::getenv("CMH_SHARD_INDEX");
  const char* total = std::getenv("CMH_TOTAL_SHARDS");
  if (index == nullptr && total == nullptr) return std::nullopt;
  if (index == nullptr || total == nullptr)
    throw cli::CommandLineError(
        fmt::format("{} is set but {} is not: set both or neither", index ? "CMH_SHARD_INDEX" : "CMH_TOTAL_SHARDS",
                    index ? "CMH_TOTAL_SHARDS" : "CMH_SHARD_INDEX"));
  return cli::parse_shard(std::string(index) + "/" + total, "CMH_SHARD_INDEX/CMH_TOTAL_SHARDS");
}

Nanos expected_time(const BenchmarkParams& p) {
  const bool single_shot = p.mode == BenchmarkMode::single_shot;
  const auto iterations = [&](const IterationParams& it) {
    return single_shot ? kSingleShotCall * it.count : it.time * it.count;
  };
  Nanos per_fork = kForkStart + iterations(p.warmup) + iterations(p.measurement);
  if (p.precision > 0) per_fork = std::max(per_fork, p.precision_budget);
  const int forks = std::max(p.forks, 1) + p.warmup_forks;
  return per_fork * forks;
}

std::vector<int> shard_assignment(const std::vector<Nanos>& expected, int total) {
  std::vector<std::size_t> order(expected.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return expected[a] > expected[b]; });
  std::vector<Nanos> load(static_cast<std::size_t>(total), Nanos{0});
  std::vector<int> part(expected.size(), 0);
  for (const std::size_t i : order) {
    const auto lightest = std::min_element(load.begin(), load.end());  // the first of equals
    part[i] = static_cast<int>(lightest - load.begin());
    *lightest += expected[i];
  }
  return part;
}

std::vector<PlannedRun> shard_runs(const std::vector<PlannedRun>& runs, cli::Shard shard) {
  std::vector<Nanos> expected;
  for (const auto& r : runs) expected.push_back(expected_time(r.params));
  const auto part = shard_assignment(expected, shard.total);
  std::vector<PlannedRun> mine;
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (part[i] == shard.index) mine.push_back(runs[i]);
  return mine;
}

}  // namespace cmh::host
