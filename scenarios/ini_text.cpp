#include "scenarios/ini_text.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string_view>

#include "pricing/csv_table.hpp"
#include "scenarios/scenario.hpp"

namespace gputco {

namespace pt = boost::property_tree;

std::string checked_text(std::string content, const std::string& file) {
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
    const auto line =
        1 + std::count(content.begin(), content.begin() + static_cast<std::ptrdiff_t>(bad), '\n');
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(content[bad]));
    throw ScenarioError(file, static_cast<int>(line), "",
                        std::string("not UTF-8 text (byte ") + hex + "); save the file as UTF-8");
  }
  return content;
}

std::map<std::string, int> ini_key_lines(const std::string& content) {
  std::map<std::string, int> lines;
  std::istringstream in(content);
  std::string line, section;
  int number = 0;
  auto trim = [](std::string s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return std::string();
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
  };
  while (std::getline(in, line)) {
    ++number;
    line = trim(line);
    if (line.empty() || line[0] == ';' || line[0] == '#') continue;
    if (line[0] == '[') {
      const auto close = line.find(']');
      section = trim(line.substr(1, close == std::string::npos ? std::string::npos : close - 1));
      lines[section + "."] = number;
      continue;
    }
    const auto eq = line.find('=');
    if (eq != std::string::npos) lines.emplace(section + "." + trim(line.substr(0, eq)), number);
  }
  return lines;
}

void strip_inline_comments(pt::ptree& tree) {
  for (auto& [key, child] : tree) {
    if (child.empty()) {
      std::string value = child.data();
      for (size_t pos = value.find(';'); pos != std::string::npos; pos = value.find(';', pos + 1)) {
        if (pos > 0 && (value[pos - 1] == ' ' || value[pos - 1] == '\t')) {
          value = value.substr(0, pos);
          value.erase(value.find_last_not_of(" \t") + 1);
          break;
        }
      }
      child.data() = value;
    } else {
      strip_inline_comments(child);
    }
  }
}

}  // namespace gputco
