#include "scenarios/user_config.hpp"

#include <algorithm>
#include <boost/property_tree/ini_parser.hpp>
#include <filesystem>
#include <sstream>

#include "pricing/input_file.hpp"
#include "pricing/suggest.hpp"
#include "scenarios/ini_text.hpp"
#include "scenarios/scenario_text.hpp"

namespace gputco {

namespace pt = boost::property_tree;

bool is_per_scenario_key(const std::string& key) {
  for (const char* k : {"name", "as_of", "start", "baseline", "proposed", "customer", "quote_id"}) {
    if (key == k) return true;
  }
  return false;
}

UserConfig load_user_config(const std::string& path) {
  namespace fs = std::filesystem;
  UserConfig config;
  std::error_code error;
  if (path.empty()) return config;
  // Absent (no file, no link): no config. Anything else that cannot be read is named: a
  // folder on the way without permission, a link to nothing (issue #39: they were ignored
  // silently, and the plan took other defaults than the user set).
  const fs::file_status link = fs::symlink_status(path, error);
  if (error || !fs::exists(link)) {
    if (!error || error == std::errc::no_such_file_or_directory ||
        error == std::errc::not_a_directory) {
      return config;
    }
    throw ScenarioError(path, 0, "", "cannot read the config file: " + error.message());
  }
  if (!fs::exists(fs::status(path, error))) {
    throw ScenarioError(path, 0, "",
                        "the config file is a symbolic link to a file that does not exist");
  }
  config.file = path;
  if (fs::is_directory(path, error)) {
    throw ScenarioError(path, 0, "", "this is a directory, not a config file");
  }
  std::string content;
  try {
    content = read_input_file(path, kMaxScenarioBytes, "config file");  // a FIFO is refused
  } catch (const InputFileError& e) {
    throw ScenarioError(path, 0, "", e.what());
  }
  content = checked_text(std::move(content), path);
  pt::ptree tree;
  std::istringstream stream(content);
  try {
    pt::read_ini(stream, tree);
  } catch (const pt::file_parser_error& e) {
    throw ScenarioError(path, static_cast<int>(e.line()), "", "syntax error: " + e.message());
  }
  strip_inline_comments(tree);
  const auto lines = ini_key_lines(content);
  const auto line_of = [&](const std::string& where) {
    const auto it = lines.find(where);
    return it == lines.end() ? 0 : it->second;
  };
  for (const auto& [section, keys] : tree) {
    if (keys.empty() && !keys.data().empty()) {
      throw ScenarioError(path, line_of("." + section), section,
                          "a key outside any section; keys belong in [scenario], [site] or "
                          "[catalog]");
    }
    if (section == "catalog") {
      for (const auto& [key, value] : keys) {
        const int line = line_of("catalog." + key);
        if (key != "path") {
          throw ScenarioError(path, line, "[catalog] " + key,
                              "unknown key" + did_you_mean(key, {"path"}) +
                                  " ([catalog] holds path = DB, the user catalog)");
        }
        if (value.data().empty()) {
          throw ScenarioError(path, line, "[catalog] path", "empty; give the catalog's path");
        }
        fs::path catalog = value.data();
        if (catalog.is_relative()) catalog = fs::path(path).parent_path() / catalog;
        config.catalog_path = catalog.string();
        config.catalog_line = line;
      }
      continue;
    }
    if (section != "scenario" && section != "site") {
      throw ScenarioError(path, line_of(section + "."), "[" + section + "]",
                          "unknown section; a config file holds [scenario], [site] and [catalog]" +
                              did_you_mean(section, {"scenario", "site", "catalog"}));
    }
    for (const auto& [key, value] : keys) {
      const int line = line_of(section + "." + key);
      const std::string where = "[" + section + "] " + key;
      if (!is_scenario_key(section, key)) {
        throw ScenarioError(path, line, where,
                            "unknown key" + did_you_mean(key, scenario_keys(section)));
      }
      if (section == "scenario" && is_per_scenario_key(key)) {
        throw ScenarioError(path, line, where,
                            "belongs in a scenario file, not in the config file (it describes "
                            "one scenario)");
      }
      ScenarioOverride o;
      o.section = section;
      o.key = key;
      o.value = value.data();
      o.origin = ValueOrigin{path, line, "config file " + path + " line " + std::to_string(line)};
      o.only_if_absent = true;
      config.defaults.push_back(std::move(o));
    }
  }
  return config;
}

}  // namespace gputco
