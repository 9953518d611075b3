// SPDX-License-Identifier: MIT
// -rf text: the summary table exactly as the console prints it at the end of a
// run (JMH's TextResultFormat), which the report part owns.
#include "formats/renderers.hpp"
#include "report/summary_table.hpp"

namespace cmh::formats {

std::string render_text(const RunResults& results) { return report::summary_table(results); }

}  // namespace cmh::formats
