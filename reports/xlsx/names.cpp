#include "reports/xlsx/names.hpp"

#include <cstddef>

namespace gputco {
namespace {

constexpr std::size_t kMaxNameLength = 255;

bool is_ascii_letter(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_name_char(char c) {
  return is_ascii_letter(c) || is_digit(c) || c == '_' || c == '.';
}

char fold(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string folded(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = fold(c);
  return out;
}

/// "A1".."XFD1048576" style: 1-3 letters then digits. Rejected whatever the column's
/// range, because a spreadsheet with more columns would read it as a cell.
bool looks_like_a1(std::string_view name) {
  std::size_t letters = 0;
  while (letters < name.size() && is_ascii_letter(name[letters])) ++letters;
  if (letters == 0 || letters > 3 || letters == name.size()) return false;
  for (std::size_t i = letters; i < name.size(); ++i) {
    if (!is_digit(name[i])) return false;
  }
  return true;
}

/// "R", "C", "R1", "C1", "R1C1", "RC": R1C1-style references.
bool looks_like_r1c1(std::string_view name) {
  std::size_t i = 0;
  bool any = false;
  if (i < name.size() && fold(name[i]) == 'r') {
    ++i;
    any = true;
    while (i < name.size() && is_digit(name[i])) ++i;
  }
  if (i < name.size() && fold(name[i]) == 'c') {
    ++i;
    any = true;
    while (i < name.size() && is_digit(name[i])) ++i;
  }
  return any && i == name.size();
}

bool is_reserved(std::string_view name) {
  const std::string f = folded(name);
  return f == "true" || f == "false" || looks_like_a1(name) || looks_like_r1c1(name);
}

}  // namespace

bool is_valid_defined_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxNameLength) return false;
  if (!is_ascii_letter(name[0]) && name[0] != '_') return false;
  for (char c : name) {
    if (!is_name_char(c)) return false;
  }
  return !is_reserved(name);
}

std::string to_defined_name(std::string_view text) {
  std::string name;
  name.reserve(text.size() + 1);
  for (char c : text) name += is_name_char(c) ? c : '_';
  if (name.empty() || !(is_ascii_letter(name[0]) || name[0] == '_') || is_reserved(name)) {
    name.insert(name.begin(), '_');
  }
  if (name.size() > kMaxNameLength) name.resize(kMaxNameLength);
  return name;
}

std::string DefinedNames::claim(std::string_view wanted) {
  std::string base = to_defined_name(wanted);
  std::string name = base;
  for (int suffix = 2; contains(name); ++suffix) {
    const std::string tail = "_" + std::to_string(suffix);
    name = base.substr(0, kMaxNameLength - tail.size()) + tail;
  }
  folded_.insert(folded(name));
  return name;
}

bool DefinedNames::contains(std::string_view name) const {
  return folded_.count(folded(name)) > 0;
}

}  // namespace gputco
