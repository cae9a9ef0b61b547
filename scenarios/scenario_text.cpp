#include "scenarios/scenario_text.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "pricing/input_file.hpp"
#include "scenarios/ini_text.hpp"

namespace gputco {

namespace {

int line_at(const std::string& content, std::size_t offset) {
  return static_cast<int>(
      1 + std::count(content.begin(), content.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

/// Refuses JSON nested deeper than kMaxJsonNesting, counting brackets outside strings.
void check_json_nesting(const std::string& content, const std::string& file) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < content.size(); ++i) {
    const char c = content[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxJsonNesting) {
        throw ScenarioError(file, line_at(content, i), "",
                            "nested deeper than " + std::to_string(kMaxJsonNesting) +
                                " levels of { and [; a scenario is an object of sections, each "
                                "an object of keys (two levels)");
      }
    } else if (c == '}' || c == ']') {
      depth = std::max(0, depth - 1);
    }
  }
}

}  // namespace

ScenarioSource read_scenario_source(const std::string& path) {
  ScenarioSource source;
  const bool standard_input = is_standard_input(path);
  source.name = standard_input ? kStandardInputScenarioName : path;
  if (!standard_input) {
    try {
      source.format = scenario_format(path, "");  // before reading anything
    } catch (const ScenarioError&) {
      // A missing file or a directory says so, whatever its name ends in (newcomer7: a
      // directory was "unknown scenario format"); a file of another kind gets the format's.
      try {
        regular_file_size(path, "scenario file");
      } catch (const InputFileError& e) {
        throw ScenarioError(source.name, 0, "", e.what());
      }
      throw;
    }
  }
  try {
    source.content = read_input_file(path, kMaxScenarioBytes, "scenario file");
  } catch (const InputFileError& e) {
    throw ScenarioError(source.name, 0, "", e.what());
  }
  if (standard_input) source.format = scenario_format(path, source.content);
  return source;
}

ScenarioFormat scenario_format(const std::string& path, const std::string& content) {
  if (is_standard_input(path)) {
    std::string_view text = content;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    const auto first = text.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && text[first] == '{' ? ScenarioFormat::json
                                                                 : ScenarioFormat::ini;
  }
  const auto dot = path.rfind('.');
  std::string ext = dot == std::string::npos ? "" : path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == "ini") return ScenarioFormat::ini;
  if (ext == "json") return ScenarioFormat::json;
  if (ext == "xlsx" || ext == "xls" || ext == "ods") {
    // Newcomer: `gputco diff old.xlsx new.xlsx` said only "unknown scenario format".
    throw ScenarioError(path, 0, "",
                        "a workbook is gputco's output, not a scenario: give the scenario (.ini "
                        "or .json) it was planned from, or, to compare two plans, their JSON "
                        "(gputco plan SCENARIO --json > plan.json)");
  }
  throw ScenarioError(path, 0, "",
                      "unknown scenario format: expected a .ini or .json file (or - for "
                      "standard input)");
}

std::string checked_scenario_text(std::string content, ScenarioFormat format,
                                  const std::string& file) {
  content = checked_text(std::move(content), file);
  if (content.find_first_not_of(" \t\n") == std::string::npos) {
    throw ScenarioError(file, 0, "", "the file is empty; see scenarios/examples/ for the format");
  }
  if (format == ScenarioFormat::json) check_json_nesting(content, file);
  return content;
}

}  // namespace gputco
