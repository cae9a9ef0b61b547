// A scenario file read into its tree, once: the syntax and the encoding checked, the keys'
// lines found, nothing type-checked yet. parse_scenario checks a tree with any overrides, so a
// sweep reads its file once and checks the tree at every value (issue #19), with the very
// checks of a file that held the value.
#pragma once

#include <boost/property_tree/ptree.hpp>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "scenarios/scenario.hpp"

namespace gputco {

/// A scenario file's tree before any check of its sections and keys.
struct ScenarioTree {
  std::string file;  ///< names the file in messages
  ScenarioFormat format = ScenarioFormat::ini;
  /// The sections and keys as read: inline comments stripped (INI), and an INI section whose
  /// lines are all comments present, empty (so it is reported, not ignored).
  boost::property_tree::ptree tree;
  /// "section.key" -> line in the file, "section." -> the section's header line (INI only).
  std::map<std::string, int> lines;
};

/// Reads `in` (the content of a file named `file` in messages) into its tree: checked_scenario_
/// text's checks, then the INI or JSON syntax. Throws ScenarioError: a stream that cannot be
/// read, the text's problems, a syntax error (with its line).
ScenarioTree read_scenario_tree(std::istream& in, ScenarioFormat format, const std::string& file);

/// The tree of a file read once (read_scenario_source). Throws ScenarioError as above.
ScenarioTree read_scenario_tree(const ScenarioSource& source);

/// Type-checks `tree` with `overrides` put in place of its keys first (apply_overrides), as
/// parse_scenario(std::istream&, ...) does with the file the tree was read from: the same
/// Scenario, the same ScenarioError for the same problem. `tree` is left as it is (the
/// overrides go into a copy).
Scenario parse_scenario(const ScenarioTree& tree,
                        const std::vector<ScenarioOverride>& overrides = {});

}  // namespace gputco
