#include "scenarios/scenario_tree.hpp"

#include <boost/property_tree/ini_parser.hpp>
#include <boost/property_tree/json_parser.hpp>
#include <iostream>
#include <iterator>
#include <sstream>

#include "scenarios/ini_text.hpp"
#include "scenarios/scenario_text.hpp"

namespace gputco {

namespace pt = boost::property_tree;

ScenarioTree read_scenario_tree(std::istream& in, ScenarioFormat format, const std::string& file) {
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw ScenarioError(file, 0, "", "cannot read the file");
  const std::string content = checked_scenario_text(std::move(raw), format, file);

  ScenarioTree t;
  t.file = file;
  t.format = format;
  std::istringstream stream(content);
  try {
    if (format == ScenarioFormat::ini) {
      pt::read_ini(stream, t.tree);
      t.lines = ini_key_lines(content);
      strip_inline_comments(t.tree);
    } else {
      pt::read_json(stream, t.tree);
    }
  } catch (const pt::file_parser_error& e) {
    throw ScenarioError(file, static_cast<int>(e.line()), "", "syntax error: " + e.message());
  }

  // property_tree drops an INI section without keys ("[option:b]" whose lines are all
  // commented out): put it back, so it is reported (a missing kind) rather than ignored.
  if (format == ScenarioFormat::ini) {
    for (const auto& [where, line] : t.lines) {
      if (where.empty() || where.back() != '.') continue;
      const std::string name = where.substr(0, where.size() - 1);
      if (t.tree.find(name) == t.tree.not_found()) t.tree.push_back({name, pt::ptree()});
    }
  }
  return t;
}

ScenarioTree read_scenario_tree(const ScenarioSource& source) {
  std::istringstream in(source.content);
  return read_scenario_tree(in, source.format, source.name);
}

}  // namespace gputco
