// SPDX-License-Identifier: MIT
// robust_estimate_json(): see robust_json.hpp.
#include "formats/robust_json.hpp"

#include <cmh/detail/subwindow_log.hpp>

#include <cmath>

namespace cmh::formats {

nlohmann::ordered_json robust_estimate_json(const stats::RobustEstimate& r, const std::string& unit) {
  using Json = nlohmann::ordered_json;
  Json j = Json::object();
  j["score"] = r.score;
  j["interval"] = Json::array({r.low, r.high});
  j["confidence"] = r.confidence;
  j["scoreUnit"] = unit;
  j["method"] = stats::json_name(r.method);
  j["methodText"] = stats::describe(r.method);
  j["clusters"] = r.clusters;
  j["clusteredBy"] = r.by_fork ? "fork" : "iteration";
  j["clusterSpread"] = r.cluster_spread;
  j["stallShare"] = r.stall_share;
  if (!r.note.empty()) j["note"] = r.note;
  const auto& e = r.evidence;
  Json ev = Json::object();
  ev["iterations"] = e.iterations;
  ev["iterationsUsed"] = e.iterations_used;
  ev["cleanIterations"] = e.clean_iterations;
  ev["subwindows"] = e.subwindows;
  ev["rejectedSubwindows"] = e.rejected;
  ev["correctedSubwindows"] = e.corrected;
  ev["subwindowLengthNs"] = e.length_ns;
  switch (static_cast<detail::WindowEvidence>(e.window_evidence)) {
    case detail::WindowEvidence::rseq: ev["windowEvidence"] = "rseq"; break;
    case detail::WindowEvidence::getrusage: ev["windowEvidence"] = "getrusage"; break;
    case detail::WindowEvidence::none: ev["windowEvidence"] = nullptr; break;
  }
  ev["disturbedIterations"] = e.disturbed;
  ev["measuredIterations"] = e.measured;
  ev["likelyInflated"] = e.likely_inflated;
  ev["blocking"] = e.blocking;
  j["evidence"] = std::move(ev);
  Json raw = Json::array();
  for (const auto& fork : r.raw_by_fork) raw.push_back(Json(fork));
  j["rawData"] = std::move(raw);
  return j;
}

}  // namespace cmh::formats
