// SPDX-License-Identifier: MIT
// The state file as JSON: readable by a person who wants to know what tune did.
// A saved content that is not printable ASCII (none of the kernel's files here,
// but a fake tree may hold anything) is stored as hex, so that the bytes restored
// are exactly the bytes read.
#include "tool/state_file.hpp"

#include <nlohmann/json.hpp>

#include <ctime>
#include <fstream>
#include <sstream>

#include <cmh/common/atomic_file.hpp>

namespace cmh::system {

namespace {

using Json = nlohmann::ordered_json;
constexpr const char* kFormat = "cmh-system state 1";

bool printable(const std::string& s) {
  for (const unsigned char c : s)
    if ((c < 0x20 || c > 0x7e) && c != '\n' && c != '\t') return false;
  return true;
}

std::string to_hex(const std::string& s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const unsigned char c : s) {
    out += kHex[c >> 4];
    out += kHex[c & 0xf];
  }
  return out;
}

std::optional<std::string> from_hex(const std::string& s) {
  if (s.size() % 2 != 0) return std::nullopt;
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  std::string out;
  for (std::size_t i = 0; i < s.size(); i += 2) {
    const int hi = nibble(s[i]), lo = nibble(s[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
  }
  return out;
}

}  // namespace

const SavedFile* State::find(const std::string& path) const {
  for (const auto& f : files)
    if (f.path == path) return &f;
  return nullptr;
}

State read_state(const std::filesystem::path& file) {
  const std::string where = "the state file " + file.string();
  std::ifstream in(file, std::ios::binary);
  if (!in) throw StateError(where + " cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  Json doc;
  try {
    doc = Json::parse(text.str());
  } catch (const nlohmann::json::exception& e) {
    throw StateError(where + " is not JSON (" + std::string(e.what()) + ")");
  }
  auto fail = [&](const std::string& what) { throw StateError(where + ": " + what); };
  if (!doc.is_object() || doc.value("format", "") != kFormat) fail("not a cmh-system state file (no \"format\": \"" + std::string(kFormat) + "\")");
  State state;
  state.created = doc.value("created", "");
  state.root = doc.value("root", "");
  const auto files = doc.find("files");
  if (files == doc.end() || !files->is_array()) fail("no \"files\" array");
  for (const auto& f : *files) {
    if (!f.is_object() || !f.contains("path") || !f["path"].is_string()) fail("an entry of \"files\" has no path");
    SavedFile saved;
    saved.path = f["path"].get<std::string>();
    if (saved.path.empty() || saved.path.front() != '/' || saved.path.find("..") != std::string::npos)
      fail("\"" + saved.path + "\" is not an absolute path inside the tree");
    saved.knob = f.value("knob", "");
    if (f.contains("saved") && f["saved"].is_string()) {
      saved.saved = f["saved"].get<std::string>();
    } else if (f.contains("savedHex") && f["savedHex"].is_string()) {
      const auto bytes = from_hex(f["savedHex"].get<std::string>());
      if (!bytes) fail("the savedHex of " + saved.path + " is not hex");
      saved.saved = *bytes;
    } else {
      fail(saved.path + " has no saved content");
    }
    state.files.push_back(std::move(saved));
  }
  return state;
}

void write_state(const std::filesystem::path& file, const State& state) {
  Json doc = Json::object();
  doc["format"] = kFormat;
  doc["created"] = state.created;
  doc["root"] = state.root;
  doc["note"] = "cmh-system reset writes every saved content back and removes this file";
  Json files = Json::array();
  for (const auto& f : state.files) {
    Json e = Json::object();
    e["path"] = f.path;
    e["knob"] = f.knob;
    if (printable(f.saved))
      e["saved"] = f.saved;
    else
      e["savedHex"] = to_hex(f.saved);
    files.push_back(std::move(e));
  }
  doc["files"] = std::move(files);
  std::error_code ec;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
  if (ec) throw StateError("cannot create the directory of the state file " + file.string() + ": " + ec.message());
  try {
    formats::write_atomically(file.string(), doc.dump(2) + "\n");
  } catch (const std::exception& e) {
    throw StateError(std::string("cannot write the state file: ") + e.what());
  }
}

std::string now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  const std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return std::string(buf, n);
}

}  // namespace cmh::system
