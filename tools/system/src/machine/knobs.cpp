// SPDX-License-Identifier: MIT
// read_knobs() and the helpers the readers share (knob_parts.hpp).
#include <cmh/machine/knobs.hpp>

#include <algorithm>
#include <sstream>

#include <cmh/machine/cpu_list.hpp>
#include "machine/knob_parts.hpp"

namespace cmh::machine {

namespace parts {

std::string cpu_path(int cpu, const std::string& rest) {
  return std::string(kCpuDir) + "/cpu" + std::to_string(cpu) + "/" + rest;
}

std::string describe(const PerCpu& values) {
  if (values.size() == 1) return values.begin()->first;
  std::string out;
  for (const auto& [value, cpus] : values)
    out += (out.empty() ? "" : "; ") + value + " on " + format_cpu_list(cpus);
  return out;
}

std::string selected_word(const std::string& text) {
  const auto open = text.find('[');
  const auto close = text.find(']', open == std::string::npos ? 0 : open);
  if (open != std::string::npos && close != std::string::npos) return text.substr(open + 1, close - open - 1);
  return first_line(text);
}

bool lists_word(const std::string& list, const std::string& word) {
  std::istringstream in(list);
  for (std::string w; in >> w;) {
    if (!w.empty() && w.front() == '[') w.erase(0, 1);
    if (!w.empty() && w.back() == ']') w.pop_back();
    if (w == word) return true;
  }
  return false;
}

Knob make_knob(std::string section, std::string id, std::string name, std::string wanted, std::string why) {
  Knob k;
  k.section = std::move(section);
  k.id = std::move(id);
  k.name = std::move(name);
  k.wanted = std::move(wanted);
  k.why = std::move(why);
  return k;
}

void set_unknown(Knob& k, std::string reason) {
  k.status = KnobStatus::unknown;
  k.current = "unknown";
  k.value = "unknown";
  k.unknown_reason = std::move(reason);
  k.writes.clear();
}

void set_reading(Knob& k, std::string current, std::string value, bool ok) {
  k.current = std::move(current);
  k.value = std::move(value);
  k.status = ok ? KnobStatus::ok : KnobStatus::differs;
}

}  // namespace parts

std::vector<Knob> read_knobs(const SysTree& tree, const KnobOptions& options) {
  std::vector<Knob> knobs;
  add_cpu_knobs(tree, options, knobs);
  add_kernel_knobs(tree, knobs);
  add_machine_knobs(tree, knobs);
  // A knob already as wanted has nothing to write.
  for (auto& k : knobs)
    if (k.status != KnobStatus::differs) k.writes.clear();
  return knobs;
}

const Knob* find_knob(const std::vector<Knob>& knobs, const std::string& id) {
  const auto it = std::find_if(knobs.begin(), knobs.end(), [&](const Knob& k) { return k.id == id; });
  return it == knobs.end() ? nullptr : &*it;
}

}  // namespace cmh::machine
