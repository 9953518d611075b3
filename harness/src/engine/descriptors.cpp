// SPDX-License-Identifier: MIT
// From the constant tables a benchmark file registers (<cmh/detail/descriptors.hpp>)
// to the engine's BenchmarkDefinition and MemberCode, plus the out-of-line helpers
// the state templates call: parameter lookup and its errors, state locks (the loops'
// frame is loop_driver.cpp). Compiled once here instead of in every benchmark file.
#include <cmh/detail/benchmark_code.hpp>
#include <cmh/detail/descriptors.hpp>
#include <cmh/param.hpp>
#include <cmh/registry.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

namespace cmh::detail {
namespace {

/// The member's parameters (each name once, first declaration wins) and checks (one per
/// state and parameter), and its aux counters, in closure order.
void describe_state(const StateDescriptor& s, MemberCode& m) {
  for (std::size_t i = 0; i < s.param_count; ++i) {
    const ParamDescriptor& p = s.params[i];
    ParamDecl decl{std::string(p.name), {}, p.type_label != nullptr ? std::string(p.type_label)
                                                                   : demangle(p.type->name())};
    for (std::size_t d = 0; d < p.default_count; ++d) decl.defaults.emplace_back(p.defaults[d]);
    m.param_checks.push_back({decl.name, decl.type_name, p.accepts});
    const bool known = std::any_of(m.params.begin(), m.params.end(),
                                   [&](const ParamDecl& x) { return x.name == decl.name; });
    if (!known) m.params.push_back(std::move(decl));
  }
  for (std::size_t i = 0; i < s.aux_count; ++i) m.aux_counters.push_back({std::string(s.aux[i].name), s.aux[i].events});
}

}  // namespace

bool register_benchmark_code(const BenchmarkDescriptor& d) {
  MemberCode m;
  m.name = d.group_member ? d.member : d.name;
  for (std::size_t i = 0; i < d.state_count; ++i) m.states.push_back(d.states[i].ops);
  for (std::size_t i = 0; i < d.state_count; ++i) describe_state(d.states[i], m);
  std::sort(m.params.begin(), m.params.end(), [](const ParamDecl& a, const ParamDecl& b) { return a.name < b.name; });
  m.loop = d.loop;

  BenchmarkDefinition def;
  def.group = d.group;
  def.name = d.name;
  def.file = d.file;
  def.line = d.line;
  def.params = m.params;
  if (d.group_member) {
    def.group_members = {d.member};
    def.group_threads = {d.group_threads};
  }
  auto code = std::make_shared<BenchmarkCode>();
  code->members.push_back(std::move(m));
  def.code = std::move(code);
  register_benchmark(std::move(def));
  return true;
}

std::string_view param_text(const ParamValues& values, const ParamDescriptor& p) {
  for (const auto& [key, value] : values)
    if (key == p.name) return value;
  if (p.default_count == 0) throw ParamError("parameter '" + std::string(p.name) + "' has no value");
  return p.defaults[0];
}

void throw_bad_param_value(const ParamDescriptor& p, std::string_view text) {
  const std::string type = p.type_label != nullptr ? std::string(p.type_label) : demangle(p.type->name());
  throw ParamError("parameter '" + std::string(p.name) + "': '" + std::string(text) + "' is not a valid " + type);
}

void lock_state(StateLock* lock) { lock->mutex.lock(); }
void unlock_state(StateLock* lock) noexcept { lock->mutex.unlock(); }


}  // namespace cmh::detail
