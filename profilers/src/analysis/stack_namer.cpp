// SPDX-License-Identifier: MIT
// StackNamer: expanding and cutting stacks (see stack_namer.hpp).
#include "analysis/stack_namer.hpp"

#include "analysis/perfasm_text.hpp"
#include "sampling/code_map.hpp"

#include <fmt/format.h>

namespace cmh::profilers::analysis {
namespace {

/// A thread's first frames: a stack that reaches one was unwound completely.
bool is_thread_start(const std::string& name) {
  for (const char* start : {"clone3", "clone", "start_thread", "_start", "__libc_start_main", "__libc_start_call_main"})
    if (name == start || name.rfind(std::string(start) + "(", 0) == 0) return true;
  return false;
}

}  // namespace

StackNamer::StackNamer(const sampling::Profile& profile, const BenchmarkIdentity& benchmark, Symbolizer& symbols)
    : profile_(profile), benchmark_(benchmark), symbols_(symbols) {
  for (const auto& body : benchmark_.body_names) loop_markers_.push_back(body.substr(0, body.rfind("::run")));
}

const StackNamer::Expanded& StackNamer::expand(const sampling::CodeAddress& a) {
  auto [it, added] = cache_.try_emplace(a);
  Expanded& e = it->second;
  if (!added) return e;
  const std::string& path = a.module < profile_.modules.size() ? profile_.modules[a.module] : sampling::kUnknownModule;
  if (path.empty() || path.front() == '[') {
    e.full = {path};
  } else {
    const ModuleSymbols& m = symbols_.module(path);
    std::vector<InlineFrame> chain;
    if (!m.problem()) chain = m.inline_chain(a.address);
    if (!chain.empty()) {
      for (auto f = chain.rbegin(); f != chain.rend(); ++f) e.full.push_back(f->function);
    } else if (auto fn = m.problem() ? std::nullopt : m.function_at(a.address)) {
      e.full = {fn->name};
    } else {
      e.full = {fmt::format("{}+0x{:x}", base_name(path), a.address)};
    }
  }
  for (const auto& f : e.full) e.shown.push_back(short_name(f));
  return e;
}

StackKind StackNamer::name(const sampling::Stack& stack, std::vector<std::string>& frames) {
  std::vector<const std::string*> full;
  std::vector<const std::string*> shown;
  for (auto a = stack.rbegin(); a != stack.rend(); ++a) {
    const Expanded& e = expand(*a);
    for (std::size_t i = 0; i < e.full.size(); ++i) {
      full.push_back(&e.full[i]);
      shown.push_back(&e.shown[i]);
    }
  }
  frames.clear();
  frames.push_back(benchmark_.label);
  // The outermost body frame: what it calls is the benchmark's.
  for (std::size_t i = 0; i < full.size(); ++i) {
    if (!is_body(*full[i], benchmark_)) continue;
    for (std::size_t k = i + 1; k < full.size(); ++k) frames.push_back(*shown[k]);
    return StackKind::benchmark;
  }
  // No body frame: the innermost of this benchmark's own loop functions (the harness
  // loop the body is inlined into; gcc does not always record the inlined body, as for a
  // body that is one call). What it calls is the body's; its own instructions and the
  // harness it calls (the window edges) are the harness loop's.
  std::size_t loop = full.size();
  for (std::size_t i = full.size(); i-- > 0;) {
    if (full[i]->find("cmh::detail::Loops<") == std::string::npos) continue;
    bool ours = false;
    for (const auto& marker : loop_markers_) ours = ours || full[i]->find(marker) != std::string::npos;
    if (ours) {
      loop = i;
      break;
    }
  }
  if (loop < full.size()) {
    const bool own_code = loop + 1 == full.size() || full[loop + 1]->rfind("cmh::", 0) == 0;
    if (own_code) frames.push_back(kHarnessLoopFrame);
    for (std::size_t k = loop + 1; k < full.size(); ++k) frames.push_back(*shown[k]);
    return own_code ? StackKind::harness_loop : StackKind::benchmark;
  }
  const bool complete = !full.empty() && is_thread_start(*full.front());
  frames.push_back(complete ? kOtherThreadFrame : kTruncatedFrame);
  for (const auto* s : shown) frames.push_back(*s);
  return complete ? StackKind::other_thread : StackKind::truncated;
}

}  // namespace cmh::profilers::analysis
