// SPDX-License-Identifier: MIT
// Prints a JSON document in the layout of JMH's JSONResultFormat "tidy" pass:
// 4-space indentation, one value per line, `"key" : value`, empty containers
// opened and closed on two lines, doubles as Java's Double.toString, and
// non-finite doubles as the strings "NaN", "+INF", "-INF" (JMH's convention).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace cmh::formats {

/// nlohmann's own dump() cannot produce this layout (it writes `"key": value`,
/// `{}`, shortest-form doubles such as 87.0 -> 87.0 but 7.4e-4 -> 0.00074, and
/// NaN as null), so the document is built with nlohmann and printed here.
/// Ends with a newline.
std::string tidy_json(const nlohmann::ordered_json& doc);

}  // namespace cmh::formats
