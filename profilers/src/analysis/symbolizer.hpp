// SPDX-License-Identifier: MIT
// ModuleSymbols: what an ELF file says about one of its addresses, through elfutils
// libdw/libdwfl: the function symbol (demangled), the source line from .debug_line,
// the chain of inlined functions from .debug_info (DW_TAG_inlined_subroutine, with
// each call site), and the code bytes to disassemble. Symbolizer caches one per file.
//
// Addresses are the file's own (ELF virtual addresses): the sampled process subtracted
// its load bias (sampling/code_map.hpp), so the file is read as it is on disk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

struct Dwfl;
struct Dwfl_Module;

namespace cmh::profilers::analysis {

struct FunctionSymbol {
  std::string name;  ///< demangled
  std::uint64_t start = 0;
  std::uint64_t size = 0;
};

struct SourceLine {
  std::string file;  ///< as the line table names it (often absolute)
  int line = 0;
  bool known() const { return line > 0; }
};

/// One level of an instruction's inline chain: the function, and where in it the
/// instruction (innermost level) or the call to the next-inner level is.
struct InlineFrame {
  std::string function;  ///< demangled, qualified where DWARF gives a linkage name
  SourceLine at;
};

class ModuleSymbols {
 public:
  explicit ModuleSymbols(std::string path);
  ~ModuleSymbols();
  ModuleSymbols(const ModuleSymbols&) = delete;
  ModuleSymbols& operator=(const ModuleSymbols&) = delete;

  /// nullopt when the file could be read, else why not.
  const std::optional<std::string>& problem() const { return problem_; }
  const std::string& path() const { return path_; }
  /// true when the file has DWARF line information.
  bool has_lines() const { return has_lines_; }

  std::optional<FunctionSymbol> function_at(std::uint64_t address) const;
  SourceLine line_at(std::uint64_t address) const;
  /// Innermost first; the last level is the function the code was compiled into. Empty
  /// without DWARF.
  std::vector<InlineFrame> inline_chain(std::uint64_t address) const;
  /// The file's bytes for [address, address + size), or empty when not in a section.
  std::span<const std::byte> code(std::uint64_t address, std::uint64_t size) const;
  /// DW_AT_producer of the first compile unit ("GNU C++20 12.2.0 -mtune=generic -O2 ..."),
  /// which records the flags (frame pointers or not) when -grecord-gcc-switches is on (gcc's default).
  std::optional<std::string> producer() const;

 private:
  std::string path_;
  Dwfl* dwfl_ = nullptr;
  Dwfl_Module* module_ = nullptr;
  int fd_ = -1;
  bool has_lines_ = false;
  std::optional<std::string> problem_;
  mutable std::map<std::uint64_t, std::string> names_;  ///< qualified function names by DIE offset
  /// An inlined instance's DIE offset -> the offset of the function scope that contains it.
  mutable std::map<std::uint64_t, std::optional<std::uint64_t>> callers_;
};

class Symbolizer {
 public:
  /// The symbols of `path` (opened once); check problem() before use.
  const ModuleSymbols& module(const std::string& path);

 private:
  std::map<std::string, std::unique_ptr<ModuleSymbols>> modules_;
};

/// abi::__cxa_demangle, or the name itself when it is not a mangled one.
std::string demangle(const char* name);

/// A shorter form of a long C++ name for narrow columns: template argument lists nested
/// deeper than `depth` become <…> and a parameter list longer than 40 characters (…).
std::string short_name(const std::string& name, int depth = 1);

}  // namespace cmh::profilers::analysis
