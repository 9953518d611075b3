// SPDX-License-Identifier: MIT
// cmh-compare: exit 0 when no regression passes a threshold, 1 when one does, and 2
// with one line on stderr for bad input (a missing, empty, truncated or foreign file,
// a bad option).
#include "command_line.hpp"
#include "flame_diff.hpp"
#include "html.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>

int main(int argc, char** argv) {
  using namespace cmh::compare;
  try {
    const CommandLine cl = parse_command_line(std::vector<std::string>(argv + 1, argv + argc));
    if (cl.help) {
      std::cout << kUsage;
      return 0;
    }
    std::vector<ResultFile> files;
    for (const auto& f : cl.files) files.push_back(read_result_file(f));
    for (const auto* side : {&cl.base_side, &cl.new_side}) {  // --base F... --new F...: one run per side
      std::vector<ResultFile> parts;
      for (const auto& f : *side) parts.push_back(read_result_file(f));
      if (!parts.empty()) files.push_back(merge_result_files(parts));
    }
    std::vector<Comparison> pairs;
    if (!cl.baseline.empty()) {
      pairs.push_back(compare_within(files[0], cl.baseline, cl.options));
    } else {
      for (std::size_t i = 1; i < files.size(); ++i) pairs.push_back(compare_files(files[0], files[i], cl.options));
    }
    bool matched = false;
    for (const auto& p : pairs) matched = matched || !p.benchmarks.empty();
    if (!matched) throw InputError("no benchmark matches between the files (names, modes and parameters differ)");
    std::string out = render(pairs, cl.format, cl.options);
    std::vector<FlameDiff> flames;
    if (!cl.flame.empty()) {
      flames = diff_flame_dirs(cl.flame[0], cl.flame[1], cl.flame_out, cl.options.alpha);
      if (cl.format == OutputFormat::text) out += "\n" + flame_diff_text(flames);
    }
    if (cl.output.empty()) {
      std::cout << out << std::flush;
    } else {
      std::ofstream f(cl.output, std::ios::binary);
      f << out;
      f.close();
      if (!f) throw InputError(cl.output + ": cannot write");
    }
    if (!cl.html.empty()) {
      std::ofstream f(cl.html, std::ios::binary);
      std::string page = render_html(pairs, cl.options);
      if (!flames.empty()) page.insert(page.rfind("</body>"), flame_diff_html(flames));
      f << page;
      f.close();
      if (!f) throw InputError(cl.html + ": cannot write");
    }
    bool regression = false;
    for (const auto& p : pairs) regression = regression || p.regression();
    return regression ? 1 : 0;
  } catch (const InputError& e) {
    std::cerr << "cmh-compare: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "cmh-compare: internal error: " << e.what() << "\n";
    return 2;
  }
}
