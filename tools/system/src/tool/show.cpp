// SPDX-License-Identifier: MIT
// cmh-system show: every knob, grouped by section, with its state, current value,
// wanted value and why it matters; then one summary line.
#include <ostream>
#include <sstream>
#include <system_error>

#include <cmh/machine/cpu_list.hpp>
#include <cmh/machine/knobs.hpp>
#include <cmh/machine/topology.hpp>
#include "tool/commands.hpp"
#include "tool/state_file.hpp"

namespace cmh::system {

namespace {

constexpr std::size_t kWidth = 100;
constexpr const char* kIndent = "           ";

const char* status_label(machine::KnobStatus s) {
  switch (s) {
    case machine::KnobStatus::ok: return "ok     ";
    case machine::KnobStatus::differs: return "DIFFERS";
    case machine::KnobStatus::unknown: return "UNKNOWN";
    case machine::KnobStatus::info: return "info   ";
  }
  return "";
}

/// `label` and `text` wrapped at kWidth, continuation lines under the text.
std::string wrapped(const std::string& label, const std::string& text) {
  std::string out = kIndent + label;
  std::size_t column = out.size();
  const std::string hang(column, ' ');
  std::istringstream words(text);
  bool first = true;
  for (std::string w; words >> w;) {
    if (!first && column + 1 + w.size() > kWidth) {
      out += "\n" + hang;
      column = hang.size();
    } else if (!first) {
      out += ' ';
      ++column;
    }
    out += w;
    column += w.size();
    first = false;
  }
  return out + "\n";
}

void print_knob(std::ostream& out, const machine::Knob& k) {
  out << "  " << status_label(k.status) << "  " << k.name << ": " << k.current << "\n";
  if (k.status == machine::KnobStatus::unknown) out << wrapped("unknown because: ", k.unknown_reason);
  std::string wanted = k.wanted;
  if (k.status == machine::KnobStatus::differs && !k.writes.empty())
    wanted += " (tune sets it: " + std::to_string(k.writes.size()) + (k.writes.size() == 1 ? " file)" : " files)");
  out << wrapped("wanted: ", wanted);
  if (!k.advice.empty()) out << wrapped("instead: ", k.advice);
  out << wrapped("why: ", k.why);
}

}  // namespace

int run_show(const Options& options, std::ostream& out) {
  const machine::SysTree tree(options.root);
  const machine::Topology topo = machine::read_topology(tree);
  const auto knobs = machine::read_knobs(tree, {options.cpus});

  out << "cmh-system show: " << topo.cpus.size() << " online CPUs (" << machine::format_cpu_list(topo.ids()) << ")";
  if (tree.is_live()) out << ", this process may run on " << machine::format_cpu_list(machine::thread_affinity());
  if (!tree.is_live()) out << ", root " << options.root.string();
  out << "\n";
  std::error_code ec;
  if (std::filesystem::exists(options.state_file, ec)) {
    try {
      const State state = read_state(options.state_file);
      out << "Tuned by cmh-system tune at " << state.created << ": " << state.files.size()
          << " files saved in " << options.state_file.string() << "; cmh-system reset puts them back.\n";
    } catch (const StateError& e) {
      out << "A state file exists but " << e.what() << ".\n";
    }
  } else {
    out << "Not tuned by cmh-system (no state file " << options.state_file.string() << ").\n";
  }

  std::string section;
  int ok = 0, differs = 0, settable = 0, unknown = 0, info = 0;
  for (const auto& k : knobs) {
    if (k.section != section) {
      section = k.section;
      out << "\n" << section << "\n";
    }
    print_knob(out, k);
    switch (k.status) {
      case machine::KnobStatus::ok: ++ok; break;
      case machine::KnobStatus::differs:
        ++differs;
        if (!k.writes.empty()) ++settable;
        break;
      case machine::KnobStatus::unknown: ++unknown; break;
      case machine::KnobStatus::info: ++info; break;
    }
  }
  out << "\n" << ok << " as wanted, " << differs << " differ (tune sets " << settable << " of them, as root), "
      << unknown << " unknown, " << info << " shown only.\n";
  return 0;
}

}  // namespace cmh::system
