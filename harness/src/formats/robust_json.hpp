// SPDX-License-Identifier: MIT
// cmh.robustEstimate in the JSON result file (stats/robust_estimate.hpp).
#pragma once

#include "stats/robust_estimate.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace cmh::formats {

/// {score, interval [low, high], confidence, scoreUnit, method, methodText, clusters,
/// clusteredBy, clusterSpread, note, evidence {...}, rawData [fork][iteration]}; the
/// numbers are in the primary score's unit and mode, NaN where there is none.
nlohmann::ordered_json robust_estimate_json(const stats::RobustEstimate& r, const std::string& unit);

}  // namespace cmh::formats
