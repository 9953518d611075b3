// SPDX-License-Identifier: MIT
// -rf / -rff: which formats, which files, and the writers the host calls after
// every completed benchmark. File names: cmh-result.<ext> by default; with
// several formats and an explicit -rff, one file per format, <stem>.<ext>, where
// <stem> is -rff without a known extension (-rff out/run.json with -rf json,gbench
// gives out/run.json and out/run.gbench.json).
#include "formats/result_format.hpp"

#include <cmh/common/atomic_file.hpp>
#include "formats/machine_info.hpp"
#include "formats/renderers.hpp"

#include <algorithm>
#include <array>

namespace cmh::formats {
namespace {

enum class Format { text, csv, scsv, json, latex, gbench, html };

struct FormatSpec {
  Format format;
  std::string_view name;
  std::string_view extension;
};

// In the order -lrf lists them (JMH's order, then cmh's own).
constexpr std::array<FormatSpec, 7> kFormats = {{
    {Format::text, "text", "txt"},
    {Format::csv, "csv", "csv"},
    {Format::scsv, "scsv", "scsv"},
    {Format::json, "json", "json"},
    {Format::latex, "latex", "tex"},
    {Format::gbench, "gbench", "gbench.json"},
    {Format::html, "html", "html"},
}};

constexpr std::string_view kDefaultStem = "cmh-result";

std::string lowercase(std::string_view s) {
  std::string out(s);
  for (auto& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string format_names() {
  std::string names;
  for (const auto& spec : kFormats) names += (names.empty() ? "" : ", ") + std::string(spec.name);
  return names;
}

bool ends_with_extension(std::string_view file, std::string_view extension) {
  return file.size() > extension.size() + 1 && file.substr(file.size() - extension.size()) == extension &&
         file[file.size() - extension.size() - 1] == '.';
}

/// The known extension `file` ends in, longest first ("x.gbench.json" is gbench, not json).
const FormatSpec* spec_by_extension(std::string_view file) {
  const FormatSpec* best = nullptr;
  for (const auto& spec : kFormats)
    if (ends_with_extension(file, spec.extension) && (best == nullptr || spec.extension.size() > best->extension.size()))
      best = &spec;
  return best;
}

std::vector<const FormatSpec*> parse_formats(std::string_view formats, std::string_view file) {
  std::vector<const FormatSpec*> specs;
  if (trim(formats).empty()) {
    // -rff alone: the file's extension says which format, else JMH's default, CSV.
    const FormatSpec* by_ext = spec_by_extension(file);
    specs.push_back(by_ext != nullptr ? by_ext : &kFormats[1]);
    return specs;
  }
  std::size_t start = 0;
  while (start <= formats.size()) {
    std::size_t comma = formats.find(',', start);
    if (comma == std::string_view::npos) comma = formats.size();
    const std::string token = lowercase(trim(formats.substr(start, comma - start)));
    const auto it = std::find_if(kFormats.begin(), kFormats.end(), [&](const FormatSpec& s) { return s.name == token; });
    if (it == kFormats.end())
      throw FormatError("unknown result format '" + token + "' (available formats: " + format_names() + ")");
    if (std::find(specs.begin(), specs.end(), &*it) == specs.end()) specs.push_back(&*it);
    start = comma + 1;
  }
  return specs;
}

std::string path_for(const FormatSpec& spec, std::string_view file, std::size_t format_count) {
  if (file.empty()) return std::string(kDefaultStem) + "." + std::string(spec.extension);
  if (format_count == 1) return std::string(file);
  std::string stem(file);
  if (const FormatSpec* known = spec_by_extension(file)) stem.resize(stem.size() - known->extension.size() - 1);
  return stem + "." + std::string(spec.extension);
}

class FileWriter final : public ResultWriter {
 public:
  FileWriter(Format format, std::string shown_path, std::string target)
      : format_(format), shown_path_(std::move(shown_path)), target_(std::move(target)) {
    if (format_ == Format::gbench) machine_ = collect_machine_info();
  }

  void write(const RunResults& results, const model::RunContext& ctx) override {
    write_atomically(target_, render(results, ctx));
  }

  const std::string& path() const override { return shown_path_; }
  const std::string& target() const override { return target_; }
  bool in_place() const override { return written_in_place(target_); }

 private:
  std::string render(const RunResults& results, const model::RunContext& ctx) const {
    switch (format_) {
      case Format::text: return render_text(results);
      case Format::csv: return render_xsv(results, ',');
      case Format::scsv: return render_xsv(results, ';');
      case Format::json: return render_jmh_json(results, ctx);
      case Format::latex: return render_latex(results);
      case Format::gbench: return render_gbench_json(results, ctx, machine_);
      case Format::html: return render_html(results, ctx);
    }
    return {};
  }

  Format format_;
  std::string shown_path_;  ///< as the user gave it (or derived), for "results saved to ..."
  std::string target_;      ///< symlinks resolved, what is actually replaced
  MachineInfo machine_;
};

}  // namespace

std::vector<std::unique_ptr<ResultWriter>> make_writers(std::string_view formats, std::string_view file) {
  const auto specs = parse_formats(formats, file);
  std::vector<std::unique_ptr<ResultWriter>> writers;
  for (const FormatSpec* spec : specs) {
    std::string path = path_for(*spec, file, specs.size());
    std::string target = check_writable(path);
    writers.push_back(std::make_unique<FileWriter>(spec->format, std::move(path), std::move(target)));
  }
  return writers;
}

std::string list_formats() { return "Available formats: " + format_names(); }

}  // namespace cmh::formats
