#include "scenarios/scenario_text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string_view>

#include "pricing/csv_table.hpp"
#include "pricing/input_file.hpp"

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
  if (!standard_input) source.format = scenario_format(path, "");  // before reading anything
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
  throw ScenarioError(path, 0, "", "unknown scenario format: expected a .ini or .json file");
}

std::string checked_scenario_text(std::string content, ScenarioFormat format,
                                  const std::string& file) {
  // A UTF-8 byte order mark and Windows line endings are harmless: drop them.
  if (content.rfind("\xEF\xBB\xBF", 0) == 0) content.erase(0, 3);
  content.erase(std::remove(content.begin(), content.end(), '\r'), content.end());
  if (content.rfind("\xFF\xFE", 0) == 0 || content.rfind("\xFE\xFF", 0) == 0) {
    throw ScenarioError(file, 0, "", "the file is UTF-16 text; save it as UTF-8");
  }
  if (content.find('\0') != std::string::npos) {
    throw ScenarioError(file, 0, "", "this is not a text file (it contains NUL bytes)");
  }
  // Another 8-bit encoding (Windows-1252, Latin-1): its bytes would reach the workbook and
  // JSON as they are.
  if (const auto bad = first_invalid_utf8(content); bad != std::string_view::npos) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(content[bad]));
    throw ScenarioError(file, line_at(content, bad), "",
                        std::string("not UTF-8 text (byte ") + hex + "); save the file as UTF-8");
  }
  if (content.find_first_not_of(" \t\n") == std::string::npos) {
    throw ScenarioError(file, 0, "", "the file is empty; see scenarios/examples/ for the format");
  }
  if (format == ScenarioFormat::json) check_json_nesting(content, file);
  return content;
}

}  // namespace gputco
