// The text layer of scenario-like files (a scenario, the user's config file): encoding
// checks, and what Boost.property_tree's INI reader does not keep (lines, inline comments).
#pragma once

#include <boost/property_tree/ptree.hpp>
#include <map>
#include <string>

namespace gputco {

/// `content` ready for a parser: a UTF-8 byte order mark and carriage returns dropped.
/// Throws ScenarioError naming `file` (and the line of a bad byte) for UTF-16 text, NUL bytes
/// (not a text file) and bytes that are not UTF-8 (Windows-1252, Latin-1).
std::string checked_text(std::string content, const std::string& file);

/// Maps "section.key" to its line in an INI text (property_tree does not keep lines), and
/// "section." to the line of the section's header.
std::map<std::string, int> ini_key_lines(const std::string& content);

/// Removes inline comments (" ; ..." after a value) that property_tree keeps in values.
void strip_inline_comments(boost::property_tree::ptree& tree);

}  // namespace gputco
