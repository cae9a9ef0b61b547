#include "reports/text_table.hpp"

#include <algorithm>
#include <stdexcept>

namespace gputco {

TextTable::TextTable(std::vector<TextColumn> columns) : columns_(std::move(columns)) {
  if (columns_.empty()) throw std::invalid_argument("TextTable: no columns");
}

void TextTable::add_row(std::vector<std::string> cells) {
  if (cells.size() > columns_.size()) {
    throw std::invalid_argument("TextTable: " + std::to_string(cells.size()) + " cells for " +
                                std::to_string(columns_.size()) + " columns");
  }
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

namespace {

/// Whether code point `cp` takes two terminal columns: the East Asian Wide and Fullwidth
/// blocks of Unicode Standard Annex #11 (Hangul Jamo, CJK radicals to Yi, Hangul syllables,
/// CJK compatibility ideographs, vertical and small forms, fullwidth forms, the emoji blocks,
/// the supplementary ideographic planes), as terminals draw them; every other code point one.
bool is_wide(char32_t cp) {
  return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) ||
         (cp >= 0x3041 && cp <= 0xA4CF) || (cp >= 0xAC00 && cp <= 0xD7A3) ||
         (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) ||
         (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6) ||
         (cp >= 0x1F300 && cp <= 0x1F64F) || (cp >= 0x1F900 && cp <= 0x1F9FF) ||
         (cp >= 0x20000 && cp <= 0x3FFFD);
}

}  // namespace

size_t TextTable::display_width(const std::string& text) {
  size_t width = 0;
  for (size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    // The sequence's length from its lead byte; a stray continuation byte counts as one.
    const size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    char32_t cp = length == 1 ? lead : lead & (0x3F >> (length - 1));
    size_t k = 1;
    for (; k < length && i + k < text.size(); ++k) {
      cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    }
    width += is_wide(cp) ? 2 : 1;
    i += k;
  }
  return width;
}

std::string TextTable::render() const {
  std::vector<size_t> widths(columns_.size());
  for (size_t c = 0; c < columns_.size(); ++c) {
    widths[c] = std::max(columns_[c].min_width, display_width(columns_[c].header));
    for (const auto& row : rows_) widths[c] = std::max(widths[c], display_width(row[c]));
  }
  const auto line = [&](const auto& cell_of) {
    std::string out;
    for (size_t c = 0; c < columns_.size(); ++c) {
      const std::string& cell = cell_of(c);
      const std::string pad(widths[c] - display_width(cell), ' ');
      if (c > 0) out += ' ';
      out += columns_[c].align == TextAlign::right ? pad + cell : cell + pad;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line([&](size_t c) -> const std::string& { return columns_[c].header; });
  for (const auto& row : rows_) out += line([&](size_t c) -> const std::string& { return row[c]; });
  return out;
}

}  // namespace gputco
