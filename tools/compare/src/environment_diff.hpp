// SPDX-License-Identifier: MIT
// cmh.environment across two result files (see environment_diff.cpp).
#pragma once

#include <string>
#include <vector>

#include <cmh/compare/model.hpp>

namespace cmh::compare {

/// One warning per cmh.environment key (Record::environment's "machine." entries) whose
/// value differs between the two files; none when either has none (older cmh, Java JMH,
/// Google Benchmark).
std::vector<std::string> environment_differences(const ResultFile& base, const ResultFile& contender);

}  // namespace cmh::compare
