// SPDX-License-Identifier: MIT
// resolve_profiler(), create_profiler() and the -lprof / name:help texts.
#include "profiling/profiler_factory.hpp"

#include <algorithm>

namespace cmh::profiling {
namespace {

std::string known_names(const ProfilerRegistry& registry) {
  std::string out;
  for (const ProfilerInfo* p : registry.all()) {
    out += (out.empty() ? "" : ", ") + p->name;
    for (const auto& a : p->aliases) out += ", " + a;
  }
  return out.empty() ? std::string("none are registered") : "known: " + out;
}

std::optional<std::string> reason_unsupported(const ProfilerInfo& info) {
  return info.unsupported_reason ? info.unsupported_reason() : std::nullopt;
}

std::optional<std::string> limitation_of(const ProfilerInfo& info) {
  return info.limitation ? info.limitation() : std::nullopt;
}

std::string alias_note(const ProfilerInfo& info) {
  if (info.aliases.empty()) return "";
  std::string out = info.aliases.size() == 1 ? " (alias: " : " (aliases: ";
  for (std::size_t i = 0; i < info.aliases.size(); ++i) out += (i ? ", " : "") + info.aliases[i];
  return out + ")";
}

}  // namespace

ProfilerRequest resolve_profiler(std::string_view spec) {
  auto [name, options] = parse_profiler_spec(spec);
  const auto& registry = ProfilerRegistry::instance();
  const ProfilerInfo* info = registry.find(name);
  if (!info)
    throw ProfilerError("-prof " + name + ": unknown profiler (" + known_names(registry) +
                        "; -lprof describes them)");
  ProfilerRequest request;
  request.info = info;
  request.help = options.erase("help") > 0;
  request.options = std::move(options);
  return request;
}

std::unique_ptr<Profiler> create_profiler(std::string_view spec) {
  ProfilerRequest request = resolve_profiler(spec);
  const ProfilerInfo& info = *request.info;
  if (request.help)
    throw ProfilerError("-prof " + std::string(spec) + ": asks for help, not for a profiler");
  if (auto reason = reason_unsupported(info))
    throw ProfilerError("-prof " + info.name + ": not supported here: " + *reason);
  std::unique_ptr<Profiler> profiler = info.create(request.options);
  if (!profiler) throw ProfilerError("-prof " + info.name + ": its factory returned nothing");
  return profiler;
}

ProfilerSet create_profilers(const std::vector<std::string>& specs, ProfilerSide side) {
  const bool in_process = side == ProfilerSide::in_process;
  ProfilerSet set;
  for (const auto& spec : specs) {
    const ProfilerInfo& info = *resolve_profiler(spec).info;
    const bool here = in_process ? info.internal : info.external;
    const bool there = in_process ? info.external : info.internal;
    if (!here) {
      if (there) set.other_side_only.push_back(info.name);
      continue;
    }
    set.owned.push_back(create_profiler(spec));
    if (in_process) {
      if (auto* p = dynamic_cast<InternalProfiler*>(set.owned.back().get())) set.internal.push_back(p);
    } else if (auto* p = dynamic_cast<ExternalProfiler*>(set.owned.back().get())) {
      set.external.push_back(p);
    }
  }
  return set;
}

void validate_profiler_specs(const std::vector<std::string>& specs) {
  for (const auto& spec : specs) (void)create_profiler(spec);
}

std::string profiler_help_text(const ProfilerInfo& info) {
  std::string out = "Usage: -prof " + info.name + "[:key=value;key2=value]\n\n";
  out += info.name + alias_note(info) + ": " + info.description + "\n\n";
  std::string options = info.help ? info.help() : std::string();
  if (options.empty()) options = "This profiler takes no options.\n";
  if (options.back() != '\n') options += '\n';
  out += options;
  if (auto reason = reason_unsupported(info))
    out += "\nNot supported here: " + *reason + "\n";
  else if (auto limit = limitation_of(info))
    out += "\nHere: " + *limit + "\n";
  return out;
}

std::string profiler_list_text(const ProfilerRegistry& registry) {
  struct Row {
    const ProfilerInfo* info;
    std::optional<std::string> reason, limit;
  };
  std::vector<Row> supported, unsupported;
  std::size_t width = 0;
  for (const ProfilerInfo* p : registry.all()) {
    width = std::max(width, p->name.size());
    auto reason = reason_unsupported(*p);
    if (reason)
      unsupported.push_back({p, reason, std::nullopt});
    else
      supported.push_back({p, std::nullopt, limitation_of(*p)});
  }
  const std::string indent(width + 2, ' ');
  auto line = [&](const Row& row) {
    std::string out(width - row.info->name.size(), ' ');
    out += row.info->name + ": " + row.info->description + alias_note(*row.info) + "\n";
    if (row.reason) out += indent + "[" + *row.reason + "]\n";
    if (row.limit) out += indent + "[" + *row.limit + "]\n";
    return out;
  };
  std::string out = "Supported profilers:\n";
  for (const auto& row : supported) out += line(row);
  if (supported.empty()) out += indent + "<none>\n";
  out += "\nUnsupported profilers:\n";
  for (const auto& row : unsupported) out += line(row);
  if (unsupported.empty()) out += indent + "<none>\n";
  out += "\nUse -prof <profiler-name>:help to get the help on the profiler options\n";
  return out;
}

}  // namespace cmh::profiling
