// SPDX-License-Identifier: MIT
// Escaping of names, parameter values and messages for JSON, CSV and LaTeX,
// with the nastiest inputs: quotes, backslashes, control characters, non-ASCII
// and ill-formed UTF-8. JSON output is proved by parsing it back with nlohmann.
#include <doctest/doctest.h>

#include <cmh/common/escape.hpp>

#include <nlohmann/json.hpp>

#include <string>

using namespace cmh::formats;

namespace {
const std::string kReplacement = "\xEF\xBF\xBD";
}

TEST_CASE("formats: valid_utf8 keeps well-formed text and replaces each ill-formed subpart once") {
  CHECK(valid_utf8("plain ASCII") == "plain ASCII");
  CHECK(valid_utf8("\xC3\xBC \xE2\x82\xAC \xF0\x9F\x98\x80") == "\xC3\xBC \xE2\x82\xAC \xF0\x9F\x98\x80");
  CHECK(valid_utf8(std::string("nul\0byte", 8)) == std::string("nul\0byte", 8));
  CHECK(valid_utf8("\xFF") == kReplacement);
  CHECK(valid_utf8("a\xFF\xFE" "b") == "a" + kReplacement + kReplacement + "b");
  CHECK(valid_utf8("\xE2\x82") == kReplacement);             // truncated at the end
  CHECK(valid_utf8("\xE2\x82z") == kReplacement + "z");      // truncated before ASCII
  CHECK(valid_utf8("\xC0\xAF") == kReplacement + kReplacement);  // overlong '/'
  CHECK(valid_utf8("\xE0\x80\xAF") == kReplacement + kReplacement + kReplacement);  // overlong, 3 bytes
  CHECK(valid_utf8("\xED\xA0\x80") == kReplacement + kReplacement + kReplacement);  // a surrogate
  CHECK(valid_utf8("\xF4\x90\x80\x80") == kReplacement + kReplacement + kReplacement + kReplacement);
  CHECK(valid_utf8("\x80") == kReplacement);  // a lone continuation byte
}

TEST_CASE("formats: valid_utf8 agrees with nlohmann's replacing dump") {
  for (const std::string s : {"\xFF\xFE bad", "x\xE2\x82", "\xE2\x82y", "\xC0\xAF", "\xF0\x9F\x98", "ok \xC3\xBC"}) {
    const std::string ours = valid_utf8(s);
    const std::string theirs =
        nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    CHECK(nlohmann::json(ours).dump() == theirs);
  }
}

TEST_CASE("formats: json_string escapes what JSON requires and parses back to the same text") {
  CHECK(json_string("plain") == "\"plain\"");
  CHECK(json_string("q\"b\\s/") == "\"q\\\"b\\\\s/\"");
  CHECK(json_string("\b\f\n\r\t") == "\"\\b\\f\\n\\r\\t\"");
  CHECK(json_string(std::string("\x01\x1f\x7f\0", 4)) == "\"\\u0001\\u001f\\u007f\\u0000\"");
  CHECK(json_string("\xC3\xBC\xE2\x82\xAC") == "\"\xC3\xBC\xE2\x82\xAC\"");  // UTF-8 kept as is
  const std::string nasty = std::string("n\"a\\m_e#{x}%&$^~\t\x01\x7f-\xC3\xBC\xE2\x82\xAC\n\r\0end", 30);
  CHECK(nlohmann::json::parse(json_string(nasty)).get<std::string>() == nasty);
  // Ill-formed UTF-8 is repaired, so the literal is always valid JSON.
  CHECK(nlohmann::json::parse(json_string("\xFF\xE2\x82")).get<std::string>() == kReplacement + kReplacement);
}

TEST_CASE("formats: CSV quoting follows JMH, with quotes doubled") {
  CHECK(csv_quoted("bench") == "\"bench\"");
  CHECK(csv_quoted("a\"b") == "\"a\"\"b\"");
  CHECK(csv_field("value0", ',') == "value0");
  CHECK(csv_field("[value1]", ',') == "[value1]");
  CHECK(csv_field("{value2}", ',') == "{value2}");
  CHECK(csv_field("'value3'", ',') == "'value3'");
  CHECK(csv_field("\"value4\"", ',') == "\"\"\"value4\"\"\"");  // JMH's golden file
  CHECK(csv_field("a,b", ',') == "\"a,b\"");
  CHECK(csv_field("a,b", ';') == "a,b");
  CHECK(csv_field("a;b", ';') == "\"a;b\"");
  CHECK(csv_field("a b", ';') == "\"a b\"");
  CHECK(csv_field("l1\nl2", ',') == "\"l1\nl2\"");
  CHECK(csv_field("cr\r", ',') == "\"cr\r\"");
  CHECK(csv_field("", ',') == "");
  CHECK(csv_field("\xFF", ',') == kReplacement);
}

TEST_CASE("formats: latex_escape escapes all ten specials and shows control characters") {
  CHECK(latex_escape("a_b#c{d}") == "a\\_b\\#c\\{d\\}");
  CHECK(latex_escape("%&$") == "\\%\\&\\$");
  CHECK(latex_escape("\\") == "\\textbackslash{}");
  CHECK(latex_escape("^~") == "\\textasciicircum{}\\textasciitilde{}");
  CHECK(latex_escape("tab\there") == "tab\\textbackslash{}x09here");
  CHECK(latex_escape("\x7f") == "\\textbackslash{}x7F");
  CHECK(latex_escape("\xC3\xBC") == "\xC3\xBC");
  CHECK(latex_escape("ops/s") == "ops/s");
  // No special character survives unescaped: every '\' starts a known command or escape.
  const std::string out = latex_escape("#$%&_{}\\^~");
  CHECK(out == "\\#\\$\\%\\&\\_\\{\\}\\textbackslash{}\\textasciicircum{}\\textasciitilde{}");
}
