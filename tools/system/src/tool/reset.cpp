// SPDX-License-Identifier: MIT
// cmh-system reset: write every file of the state file back to its saved bytes,
// last changed first, check each reads back exactly as saved, say what was
// restored, and remove the state file only when all are.
//
// A kernel choice file ("always [madvise] never") is restored by writing its
// selected word, which makes the kernel print the saved listing again. Some
// restores only take once another has (intel_pstate refuses an EPP while the
// governor is performance), so the writes are repeated while they make progress.
#include <algorithm>
#include <map>
#include <ostream>
#include <system_error>

#include "machine/knob_parts.hpp"
#include <cmh/machine/knobs.hpp>
#include "tool/commands.hpp"
#include "tool/state_file.hpp"

namespace cmh::system {

namespace {

constexpr int kMaxPasses = 3;

std::string restore_bytes(const machine::SysTree& tree, const SavedFile& f) {
  if (f.saved.find('[') != std::string::npos && tree.is_kernel_file(f.path))
    return machine::parts::selected_word(f.saved);
  return f.saved;
}

std::string shown(const std::string& content) { return "'" + machine::first_line(content) + "'"; }

/// The knob's display name, from a fresh reading of the tree (the id if it is gone).
std::string knob_name(const std::vector<machine::Knob>& knobs, const std::string& id) {
  const machine::Knob* k = machine::find_knob(knobs, id);
  return k != nullptr ? k->name : id;
}

/// Files already holding their saved bytes need nothing; vanished ones (an IRQ or
/// a CPU that went away) have nothing to restore. The rest, in the reverse order of tune.
std::vector<const SavedFile*> files_to_restore(const State& state, const machine::SysTree& tree,
                                               std::vector<std::string>& gone) {
  std::vector<const SavedFile*> pending;
  for (const auto& f : state.files) {
    const machine::FileRead now = tree.read(f.path);
    if (!now.content && now.error == ENOENT) {
      gone.push_back(f.path);
    } else if (!now.content || *now.content != f.saved) {
      pending.push_back(&f);
    }
  }
  std::reverse(pending.begin(), pending.end());  // undo in the reverse order of tune
  return pending;
}

void print_pending_restores(const std::vector<const SavedFile*>& pending, const State& state,
                            const machine::SysTree& tree, std::ostream& out) {
  for (const SavedFile* f : pending) {
    const machine::FileRead now = tree.read(f->path);
    out << "would write back " << shown(f->saved) << " to " << tree.at(f->path).string() << " (now "
        << (now.content ? shown(*now.content) : now.reason()) << ")"
        << (tree.check_writable(f->path) != 0 ? " [needs root]" : "") << "\n";
  }
  out << "Dry run: nothing was changed; " << pending.size() << " of " << state.files.size()
      << " saved files differ from their saved content.\n";
}

struct Restored {
  std::map<std::string, std::pair<std::string, int>> by_knob;  // knob id -> (value before reset, files)
  std::map<const SavedFile*, int> last_error;
  std::vector<const SavedFile*> left;  // not restored
};

/// Writes the saved bytes back, in passes while they make progress.
Restored restore(const std::vector<const SavedFile*>& pending, const machine::SysTree& tree) {
  Restored r;
  r.left = pending;
  for (int pass = 0; pass < kMaxPasses && !r.left.empty(); ++pass) {
    std::vector<const SavedFile*> still;
    for (const SavedFile* f : r.left) {
      const machine::FileRead before = tree.read(f->path);
      const int error = tree.write(f->path, restore_bytes(tree, *f));
      const machine::FileRead after = tree.read(f->path);
      if (error == 0 && after.content && *after.content == f->saved) {
        auto& entry = r.by_knob[f->knob];
        if (entry.second == 0 && before.content) entry.first = machine::first_line(*before.content);
        ++entry.second;
      } else {
        r.last_error[f] = error;
        still.push_back(f);
      }
    }
    if (still.size() == r.left.size()) break;  // no progress: another pass would fail the same way
    r.left = std::move(still);
  }
  return r;
}

void print_not_restored(const Restored& r, const machine::SysTree& tree, std::ostream& err) {
  for (const SavedFile* f : r.left) {
    const machine::FileRead now = tree.read(f->path);
    const auto known = r.last_error.find(f);
    const int error = known != r.last_error.end() ? known->second : 0;
    err << "cmh-system reset: could not restore " << tree.at(f->path).string() << " to " << shown(f->saved)
        << ": " << (error != 0 ? machine::errno_text(error) : "it reads " + (now.content ? shown(*now.content) : now.reason()))
        << "\n";
  }
}

}  // namespace

int run_reset(const Options& o, std::ostream& out, std::ostream& err) {
  std::error_code ec;
  if (!std::filesystem::exists(o.state_file, ec)) {
    out << "Nothing to reset: there is no state file " << o.state_file.string()
        << " (tune was not run, or reset already). Nothing was changed.\n";
    return 0;
  }
  State state;
  try {
    state = read_state(o.state_file);
  } catch (const StateError& e) {
    err << "cmh-system reset: " << e.what() << "; nothing was changed\n";
    return 2;  // bad input
  }
  const machine::SysTree tree(o.root);

  std::vector<std::string> gone;
  const std::vector<const SavedFile*> pending = files_to_restore(state, tree, gone);
  if (o.dry_run) {
    print_pending_restores(pending, state, tree, out);
    return 0;
  }

  for (const SavedFile* f : pending)
    if (const int error = tree.check_writable(f->path); error != 0) {
      err << "cmh-system reset: restoring " << pending.size() << " files needs root (" << tree.at(f->path).string()
          << ": " << machine::errno_text(error) << "); nothing was changed\n";
      return 1;
    }

  const auto knobs = machine::read_knobs(tree);
  const Restored r = restore(pending, tree);
  for (const auto& [id, what] : r.by_knob)
    out << "restored " << knob_name(knobs, id) << ": " << what.first << " -> as saved (" << what.second
        << (what.second == 1 ? " file)\n" : " files)\n");
  if (r.by_knob.empty() && r.left.empty()) out << "Every saved file already held its saved content.\n";
  for (const auto& path : gone) out << "gone since tune, nothing to restore: " << tree.at(path).string() << "\n";
  if (!r.left.empty()) {
    print_not_restored(r, tree, err);
    err << "cmh-system reset: kept the state file " << o.state_file.string() << " for another try\n";
    return 1;
  }
  std::filesystem::remove(o.state_file, ec);
  if (ec) {
    err << "cmh-system reset: every file is restored, but the state file " << o.state_file.string()
        << " could not be removed: " << ec.message() << "\n";
    return 1;
  }
  out << "Removed the state file " << o.state_file.string() << ".\n";
  return 0;
}

}  // namespace cmh::system
