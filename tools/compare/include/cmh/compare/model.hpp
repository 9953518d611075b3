// SPDX-License-Identifier: MIT
// The result-file model (tools/results) under the names cmh-compare's code uses; its
// old home was this file, so compare's sources include "model.hpp" as before.
#pragma once

#include <cmh/results/model.hpp>

namespace cmh::compare {

using results::InputError;
using results::is_exact_metric;
using results::is_higher_better;
using results::is_icount_metric;
using results::merge_result_files;
using results::Metric;
using results::metric_key;
using results::parse_result_text;
using results::read_result_file;
using results::Record;
using results::ResultFile;
using results::Summary;

}  // namespace cmh::compare
