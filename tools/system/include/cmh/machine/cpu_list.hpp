// SPDX-License-Identifier: MIT
// The kernel's two spellings of a CPU set: lists ("0-3,8", sysfs *_list files,
// isolcpus=) and hex masks ("ff,00000001", /proc/irq/*/smp_affinity).
//
// Hand-written because libnuma's numa_parse_cpustring checks the list against the
// running machine's CPUs, and these parse the files of any tree (--root, tests).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cmh::machine {

/// The largest CPU number accepted (the kernel's NR_CPUS ceiling is 8192).
inline constexpr int kMaxCpu = 8191;

/// "0-3,8,10-11" -> {0,1,2,3,8,10,11}, sorted and without duplicates. An empty or
/// blank text is the empty set; nullopt when the text is not a list.
std::optional<std::vector<int>> parse_cpu_list(std::string_view text);

/// Sorted, duplicate-free CPUs as "0-3,8"; runs of three or more become ranges
/// ("0,1" for a pair, as numactl's own messages print them).
std::string format_cpu_list(const std::vector<int>& cpus);

/// "ff,00000001" (32-bit words, most significant first) -> CPUs; nullopt when not hex.
std::optional<std::vector<int>> parse_cpu_mask(std::string_view text);

/// The mask of `cpus` in the kernel's spelling, with at least `words` 32-bit words
/// (so that a written mask is as wide as the one read).
std::string format_cpu_mask(const std::vector<int>& cpus, std::size_t words = 1);

/// The number of comma-separated words in a mask as read ("ff,00000001" -> 2).
std::size_t mask_words(std::string_view text);

/// Sorted set operations on sorted, duplicate-free lists.
std::vector<int> cpus_minus(const std::vector<int>& a, const std::vector<int>& b);
std::vector<int> cpus_common(const std::vector<int>& a, const std::vector<int>& b);
bool cpus_contain(const std::vector<int>& set, int cpu);

}  // namespace cmh::machine
