#include "reports/xlsx/cells.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>

namespace gputco {

void check_xlsx(lxw_error error, std::string_view what) {
  if (error != LXW_NO_ERROR) {
    throw XlsxError(std::string(what) + ": " + lxw_strerror(error));
  }
}

namespace {

constexpr std::size_t kMaxCellChars = 32767;
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

/// Length of the valid UTF-8 sequence starting at text[i], or 0 if it is not valid
/// (overlong forms, surrogates and code points above U+10FFFF are invalid).
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  std::size_t length = 0;
  std::uint32_t code = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
    code = b0 & 0x1Fu;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    code = b0 & 0x0Fu;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    code = b0 & 0x07u;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0u) != 0x80u) return 0;
    code = (code << 6) | (byte(i + k) & 0x3Fu);
  }
  if ((length == 3 && code < 0x800) || (length == 4 && code < 0x10000)) return 0;
  if (code >= 0xD800 && code <= 0xDFFF) return 0;
  if (code > 0x10FFFF) return 0;
  return length;
}

}  // namespace

std::string cell_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size() && chars < kMaxCellChars; ++chars) {
    const std::size_t length = utf8_sequence_length(text, i);
    if (length == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    const auto first = static_cast<unsigned char>(text[i]);
    if (length == 1 && (first < 0x20 || first == 0x7F) && first != '\t' && first != '\n') {
      out += kReplacement;
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return out;
}

std::string string_literal(std::string_view text) {
  constexpr std::size_t kMaxBytes = 255;
  std::string out;
  std::string piece;
  const auto flush = [&] {
    out += (out.empty() ? "" : "&") + std::string("\"") + piece + "\"";
    piece.clear();
  };
  std::size_t i = 0;
  while (i < text.size()) {
    // One character: a UTF-8 lead byte and its continuation bytes, or a quote (doubled).
    std::size_t length = 1;
    while (i + length < text.size() &&
           (static_cast<unsigned char>(text[i + length]) & 0xC0) == 0x80) {
      ++length;
    }
    const std::string character =
        text[i] == '"' ? std::string("\"\"") : std::string(text.substr(i, length));
    if (piece.size() + character.size() > kMaxBytes) flush();
    piece += character;
    i += length;
  }
  if (!piece.empty() || out.empty()) flush();
  return out;
}

std::string column_name(lxw_col_t col) {
  std::string name;
  unsigned n = static_cast<unsigned>(col) + 1;
  while (n > 0) {
    const unsigned rem = (n - 1) % 26;
    name.insert(name.begin(), static_cast<char>('A' + rem));
    n = (n - 1) / 26;
  }
  return name;
}

std::string cell_ref(lxw_row_t row, lxw_col_t col, bool abs_row, bool abs_col) {
  return (abs_col ? "$" : "") + column_name(col) + (abs_row ? "$" : "") + std::to_string(row + 1);
}

namespace {
/// A sheet name as formulas need it: always quoted, inner quotes doubled.
std::string quoted_sheet(std::string_view sheet) {
  std::string out = "'";
  for (char c : sheet) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}
}  // namespace

std::string sheet_cell_ref(std::string_view sheet, lxw_row_t row, lxw_col_t col) {
  return quoted_sheet(sheet) + "!" + cell_ref(row, col, true, true);
}

std::string sheet_range_ref(std::string_view sheet, lxw_row_t first_row, lxw_col_t first_col,
                            lxw_row_t last_row, lxw_col_t last_col) {
  return quoted_sheet(sheet) + "!" + cell_ref(first_row, first_col, true, true) + ":" +
         cell_ref(last_row, last_col, true, true);
}

std::string function_call(std::string_view function, const std::vector<std::string>& terms) {
  if (terms.empty()) {
    throw std::invalid_argument("function_call: " + std::string(function) + " of no terms");
  }
  std::vector<std::string> level = terms;
  // Each pass groups the level's terms by 255 into calls, until one call holds them all.
  for (;;) {
    std::vector<std::string> calls;
    for (std::size_t first = 0; first < level.size(); first += kMaxFunctionArguments) {
      const std::size_t last = std::min(level.size(), first + kMaxFunctionArguments);
      std::string call = std::string(function) + "(";
      for (std::size_t k = first; k < last; ++k) call += (k > first ? "," : "") + level[k];
      calls.push_back(call + ")");
    }
    if (calls.size() == 1) return calls.front();
    level = std::move(calls);
  }
}

std::string SheetWriter::where(lxw_row_t row, lxw_col_t col) const {
  return name_ + "!" + cell_ref(row, col);
}

void SheetWriter::text(lxw_row_t row, lxw_col_t col, std::string_view text, lxw_format* format) {
  const std::string clean = cell_text(text);
  if (clean.empty()) {
    // libxlsxwriter writes "" as a blank; say so explicitly.
    if (format != nullptr) blank(row, col, format);
    return;
  }
  check_xlsx(worksheet_write_string(sheet_, row, col, clean.c_str(), format),
             "writing text to " + where(row, col));
}

void SheetWriter::number(lxw_row_t row, lxw_col_t col, double value, lxw_format* format) {
  if (!std::isfinite(value)) {
    text(row, col, kNotAvailable, format);
    return;
  }
  assert(std::isfinite(value));
  check_xlsx(worksheet_write_number(sheet_, row, col, value, format),
             "writing a number to " + where(row, col));
}

void SheetWriter::formula(lxw_row_t row, lxw_col_t col, const std::string& formula, double cached,
                          lxw_format* format) {
  if (!std::isfinite(cached)) {
    text(row, col, kNotAvailable, format);
    return;
  }
  assert(std::isfinite(cached));
  check_xlsx(worksheet_write_formula_num(sheet_, row, col, formula.c_str(), format, cached),
             "writing formula " + formula + " to " + where(row, col));
}

void SheetWriter::formula_text(lxw_row_t row, lxw_col_t col, const std::string& formula,
                               std::string_view cached, lxw_format* format) {
  const std::string clean = cell_text(cached);
  check_xlsx(worksheet_write_formula_str(sheet_, row, col, formula.c_str(), format, clean.c_str()),
             "writing formula " + formula + " to " + where(row, col));
}

void SheetWriter::date(lxw_row_t row, lxw_col_t col, lxw_datetime date, lxw_format* format) {
  check_xlsx(worksheet_write_datetime(sheet_, row, col, &date, format),
             "writing a date to " + where(row, col));
}

void SheetWriter::blank(lxw_row_t row, lxw_col_t col, lxw_format* format) {
  check_xlsx(worksheet_write_blank(sheet_, row, col, format), "formatting " + where(row, col));
}

void SheetWriter::width(lxw_col_t first, lxw_col_t last, double characters, lxw_format* format) {
  check_xlsx(worksheet_set_column(sheet_, first, last, characters, format),
             "setting column widths on " + name_);
}

}  // namespace gputco
