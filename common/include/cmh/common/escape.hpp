// SPDX-License-Identifier: MIT
// Escaping of text (benchmark names, parameter values, units, error messages)
// for each result format. Every function first makes the text valid UTF-8
// (each ill-formed sequence becomes one U+FFFD), so no file cmh writes is ever
// invalid UTF-8 whatever bytes a parameter value holds.
#pragma once

#include <string>
#include <string_view>

namespace cmh::formats {

/// `text` with every ill-formed UTF-8 sequence (stray bytes, truncated sequences,
/// overlong forms, surrogates, code points above U+10FFFF) replaced by U+FFFD, one
/// per maximal subpart as Unicode recommends (and as nlohmann_json's dump does).
std::string valid_utf8(std::string_view text);

/// A JSON string literal, quotes included: `"` and `\` escaped, control
/// characters as \b \f \n \r \t or \u00XX (DEL as \u007f), non-ASCII kept as UTF-8.
std::string json_string(std::string_view text);

/// A CSV field that is always quoted (JMH quotes Benchmark, Mode and Unit): `"..."` with `""` doubling.
std::string csv_quoted(std::string_view text);

/// A CSV field quoted only when needed, as JMH does for parameter values: when it
/// contains the delimiter, a space, a quote, CR or LF. Quotes inside are doubled.
std::string csv_field(std::string_view text, char delimiter);

/// Text for a LaTeX document: the ten specials `# $ % & _ { } \ ^ ~` are escaped
/// (\textbackslash{}, \textasciicircum{}, \textasciitilde{} for the last three),
/// control characters are shown as `\x1B` (C++ spelling), non-ASCII is kept as UTF-8.
std::string latex_escape(std::string_view text);

/// Text for HTML content and attribute values: `& < > "` as character references.
std::string html_escape(std::string_view text);

}  // namespace cmh::formats
