// SPDX-License-Identifier: MIT
// cmh-system tune: plan the writes of every knob that differs, check they can all
// be made (else one line naming what needs root, and nothing changes), save the
// files' current bytes to the state file, then write. A state file left by an
// earlier tune is kept: only files it does not hold yet are added, so reset
// always goes back to the machine as it was before the first tune.
#include <cerrno>
#include <map>
#include <ostream>
#include <system_error>

#include "machine/knob_parts.hpp"
#include <cmh/machine/knobs.hpp>
#include "tool/commands.hpp"
#include "tool/state_file.hpp"

namespace cmh::system {

namespace {

struct PlannedWrite {
  const machine::Knob* knob;
  machine::KnobWrite write;
};

/// True when a file's content already says `value` (a plain value, or the selected
/// word of a choice file).
bool already(const std::string& content, const std::string& value) {
  return machine::first_line(content) == value || machine::parts::selected_word(content) == value;
}

std::string quoted(const std::string& content) { return "'" + machine::first_line(content) + "'"; }

/// Per knob: what the writes did.
struct KnobOutcome {
  int written = 0, already_set = 0, refused = 0;
  std::string before;
};

void print_planned_writes(const std::vector<PlannedWrite>& plan, const machine::SysTree& tree,
                          const std::optional<State>& existing, const Options& o, std::ostream& out) {
  for (const auto& p : plan) {
    const machine::FileRead now = tree.read(p.write.path);
    out << "would write '" << p.write.value << "' to " << tree.at(p.write.path).string() << " (now "
        << (now.content ? quoted(*now.content) : now.reason()) << ")"
        << (tree.check_writable(p.write.path) != 0 ? " [needs root]" : "") << "\n";
  }
  out << "Dry run: nothing was changed; tune would "
      << (existing ? "keep the state file " + o.state_file.string() + " of " + existing->created + " and add to it"
                   : "save the previous values to " + o.state_file.string())
      << ".\n";
}

/// All or nothing: the line for a normal user, who gets an untouched machine, when a
/// write needs root.
std::optional<std::string> needs_root(const std::vector<PlannedWrite>& plan, const machine::SysTree& tree) {
  std::vector<std::string> denied;
  std::string first_denied;
  for (const auto& p : plan) {
    const int error = tree.check_writable(p.write.path);
    if (error == 0) continue;
    if (first_denied.empty()) first_denied = tree.at(p.write.path).string() + ": " + machine::errno_text(error);
    if (denied.empty() || denied.back() != p.knob->name) denied.push_back(p.knob->name);
  }
  if (denied.empty()) return std::nullopt;
  std::string names;
  for (const auto& n : denied) names += (names.empty() ? "" : ", ") + n;
  return "setting " + names + " needs root (" + first_denied + ")";
}

/// The planned files' current bytes into the state file, beside what an earlier tune
/// saved; false (having said why) when it cannot be written.
bool save_state(const std::vector<PlannedWrite>& plan, const machine::SysTree& tree,
                const std::optional<State>& existing, const Options& o, std::ostream& out, std::ostream& err) {
  State state = existing.value_or(State{now_iso8601(), o.root.string(), {}});
  const std::size_t saved_before = state.files.size();
  for (const auto& p : plan) {
    if (state.find(p.write.path) != nullptr) continue;
    const machine::FileRead r = tree.read(p.write.path);
    if (!r.content) continue;  // reported later, as the write fails the same way
    state.files.push_back({p.write.path, p.knob->id, *r.content});
  }
  try {
    write_state(o.state_file, state);
  } catch (const StateError& e) {
    err << "cmh-system tune: " << e.what() << "; nothing was changed\n";
    return false;
  }
  if (existing)
    out << "Keeping the state saved at " << existing->created << " (" << saved_before << " files); "
        << state.files.size() - saved_before << " more saved.\n";
  else
    out << "Saved " << state.files.size() << " files to " << o.state_file.string() << ".\n";
  return true;
}

/// Makes the planned writes; what each knob's writes did, and the writes that failed.
std::map<std::string, KnobOutcome> write_plan(const std::vector<PlannedWrite>& plan, const machine::SysTree& tree,
                                              std::vector<std::string>& failures) {
  std::map<std::string, KnobOutcome> outcome;
  for (const auto& p : plan) {
    KnobOutcome& result = outcome[p.knob->id];
    result.before = p.knob->current;
    const machine::FileRead now = tree.read(p.write.path);
    if (now.content && already(*now.content, p.write.value)) {
      ++result.already_set;  // an earlier write set it too (the governor resets the EPP)
      continue;
    }
    const int error = tree.write(p.write.path, p.write.value);
    if (error == 0) {
      ++result.written;
    } else if (error == EIO && p.write.path.rfind("/proc/irq/", 0) == 0) {
      ++result.refused;  // per-CPU and kernel-managed interrupts stay where they are
    } else {
      failures.push_back(tree.at(p.write.path).string() + ": " + machine::errno_text(error));
    }
  }
  return outcome;
}

}  // namespace

int run_tune(const Options& o, std::ostream& out, std::ostream& err) {
  const machine::SysTree tree(o.root);
  const auto knobs = machine::read_knobs(tree, {o.cpus});
  std::vector<PlannedWrite> plan;
  for (const auto& k : knobs)
    if (k.status == machine::KnobStatus::differs)
      for (const auto& w : k.writes) plan.push_back({&k, w});

  std::optional<State> existing;
  std::error_code ec;
  if (std::filesystem::exists(o.state_file, ec)) {
    try {
      existing = read_state(o.state_file);
    } catch (const StateError& e) {
      err << "cmh-system tune: " << e.what() << ": fix or remove it; nothing was changed\n";
      return 2;  // bad input
    }
  }

  for (const auto& k : knobs)
    if (k.status == machine::KnobStatus::differs && k.writes.empty())
      out << "left alone: " << k.name << " (" << k.current << ")" << (k.advice.empty() ? "" : ": " + k.advice) << "\n";
  if (plan.empty()) {
    out << "Nothing to tune: every knob tune can set is already as a benchmark wants.\n";
    return 0;
  }

  if (o.dry_run) {
    print_planned_writes(plan, tree, existing, o, out);
    return 0;
  }
  if (auto problem = needs_root(plan, tree)) {
    err << "cmh-system tune: " << *problem << "; nothing was changed\n";
    return 1;
  }
  if (!save_state(plan, tree, existing, o, out, err)) return 1;

  std::vector<std::string> failures;
  const std::map<std::string, KnobOutcome> outcome = write_plan(plan, tree, failures);
  for (const auto& k : knobs) {
    const auto it = outcome.find(k.id);
    if (it == outcome.end()) continue;
    const KnobOutcome& r = it->second;
    out << "set " << k.name << ": " << r.before << " -> " << k.wanted << " (" << r.written << " written";
    if (r.already_set > 0) out << ", " << r.already_set << " already set";
    if (r.refused > 0) out << ", " << r.refused << " refused by the kernel";
    out << ")\n";
  }
  for (const auto& f : failures) err << "cmh-system tune: could not write " << f << "\n";
  out << "cmh-system reset puts every saved file back.\n";
  return failures.empty() ? 0 : 1;
}

}  // namespace cmh::system
