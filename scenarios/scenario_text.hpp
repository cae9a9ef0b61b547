// A scenario file as text, before it is parsed: read with a size limit, its format told,
// its encoding and nesting checked. The only code that reads scenario files from disk.
#pragma once

#include <cstddef>
#include <string>

#include "scenarios/scenario.hpp"

namespace gputco {

/// Largest scenario file read: 16 MiB (the bundled examples are 2-6 KiB; a scenario of 100
/// options is about 20 KiB). A larger file, /dev/zero or a FIFO is refused at once.
inline constexpr std::size_t kMaxScenarioBytes = std::size_t{16} * 1024 * 1024;

/// Deepest nesting of brackets in a JSON scenario: 64 levels. A scenario has two (an object
/// of sections, each an object of keys); Boost.property_tree's JSON parser recurses once per
/// level, so a file nested 100,000 deep would exhaust the stack: it is refused before the
/// parser sees it. (INI cannot nest: a section holds keys only.)
inline constexpr int kMaxJsonNesting = 64;

/// How a scenario read from standard input ("-") is named in messages.
inline constexpr const char* kStandardInputScenarioName = "<stdin>";

/// The format of `path` from its extension (.ini, .json, any case); for "-" from `content`:
/// JSON when its first character other than white space (and a byte order mark) is '{'.
/// Throws ScenarioError for another extension.
ScenarioFormat scenario_format(const std::string& path, const std::string& content);

/// `content` ready for the parser: a UTF-8 byte order mark and carriage returns dropped; a
/// file that is UTF-16, holds NUL bytes, is not UTF-8, is empty, or (JSON) nests deeper than
/// kMaxJsonNesting is refused with a ScenarioError naming `file` and, where there is one, the
/// line.
std::string checked_scenario_text(std::string content, ScenarioFormat format,
                                  const std::string& file);

}  // namespace gputco
