// SPDX-License-Identifier: MIT
// Profile: its JSON form (the fork-to-host file) and merging forks.
#include "sampling/profile.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

namespace cmh::profilers::sampling {
namespace {

using nlohmann::json;

json weights_json(const EventSamples& e) {
  json addresses = json::array();
  for (const auto& [a, w] : e.addresses) addresses.push_back({a.module, a.address, w.samples, w.period});
  json stacks = json::array();
  for (const auto& [s, w] : e.stacks) {
    json frames = json::array();
    for (const auto& f : s) {
      frames.push_back(f.module);
      frames.push_back(f.address);
    }
    stacks.push_back({std::move(frames), w.samples, w.period});
  }
  return {{"addresses", std::move(addresses)}, {"stacks", std::move(stacks)}};
}

EventSamples weights_from(const json& j, const std::vector<std::uint32_t>& remap) {
  auto module = [&](std::uint64_t m) {
    if (m >= remap.size()) throw std::runtime_error("a module index is out of range");
    return remap[m];
  };
  EventSamples e;
  for (const auto& a : j.at("addresses")) {
    const CodeAddress at{module(a.at(0).get<std::uint64_t>()), a.at(1).get<std::uint64_t>()};
    e.addresses[at].add(Weight{a.at(2).get<std::uint64_t>(), a.at(3).get<std::uint64_t>()});
  }
  for (const auto& s : j.at("stacks")) {
    const auto& frames = s.at(0);
    Stack stack;
    for (std::size_t i = 0; i + 1 < frames.size(); i += 2)
      stack.push_back({module(frames[i].get<std::uint64_t>()), frames[i + 1].get<std::uint64_t>()});
    e.stacks[stack].add(Weight{s.at(1).get<std::uint64_t>(), s.at(2).get<std::uint64_t>()});
  }
  return e;
}

void add_into(EventSamples& into, const EventSamples& from) {
  for (const auto& [a, w] : from.addresses) into.addresses[a].add(w);
  for (const auto& [s, w] : from.stacks) into.stacks[s].add(w);
}

}  // namespace

std::uint32_t Profile::module_index(std::string_view path) {
  const auto it = std::find(modules.begin(), modules.end(), path);
  if (it != modules.end()) return static_cast<std::uint32_t>(it - modules.begin());
  modules.emplace_back(path);
  return static_cast<std::uint32_t>(modules.size() - 1);
}

std::string profile_to_json(const Profile& profile) {
  json events = json::array();
  for (const auto& e : profile.events)
    events.push_back({{"name", e.name}, {"unit", e.period_unit}, {"hardware", e.hardware}});
  json forks = json::array();
  for (const auto& f : profile.forks) {
    json samples = json::array();
    for (const auto& e : f.events) samples.push_back(weights_json(e));
    forks.push_back({{"fork", f.fork},         {"ops", f.ops},         {"window_ns", f.window_ns},
                     {"iterations", f.iterations}, {"threads", f.threads}, {"lost", f.lost},
                     {"dropped", f.dropped},   {"throttled", f.throttled}, {"truncated", f.truncated},
                     {"events", std::move(samples)}});
  }
  json j = {{"format", "cmh-samples-1"},     {"modules", profile.modules}, {"events", std::move(events)},
            {"stacks", profile.stacks},      {"frequency", profile.frequency},
            {"user_only", profile.user_only}, {"precise", profile.precise}, {"forks", std::move(forks)}};
  if (profile.unavailable) j["unavailable"] = *profile.unavailable;
  return j.dump();
}

Profile profile_from_json(std::string_view text) {
  Profile p;
  try {
    const json j = json::parse(text);
    if (j.value("format", "") != "cmh-samples-1") throw std::runtime_error("not a cmh sample file");
    p.modules = j.at("modules").get<std::vector<std::string>>();
    for (const auto& e : j.at("events"))
      p.events.push_back({e.at("name").get<std::string>(), e.at("unit").get<std::string>(), e.at("hardware").get<bool>()});
    p.stacks = j.at("stacks").get<std::string>();
    p.frequency = j.at("frequency").get<int>();
    p.user_only = j.at("user_only").get<bool>();
    p.precise = j.at("precise").get<bool>();
    if (j.contains("unavailable")) p.unavailable = j.at("unavailable").get<std::string>();
    std::vector<std::uint32_t> identity(p.modules.size());
    for (std::size_t i = 0; i < identity.size(); ++i) identity[i] = static_cast<std::uint32_t>(i);
    for (const auto& f : j.at("forks")) {
      ForkProfile fork;
      fork.fork = f.at("fork").get<int>();
      fork.ops = f.at("ops").get<std::uint64_t>();
      fork.window_ns = f.at("window_ns").get<std::int64_t>();
      fork.iterations = f.at("iterations").get<int>();
      fork.threads = f.at("threads").get<std::uint32_t>();
      fork.lost = f.at("lost").get<std::uint64_t>();
      fork.dropped = f.at("dropped").get<std::uint64_t>();
      fork.throttled = f.at("throttled").get<std::uint64_t>();
      fork.truncated = f.at("truncated").get<std::uint64_t>();
      for (const auto& e : f.at("events")) fork.events.push_back(weights_from(e, identity));
      p.forks.push_back(std::move(fork));
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("malformed sample file: ") + e.what());
  }
  return p;
}

void append_forks(Profile& into, const Profile& from) {
  if (into.events.empty() && !from.events.empty()) {
    into.events = from.events;
    into.stacks = from.stacks;
    into.frequency = from.frequency;
    into.user_only = from.user_only;
    into.precise = from.precise;
  }
  if (from.unavailable && !into.unavailable) into.unavailable = from.unavailable;
  std::vector<std::uint32_t> remap;
  for (const auto& m : from.modules) remap.push_back(into.module_index(m));
  for (const auto& f : from.forks) {
    ForkProfile copy = f;
    copy.fork = static_cast<int>(into.forks.size()) + 1;
    copy.events.clear();
    for (const auto& e : f.events) {
      EventSamples mapped;
      for (const auto& [a, w] : e.addresses) mapped.addresses[{remap[a.module], a.address}].add(w);
      for (const auto& [s, w] : e.stacks) {
        Stack stack;
        for (const auto& frame : s) stack.push_back({remap[frame.module], frame.address});
        mapped.stacks[stack].add(w);
      }
      copy.events.push_back(std::move(mapped));
    }
    into.forks.push_back(std::move(copy));
  }
}

EventSamples merged_event(const Profile& profile, std::size_t event) {
  EventSamples out;
  for (const auto& f : profile.forks)
    if (event < f.events.size()) add_into(out, f.events[event]);
  return out;
}

std::uint64_t total_ops(const Profile& profile) {
  std::uint64_t ops = 0;
  for (const auto& f : profile.forks) ops += f.ops;
  return ops;
}

}  // namespace cmh::profilers::sampling
