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

  // Files already holding their saved bytes need nothing; vanished ones (an IRQ or
  // a CPU that went away) have nothing to restore.
  std::vector<const SavedFile*> pending;
  std::vector<std::string> gone;
  for (const auto& f : state.files) {
    const machine::FileRead now = tree.read(f.path);
    if (!now.content && now.error == ENOENT) {
      gone.push_back(f.path);
    } else if (!now.content || *now.content != f.saved) {
      pending.push_back(&f);
    }
  }
  std::reverse(pending.begin(), pending.end());  // undo in the reverse order of tune

  if (o.dry_run) {
    for (const SavedFile* f : pending) {
      const machine::FileRead now = tree.read(f->path);
      out << "would write back " << shown(f->saved) << " to " << tree.at(f->path).string() << " (now "
          << (now.content ? shown(*now.content) : now.reason()) << ")"
          << (tree.check_writable(f->path) != 0 ? " [needs root]" : "") << "\n";
    }
    out << "Dry run: nothing was changed; " << pending.size() << " of " << state.files.size()
        << " saved files differ from their saved content.\n";
    return 0;
  }

  for (const SavedFile* f : pending)
    if (const int error = tree.check_writable(f->path); error != 0) {
      err << "cmh-system reset: restoring " << pending.size() << " files needs root (" << tree.at(f->path).string()
          << ": " << machine::errno_text(error) << "); nothing was changed\n";
      return 1;
    }

  const auto knobs = machine::read_knobs(tree);
  std::map<std::string, std::pair<std::string, int>> restored;  // knob id -> (value before reset, files)
  std::map<const SavedFile*, int> last_error;
  std::vector<const SavedFile*> left = pending;
  for (int pass = 0; pass < kMaxPasses && !left.empty(); ++pass) {
    std::vector<const SavedFile*> still;
    for (const SavedFile* f : left) {
      const machine::FileRead before = tree.read(f->path);
      const int error = tree.write(f->path, restore_bytes(tree, *f));
      const machine::FileRead after = tree.read(f->path);
      if (error == 0 && after.content && *after.content == f->saved) {
        auto& entry = restored[f->knob];
        if (entry.second == 0 && before.content) entry.first = machine::first_line(*before.content);
        ++entry.second;
      } else {
        last_error[f] = error;
        still.push_back(f);
      }
    }
    if (still.size() == left.size()) break;  // no progress: another pass would fail the same way
    left = std::move(still);
  }

  for (const auto& [id, what] : restored)
    out << "restored " << knob_name(knobs, id) << ": " << what.first << " -> as saved (" << what.second
        << (what.second == 1 ? " file)\n" : " files)\n");
  if (restored.empty() && left.empty()) out << "Every saved file already held its saved content.\n";
  for (const auto& path : gone) out << "gone since tune, nothing to restore: " << tree.at(path).string() << "\n";
  if (!left.empty()) {
    for (const SavedFile* f : left) {
      const machine::FileRead now = tree.read(f->path);
      const int error = last_error[f];
      err << "cmh-system reset: could not restore " << tree.at(f->path).string() << " to " << shown(f->saved)
          << ": " << (error != 0 ? machine::errno_text(error) : "it reads " + (now.content ? shown(*now.content) : now.reason()))
          << "\n";
    }
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
