// SPDX-License-Identifier: MIT
// Writing comparisons: a text table for the terminal, Markdown for a pull-request
// comment, JSON for machines.
#pragma once

#include <cmh/compare/comparison.hpp>

#include <string>
#include <vector>

namespace cmh::compare {

enum class OutputFormat { text, markdown, json };

std::string render(const std::vector<Comparison>& pairs, OutputFormat format, const CompareOptions& options);

}  // namespace cmh::compare
