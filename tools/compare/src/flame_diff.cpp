// SPDX-License-Identifier: MIT
// cmh-compare --flame: reading two runs' stacks, the per-op differential and the
// top changes (see flame_diff.hpp).
#include "flame_diff.hpp"

#include "exact_text.hpp"
#include <cmh/common/escape.hpp>
#include <cmh/compare/model.hpp>
#include <cmh/compare/significance.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

namespace cmh::compare {
namespace {

namespace fs = std::filesystem;
constexpr const char* kSuffix = ".speedscope.json";

/// Per-fork cost per op of each node, both runs, summed along the paths.
struct DiffNode {
  std::vector<double> base, now;
  std::map<std::string, DiffNode> children;
};

void add_path(DiffNode& root, const std::vector<std::string>& frames, const std::vector<double>& per_op, bool base) {
  DiffNode* n = &root;
  auto add = [&](DiffNode& d) {
    auto& v = base ? d.base : d.now;
    if (v.size() < per_op.size()) v.resize(per_op.size(), 0.0);
    for (std::size_t f = 0; f < per_op.size(); ++f) v[f] += per_op[f];
  };
  add(*n);
  for (std::size_t i = 1; i < frames.size(); ++i) {  // frames[0] is the benchmark: the root
    n = &n->children[frames[i]];
    add(*n);
  }
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0.0 : s / static_cast<double>(v.size());
}

/// +1 / -1 when `now` differs from `base` beyond the forks' variance at `alpha`, else 0.
int significance(std::vector<double> base, std::vector<double> now, std::size_t base_forks, std::size_t new_forks,
                 double alpha, double* p_out = nullptr, bool* tested = nullptr) {
  base.resize(base_forks, 0.0);  // a fork without the frame spent nothing there
  now.resize(new_forks, 0.0);
  const auto w = welch_t_test(moments_of(base), moments_of(now));
  if (tested) *tested = w.has_value();
  if (!w) return 0;
  if (p_out) *p_out = w->p;
  if (w->p >= alpha) return 0;
  return mean(now) > mean(base) ? 1 : -1;
}

void to_flame(const DiffNode& d, const std::string& name, std::size_t base_forks, std::size_t new_forks, double alpha,
              flame::FlameNode& out) {
  out.name = name;
  out.value = mean([&] { auto v = d.now; v.resize(new_forks, 0.0); return v; }());
  out.before = mean([&] { auto v = d.base; v.resize(base_forks, 0.0); return v; }());
  out.significance = significance(d.base, d.now, base_forks, new_forks, alpha);
  for (const auto& [child, c] : d.children) to_flame(c, child, base_forks, new_forks, alpha, out.children[child]);
}

std::string per_op_text(double v) {
  if (!std::isfinite(v)) return "-";
  const double a = std::fabs(v);
  if (a >= 100) return fmt::format("{:.1f}", v);
  return a >= 1 ? fmt::format("{:.3f}", v) : fmt::format("{:.4f}", v);
}

}  // namespace

FlameRun read_flame_run(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot read");
  FlameRun run;
  run.path = path;
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    const auto& cmh = j.at("cmh");
    if (cmh.value("format", "") != "cmh-flame-1") throw InputError(path + ": not written by cmh -prof flame or perfasm");
    run.benchmark = cmh.at("benchmark").get<std::string>();
    run.event = cmh.at("event").get<std::string>();
    run.period_unit = cmh.at("periodUnit").get<std::string>();
    for (const auto& f : cmh.at("forks")) run.ops.push_back(f.at("ops").get<std::uint64_t>());
    std::vector<std::string> frames;
    for (const auto& f : j.at("shared").at("frames")) frames.push_back(f.at("name").get<std::string>());
    const auto& profiles = j.at("profiles");
    if (profiles.size() != run.ops.size()) throw InputError(path + ": the profiles and the forks' op counts differ in number");
    for (std::size_t fork = 0; fork < profiles.size(); ++fork) {
      const auto& samples = profiles[fork].at("samples");
      const auto& weights = profiles[fork].at("weights");
      if (samples.size() != weights.size()) throw InputError(path + ": samples and weights differ in number");
      for (std::size_t s = 0; s < samples.size(); ++s) {
        std::vector<std::string> stack;
        for (const auto& index : samples[s]) stack.push_back(frames.at(index.get<std::size_t>()));
        auto& per_fork = run.stacks[stack];
        per_fork.resize(profiles.size(), 0.0);
        per_fork[fork] += weights[s].get<double>();
      }
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path + ": not a cmh speedscope file (" + e.what() + ")");
  } catch (const std::out_of_range&) {
    throw InputError(path + ": a frame index is out of range");
  }
  return run;
}

FlameDiff diff_flame_runs(const FlameRun& base, const FlameRun& now, double alpha) {
  FlameDiff d;
  d.benchmark = now.benchmark;
  d.unit = now.period_unit + "/op";
  d.base_forks = base.ops.size();
  d.new_forks = now.ops.size();
  if (base.event != now.event)
    d.notes.push_back("the runs sampled different events (" + base.event + ", " + now.event + "): their costs do not compare");
  if (d.base_forks < 2 || d.new_forks < 2)
    d.notes.push_back("no colour: telling a change from fork-to-fork variance needs at least 2 forks per run (-f 2)");
  DiffNode root;
  std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> self;
  for (const auto* run : {&base, &now}) {
    const bool is_base = run == &base;
    for (const auto& [frames, periods] : run->stacks) {
      std::vector<double> per_op(periods.size(), 0.0);
      for (std::size_t f = 0; f < periods.size(); ++f)
        per_op[f] = run->ops[f] > 0 ? periods[f] / static_cast<double>(run->ops[f]) : 0.0;
      add_path(root, frames, per_op, is_base);
      auto& side = is_base ? self[frames.back()].first : self[frames.back()].second;
      side.resize(per_op.size(), 0.0);
      for (std::size_t f = 0; f < per_op.size(); ++f) side[f] += per_op[f];
    }
  }
  for (auto& [name, sides] : self) {
    FunctionChange c;
    c.name = name;
    c.base_forks = sides.first;
    c.new_forks = sides.second;
    c.base_forks.resize(d.base_forks, 0.0);
    c.new_forks.resize(d.new_forks, 0.0);
    c.base = mean(c.base_forks);
    c.now = mean(c.new_forks);
    c.significant = significance(c.base_forks, c.new_forks, d.base_forks, d.new_forks, alpha, &c.p, &c.tested) != 0;
    d.functions.push_back(std::move(c));
  }
  // Changes beyond the forks' variance first, each group by the size of the change.
  std::stable_sort(d.functions.begin(), d.functions.end(), [](const FunctionChange& a, const FunctionChange& b) {
    if (a.significant != b.significant) return a.significant;
    return std::fabs(a.now - a.base) > std::fabs(b.now - b.base);
  });
  d.page.differential = true;
  d.page.unit = d.unit;
  d.page.title = d.benchmark + " — differential flame graph";
  d.page.subtitle = fmt::format("{} ({} forks) → {} ({} forks); width = the new run's {} per frame, colour = change "
                                "beyond the forks' variance (Welch's t, alpha {})",
                                base.path, d.base_forks, now.path, d.new_forks, d.unit, alpha);
  d.page.notes = d.notes;
  to_flame(root, d.benchmark, d.base_forks, d.new_forks, alpha, d.page.root);
  return d;
}

std::vector<FlameDiff> diff_flame_dirs(const std::string& base_dir, const std::string& new_dir,
                                       const std::string& out_dir, double alpha) {
  std::error_code ec;
  if (!fs::is_directory(base_dir, ec)) throw InputError("--flame " + base_dir + ": not a directory");
  if (!fs::is_directory(new_dir, ec)) throw InputError("--flame " + new_dir + ": not a directory");
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(new_dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() > std::string(kSuffix).size() && name.ends_with(kSuffix) && fs::exists(fs::path(base_dir) / name))
      names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  if (names.empty())
    throw InputError("--flame " + base_dir + " " + new_dir + ": no <benchmark>" + kSuffix + " is in both directories");
  std::vector<FlameDiff> out;
  for (const auto& name : names) {
    FlameDiff d = diff_flame_runs(read_flame_run((fs::path(base_dir) / name).string()),
                                  read_flame_run((fs::path(new_dir) / name).string()), alpha);
    d.stem = name.substr(0, name.size() - std::string(kSuffix).size());
    fs::create_directories(out_dir, ec);
    const std::string page = (fs::path(out_dir) / (d.stem + ".diff.html")).string();
    std::ofstream f(page, std::ios::binary | std::ios::trunc);
    f << flame::flame_graph_html(d.page);
    f.close();
    if (!f) throw InputError(page + ": cannot write");
    d.page_path = page;
    out.push_back(std::move(d));
  }
  return out;
}

std::string flame_diff_text(const std::vector<FlameDiff>& diffs, std::size_t top) {
  std::string out;
  for (const auto& d : diffs) {
    out += fmt::format("Where {} changed (sampled cost per op; base {} forks, new {} forks): {}\n", d.benchmark, d.base_forks,
                       d.new_forks, d.page_path);
    for (const auto& n : d.notes) out += "  note: " + n + "\n";
    std::vector<std::vector<std::string>> rows = {
        {"Function (self)", "Base " + d.unit, "New " + d.unit, "Change", "Welch p", "Verdict"}};
    for (std::size_t i = 0; i < d.functions.size() && i < top; ++i) {
      const auto& f = d.functions[i];
      const double change = f.now - f.base;
      rows.push_back({f.name, per_op_text(f.base), per_op_text(f.now), (change >= 0 ? "+" : "") + per_op_text(change),
                      f.tested ? fmt::format("{:.3g}", f.p) : "", !f.tested ? "no test (forks < 2)"
                                                              : f.significant ? (change > 0 ? "more" : "less")
                                                                              : "within noise"});
    }
    std::vector<std::size_t> w(rows.front().size(), 0);
    auto width = [](const std::string& s) {
      std::size_t n = 0;
      for (unsigned char c : s) n += (c & 0xC0) != 0x80;
      return n;
    };
    for (const auto& r : rows)
      for (std::size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], width(r[i]));
    for (const auto& r : rows) {
      std::string line = "  ";
      for (std::size_t i = 0; i < r.size(); ++i) {
        const std::string pad(w[i] - width(r[i]), ' ');
        line += i == 0 || i + 1 == r.size() ? r[i] + pad : pad + r[i];
        if (i + 1 < r.size()) line += "  ";
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
    out += "\n";
  }
  return out;
}

std::string flame_diff_html(const std::vector<FlameDiff>& diffs, std::size_t top) {
  const auto esc = [](const std::string& s) { return formats::html_escape(s); };
  std::string h = "<h2>Where the runs differ (sampled stacks, per op)</h2>\n";
  for (const auto& d : diffs) {
    h += fmt::format("<section class=\"flamediff\" data-name=\"{}\"><h3>{}</h3><p>{}</p>", esc(d.benchmark),
                     esc(d.benchmark), esc(d.page.subtitle));
    for (const auto& n : d.notes) h += "<p class=\"warn\">" + esc(n) + "</p>";
    h += "<table class=\"flamediff\"><tr><th class=\"l\">function (self)</th><th>base " + esc(d.unit) + "</th><th>new " +
         esc(d.unit) + "</th><th>change</th><th>Welch p</th><th class=\"l\">verdict</th></tr>";
    for (std::size_t i = 0; i < d.functions.size() && i < top; ++i) {
      const auto& f = d.functions[i];
      const double change = f.now - f.base;
      const char* cls = !f.significant ? "same" : change > 0 ? "worse" : "better";
      h += fmt::format("<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td><td class=\"{}\">{}{}</td><td>{}</td>"
                       "<td class=\"l {}\">{}</td></tr>",
                       esc(f.name), per_op_text(f.base), per_op_text(f.now), cls, change >= 0 ? "+" : "",
                       per_op_text(change), f.tested ? fmt::format("{:.3g}", f.p) : "", cls,
                       !f.tested ? "no test (forks &lt; 2)" : f.significant ? (change > 0 ? "more" : "less") : "within noise");
    }
    h += "</table>\n" + flame::flame_graph_svg(d.page, 960) + "\n";
    h += "<p>Interactive page (search, zoom, before/after shape): " + esc(d.page_path) + "</p></section>\n";
  }
  return h;
}

}  // namespace cmh::compare
