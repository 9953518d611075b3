// SPDX-License-Identifier: MIT
// The one table profilers are registered in (cmh::ProfilerRegistry).
//
// Registration happens at static-initialisation time (CMH_PROFILER) and in main()
// (register_builtins), before anything reads the table, so it needs no lock. A
// profiler registered again under its own name replaces the earlier entry; a name
// or alias that collides with a different profiler is refused.
#include <cmh/profiler.hpp>

#include <algorithm>
#include <cctype>

namespace cmh {
namespace {

bool valid_profiler_name(std::string_view name) {
  if (name.empty()) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

bool answers_to(const ProfilerInfo& info, std::string_view name) {
  if (info.name == name) return true;
  return std::find(info.aliases.begin(), info.aliases.end(), name) != info.aliases.end();
}

}  // namespace

ProfilerRegistry& ProfilerRegistry::instance() {
  static ProfilerRegistry registry;
  return registry;
}

void ProfilerRegistry::add(ProfilerInfo info) {
  if (!valid_profiler_name(info.name))
    throw ProfilerError("cannot register a profiler named '" + info.name +
                        "': names are letters, digits, '_', '-' and '.'");
  if (!info.create)
    throw ProfilerError("cannot register profiler '" + info.name + "': it has no create function");
  for (const auto& alias : info.aliases)
    if (!valid_profiler_name(alias) || alias == info.name)
      throw ProfilerError("cannot register profiler '" + info.name + "': bad alias '" + alias + "'");

  auto same = std::find_if(profilers_.begin(), profilers_.end(),
                           [&](const ProfilerInfo& p) { return p.name == info.name; });
  for (const auto& other : profilers_) {
    if (other.name == info.name) continue;
    if (answers_to(other, info.name))
      throw ProfilerError("cannot register profiler '" + info.name + "': '" + info.name +
                          "' is already an alias of '" + other.name + "'");
    for (const auto& alias : info.aliases)
      if (answers_to(other, alias))
        throw ProfilerError("cannot register profiler '" + info.name + "': its alias '" + alias +
                            "' is already taken by '" + other.name + "'");
  }
  if (same != profilers_.end())
    *same = std::move(info);
  else
    profilers_.push_back(std::move(info));
}

const ProfilerInfo* ProfilerRegistry::find(std::string_view name) const {
  for (const auto& p : profilers_)
    if (p.name == name) return &p;
  for (const auto& p : profilers_)
    if (answers_to(p, name)) return &p;
  return nullptr;
}

std::vector<const ProfilerInfo*> ProfilerRegistry::all() const {
  std::vector<const ProfilerInfo*> out;
  out.reserve(profilers_.size());
  for (const auto& p : profilers_) out.push_back(&p);
  std::sort(out.begin(), out.end(),
            [](const ProfilerInfo* a, const ProfilerInfo* b) { return a->name < b->name; });
  return out;
}

}  // namespace cmh
