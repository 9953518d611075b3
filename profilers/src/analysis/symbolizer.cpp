// SPDX-License-Identifier: MIT
// ModuleSymbols: libdwfl over one ELF file (see symbolizer.hpp).
#include "analysis/symbolizer.hpp"

#include <cmh/param.hpp>  // detail::demangle, the one demangler

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <map>

namespace cmh::profilers::analysis {
namespace {

char* debuginfo_path = nullptr;
const Dwfl_Callbacks kOfflineCallbacks = {
    dwfl_build_id_find_elf, dwfl_standard_find_debuginfo, dwfl_offline_section_address, &debuginfo_path,
};

/// The name of a namespace, class or function DIE; anonymous namespaces as the demangler writes them.
std::string plain_name(Dwarf_Die* die) {
  const char* name = dwarf_diename(die);
  if (name != nullptr) return name;
  return dwarf_tag(die) == DW_TAG_namespace ? "(anonymous namespace)" : "";
}

/// The function's qualified name: its linkage name demangled when DWARF has one (gcc gives
/// none for many inlined and internal functions), else its name prefixed with the
/// namespaces and classes that contain its declaration.
std::string die_function_name(Dwarf_Die* die, std::map<std::uint64_t, std::string>& cache) {
  const std::uint64_t key = dwarf_dieoffset(die);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  std::string& out = cache[key];
  Dwarf_Die current = *die;
  for (int hops = 0; hops < 8; ++hops) {
    Dwarf_Attribute attr;
    for (int at : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name})
      if (dwarf_attr(&current, at, &attr) != nullptr)
        if (const char* linkage = dwarf_formstring(&attr)) return out = demangle(linkage);
    Dwarf_Attribute* next = dwarf_attr(&current, DW_AT_abstract_origin, &attr);
    if (next == nullptr) next = dwarf_attr(&current, DW_AT_specification, &attr);
    Dwarf_Die target;
    if (next == nullptr || dwarf_formref_die(next, &target) == nullptr) break;
    current = target;
  }
  // `current` is the declaration: its enclosing scopes qualify it.
  std::string name = plain_name(&current);
  if (name.empty()) return out = "??";
  Dwarf_Die* scopes = nullptr;
  const int n = dwarf_getscopes_die(&current, &scopes);
  for (int i = 1; i < n; ++i) {
    const int tag = dwarf_tag(&scopes[i]);
    if (tag == DW_TAG_namespace || tag == DW_TAG_class_type || tag == DW_TAG_structure_type ||
        tag == DW_TAG_union_type) {
      const std::string scope = plain_name(&scopes[i]);
      if (!scope.empty()) name = scope + "::" + name;
    }
  }
  std::free(scopes);
  return out = name;
}

SourceLine call_site(Dwarf_Die* inlined, Dwarf_Die* cu) {
  SourceLine out;
  Dwarf_Attribute attr;
  Dwarf_Word file = 0, line = 0;
  if (dwarf_formudata(dwarf_attr(inlined, DW_AT_call_line, &attr), &line) == 0) out.line = static_cast<int>(line);
  if (dwarf_formudata(dwarf_attr(inlined, DW_AT_call_file, &attr), &file) == 0) {
    Dwarf_Files* files = nullptr;
    std::size_t count = 0;
    if (dwarf_getsrcfiles(cu, &files, &count) == 0 && file < count)
      if (const char* name = dwarf_filesrc(files, file, nullptr, nullptr)) out.file = name;
  }
  return out;
}

}  // namespace

std::string demangle(const char* name) {
  return name == nullptr ? "??" : cmh::detail::demangle(name);
}

std::string short_name(const std::string& name, int depth) {
  std::string out;
  int level = 0;
  bool elided = false;
  for (char c : name) {
    if (c == '<') {
      if (level == depth && !elided) out += "<…";
      if (level < depth) out += c;
      ++level;
      elided = level > depth;
      continue;
    }
    if (c == '>' && level > 0) {
      --level;
      if (level == depth) out += ">";
      else if (level < depth) out += c;
      elided = level > depth;
      continue;
    }
    if (level <= depth) out += c;
  }
  // "operator<" and friends unbalance the count: fall back to the whole name.
  if (level != 0) out = name;
  const auto open = out.rfind('(');
  const auto close = out.rfind(')');
  if (open != std::string::npos && close != std::string::npos && close > open && close - open > 40)
    out = out.substr(0, open) + "(…)" + out.substr(close + 1);
  return out;
}

ModuleSymbols::ModuleSymbols(std::string path) : path_(std::move(path)) {
  if (path_.empty() || path_.front() == '[') {
    problem_ = "not a file";
    return;
  }
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) {
    problem_ = "cannot open " + path_ + ": " + std::strerror(errno);
    return;
  }
  dwfl_ = dwfl_begin(&kOfflineCallbacks);
  if (dwfl_ == nullptr) {
    problem_ = std::string("libdwfl: ") + dwfl_errmsg(-1);
    return;
  }
  dwfl_report_begin(dwfl_);
  // Base 0 without adding p_vaddr: the module's addresses are the file's own.
  module_ = dwfl_report_elf(dwfl_, path_.c_str(), path_.c_str(), fd_, 0, false);
  dwfl_report_end(dwfl_, nullptr, nullptr);
  if (module_ == nullptr) {
    problem_ = "libdwfl cannot read " + path_ + ": " + dwfl_errmsg(-1);
    return;
  }
  fd_ = -1;  // libdwfl owns it now
  Dwarf_Addr bias = 0;
  if (Dwarf* dwarf = dwfl_module_getdwarf(module_, &bias)) {
    Dwarf_Off offset = 0, next = 0;
    std::size_t header = 0;
    has_lines_ = dwarf_nextcu(dwarf, offset, &next, &header, nullptr, nullptr, nullptr) == 0;
  }
}

ModuleSymbols::~ModuleSymbols() {
  if (dwfl_ != nullptr) dwfl_end(dwfl_);
  if (fd_ >= 0) ::close(fd_);
}

std::optional<FunctionSymbol> ModuleSymbols::function_at(std::uint64_t address) const {
  if (module_ == nullptr) return std::nullopt;
  GElf_Off offset = 0;
  GElf_Sym sym;
  GElf_Word shndx = 0;
  Elf* elf = nullptr;
  Dwarf_Addr bias = 0;
  const char* name = dwfl_module_addrinfo(module_, address, &offset, &sym, &shndx, &elf, &bias);
  if (name == nullptr) return std::nullopt;
  FunctionSymbol out;
  out.name = demangle(name);
  out.start = address - offset;
  out.size = sym.st_size;
  return out;
}

SourceLine ModuleSymbols::line_at(std::uint64_t address) const {
  SourceLine out;
  if (module_ == nullptr) return out;
  Dwfl_Line* line = dwfl_module_getsrc(module_, address);
  if (line == nullptr) return out;
  int lineno = 0;
  if (const char* file = dwfl_lineinfo(line, nullptr, &lineno, nullptr, nullptr, nullptr)) {
    out.file = file;
    out.line = lineno;
  }
  return out;
}

std::vector<InlineFrame> ModuleSymbols::inline_chain(std::uint64_t address) const {
  std::vector<InlineFrame> chain;
  if (module_ == nullptr) return chain;
  Dwarf_Addr bias = 0;
  Dwarf_Die* cu = dwfl_module_addrdie(module_, address, &bias);
  if (cu == nullptr) return chain;
  auto is_function = [](Dwarf_Die* d) {
    const int tag = dwarf_tag(d);
    return tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram;
  };
  // dwarf_getscopes gives the innermost inlined instance and then the scopes of its
  // abstract definition; the caller's scope is found from the instance itself
  // (dwarf_getscopes_die), level by level.
  Dwarf_Die* scopes = nullptr;
  const int n = dwarf_getscopes(cu, address - bias, &scopes);
  Dwarf_Die current;
  bool found = false;
  for (int i = 0; i < n && !found; ++i)
    if (is_function(&scopes[i])) current = scopes[i], found = true;
  std::free(scopes);
  SourceLine at = line_at(address);
  for (int depth = 0; found && depth < 64; ++depth) {
    chain.push_back({die_function_name(&current, names_), at});
    if (dwarf_tag(&current) != DW_TAG_inlined_subroutine) break;
    at = call_site(&current, cu);
    // The caller's function scope: dwarf_getscopes_die walks the whole unit, so each
    // answer is kept (a hot region asks for the same few inlined instances again and again).
    const std::uint64_t offset = dwarf_dieoffset(&current);
    auto cached = callers_.find(offset);
    if (cached == callers_.end()) {
      std::optional<std::uint64_t> caller;
      Dwarf_Die* parents = nullptr;
      const int m = dwarf_getscopes_die(&current, &parents);
      for (int i = 1; i < m && !caller; ++i)
        if (is_function(&parents[i])) caller = dwarf_dieoffset(&parents[i]);
      std::free(parents);
      cached = callers_.emplace(offset, caller).first;
    }
    Dwarf_Addr unused = 0;
    Dwarf* dwarf = dwfl_module_getdwarf(module_, &unused);
    found = cached->second.has_value() && dwarf != nullptr && dwarf_offdie(dwarf, *cached->second, &current) != nullptr;
  }
  return chain;
}

std::span<const std::byte> ModuleSymbols::code(std::uint64_t address, std::uint64_t size) const {
  if (module_ == nullptr) return {};
  Dwarf_Addr bias = 0;
  Elf* elf = dwfl_module_getelf(module_, &bias);
  if (elf == nullptr) return {};
  const std::uint64_t at = address - bias;
  Elf_Scn* scn = nullptr;
  while ((scn = elf_nextscn(elf, scn)) != nullptr) {
    GElf_Shdr shdr;
    if (gelf_getshdr(scn, &shdr) == nullptr || shdr.sh_type != SHT_PROGBITS || !(shdr.sh_flags & SHF_EXECINSTR))
      continue;
    if (at < shdr.sh_addr || at >= shdr.sh_addr + shdr.sh_size) continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (data == nullptr || data->d_buf == nullptr) return {};
    const std::uint64_t from = at - shdr.sh_addr;
    const std::uint64_t n = std::min<std::uint64_t>(size, data->d_size - from);
    return {static_cast<const std::byte*>(data->d_buf) + from, static_cast<std::size_t>(n)};
  }
  return {};
}

std::optional<std::string> ModuleSymbols::producer() const {
  if (module_ == nullptr) return std::nullopt;
  Dwarf_Addr bias = 0;
  Dwarf* dwarf = dwfl_module_getdwarf(module_, &bias);
  if (dwarf == nullptr) return std::nullopt;
  Dwarf_Off offset = 0, next = 0;
  std::size_t header = 0;
  // The first unit with a producer that names a compiler of the user's code.
  while (dwarf_nextcu(dwarf, offset, &next, &header, nullptr, nullptr, nullptr) == 0) {
    Dwarf_Die die;
    if (dwarf_offdie(dwarf, offset + header, &die) != nullptr) {
      Dwarf_Attribute attr;
      if (const char* p = dwarf_formstring(dwarf_attr(&die, DW_AT_producer, &attr))) return std::string(p);
    }
    offset = next;
  }
  return std::nullopt;
}

const ModuleSymbols& Symbolizer::module(const std::string& path) {
  auto& slot = modules_[path];
  if (!slot) slot = std::make_unique<ModuleSymbols>(path);
  return *slot;
}

}  // namespace cmh::profilers::analysis
