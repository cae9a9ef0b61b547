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

size_t TextTable::display_width(const std::string& text) {
  size_t width = 0;
  for (unsigned char c : text) width += (c & 0xC0) != 0x80 ? 1 : 0;
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
