// Checked cell writing for libxlsxwriter: every write's error code is checked, user text
// is always a string, and no NaN or infinity ever reaches a cell.
#pragma once

#include <xlsxwriter.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gputco {

/// A libxlsxwriter call failed; write_workbook turns it into a ReportError with the path.
class XlsxError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Throws XlsxError naming `what` unless `error` is LXW_NO_ERROR.
void check_xlsx(lxw_error error, std::string_view what);

/// Text as a cell can hold it: valid UTF-8 (bad bytes become U+FFFD), control characters
/// other than tab and newline replaced by U+FFFD (XML cannot carry them), at most 32767
/// characters (Excel's cell limit).
std::string cell_text(std::string_view text);

/// Column letters of a zero-based column index: 0 -> "A", 26 -> "AA".
std::string column_name(lxw_col_t col);

/// An A1 reference; `abs_row`/`abs_col` add the '$' anchors. (1, 2) -> "C2".
std::string cell_ref(lxw_row_t row, lxw_col_t col, bool abs_row = false, bool abs_col = false);

/// An absolute reference to a cell on `sheet`: "'Cash flow'!$C$5".
std::string sheet_cell_ref(std::string_view sheet, lxw_row_t row, lxw_col_t col);

/// An absolute reference to a range on `sheet`: "'Cash flow'!$C$5:$Z$5".
std::string sheet_range_ref(std::string_view sheet, lxw_row_t first_row, lxw_col_t first_col,
                            lxw_row_t last_row, lxw_col_t last_col);

/// Excel and LibreOffice take at most 255 arguments in one function call (Excel's
/// "Specifications and limits": arguments in a function, 255; LibreOffice answers Err:512
/// beyond it).
inline constexpr std::size_t kMaxFunctionArguments = 255;

/// `function`(terms...) without the leading "=", nested so that no call holds more than
/// kMaxFunctionArguments arguments: FN(FN(t1, ..., t255), FN(t256, ...)), for a function that
/// nesting leaves unchanged (AND, OR, SUM, MIN, MAX). `terms` are formulas, in order; a list
/// of at most 255 gives the plain call. Throws std::invalid_argument when `terms` is empty.
std::string function_call(std::string_view function, const std::vector<std::string>& terms);

/// `text` as a formula's string expression: "\"...\"" with its quotes doubled, cut into
/// pieces of at most 255 bytes joined by & (Excel's limit on a string constant in a formula),
/// never inside a UTF-8 sequence. "" gives "\"\"". Throws nothing but bad_alloc.
std::string string_literal(std::string_view text);

/// The text shown instead of a number that does not exist (nullopt, NaN, infinity).
inline constexpr std::string_view kNotAvailable = "n/a";

/// One worksheet, written only through checked calls.
class SheetWriter {
 public:
  SheetWriter(lxw_worksheet* sheet, std::string name) : sheet_(sheet), name_(std::move(name)) {}

  /// Writes `text` as a string, never as a formula, whatever its first character.
  void text(lxw_row_t row, lxw_col_t col, std::string_view text, lxw_format* format = nullptr);
  /// Writes a number; a NaN or infinity is written as the text "n/a" instead.
  void number(lxw_row_t row, lxw_col_t col, double value, lxw_format* format = nullptr);
  /// Writes a live formula with `cached` as its stored result; if `cached` is not finite
  /// the cell gets the text "n/a" instead (no NaN in a file, and no formula whose stored
  /// result would be a lie).
  void formula(lxw_row_t row, lxw_col_t col, const std::string& formula, double cached,
               lxw_format* format = nullptr);
  /// Writes a live formula whose stored result is the text `cached` ("n/a", "never", an
  /// option's name): a formula that gives text in some cases and a number in others.
  void formula_text(lxw_row_t row, lxw_col_t col, const std::string& formula,
                    std::string_view cached, lxw_format* format = nullptr);
  /// Writes a date (no time of day).
  void date(lxw_row_t row, lxw_col_t col, lxw_datetime date, lxw_format* format = nullptr);
  /// Writes an empty cell that carries a format.
  void blank(lxw_row_t row, lxw_col_t col, lxw_format* format);
  /// Sets the width of columns first..last, in characters.
  void width(lxw_col_t first, lxw_col_t last, double characters, lxw_format* format = nullptr);

  lxw_worksheet* raw() const { return sheet_; }
  const std::string& name() const { return name_; }

 private:
  std::string where(lxw_row_t row, lxw_col_t col) const;
  lxw_worksheet* sheet_;
  std::string name_;
};

}  // namespace gputco
