#pragma once
// A terminal table whose columns are as wide as their widest cell (issue #42: the plan's
// tables lost their columns once an option label passed 16 characters).

#include <string>
#include <vector>

namespace gputco {

/// How a column's cells sit in its width: text left, numbers right.
enum class TextAlign { left, right };

/// One column: its header, its alignment and the least width it takes (characters), so that a
/// report keeps its familiar layout and widens a column only for a cell longer than that.
struct TextColumn {
  std::string header;
  TextAlign align = TextAlign::left;
  size_t min_width = 0;
};

/// A table for the terminal. Cells are one-line UTF-8 text; a column's width is the widest of
/// its minimum, header and cells in displayed characters (code points: the reports' arrows, dashes
/// and currency signs are one column each), columns apart by one space, no trailing spaces.
class TextTable {
 public:
  /// columns: at least one. Throws std::invalid_argument when empty.
  explicit TextTable(std::vector<TextColumn> columns);

  /// Adds a row. cells: one per column (fewer are padded with empty cells). Throws
  /// std::invalid_argument when there are more cells than columns.
  void add_row(std::vector<std::string> cells);

  /// The header line and one line per row, each ending in "\n".
  std::string render() const;

  /// The width a cell takes on the terminal: its UTF-8 code points, two columns for the East
  /// Asian Wide and Fullwidth ones (CJK, Hangul, fullwidth forms, emoji; UAX #11), one for
  /// the others. Never throws.
  static size_t display_width(const std::string& text);

 private:
  std::vector<TextColumn> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace gputco
