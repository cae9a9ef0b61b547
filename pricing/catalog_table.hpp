// One CSV file of the catalog's data read into typed rows: the columns of each kind of file,
// every field converted and checked (numbers, dates, enumerations, currencies, ranges, text
// without control characters), every problem kept with its line. Internal to pricing/: the
// catalog builder and the import share it.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "pricing/csv_table.hpp"

namespace gputco::catalog_table {

// ---- Column and table descriptions (mirror pricing/schema.sql) -------------------------------

/// identifier: an id other rows, scenario files and the command line name it by: ASCII letters,
/// digits, '.', '_' and '-', starting with a letter or digit (no spaces: `[device:ID]`,
/// `--set option.gpu=ID` and `gputco fit ID` take it as one word).
enum class Type { text, identifier, decimal, integer, date, choice, currency };
enum class Range { any, positive, non_negative };

struct Column {
  std::string_view name;
  Type type = Type::text;
  bool optional = false;  // empty allowed: '' for text, NULL for numbers
  Range range = Range::any;
  std::vector<std::string_view> choices = {};
  // A column added after files were written: a file without it reads this value in every row.
  std::optional<std::string_view> when_absent = std::nullopt;
};

struct TableSpec {
  std::string_view file;   // in the data directory
  std::string_view table;  // in the database
  bool required = false;
  std::vector<Column> columns;
  std::vector<std::string_view> key;  // columns that identify a row; each key once
  // The key is an id compared ignoring case (devices, models, quants, systems): "H100" and
  // "h100" are the same row.
  bool key_ignores_case = false;
};

// ---- Parsed values ---------------------------------------------------------------------------

using Value = std::variant<std::monostate, std::string, double, std::int64_t>;

struct Row {
  int line = 0;
  std::vector<Value> values;  // in TableSpec::columns order
  std::vector<bool> valid;    // per column: false when the field had a problem
};

struct Table {
  const TableSpec* spec = nullptr;
  std::string path;
  std::vector<Row> rows;

  std::size_t index(std::string_view column) const {
    for (std::size_t i = 0; i < spec->columns.size(); ++i) {
      if (spec->columns[i].name == column) return i;
    }
    throw std::logic_error("no column " + std::string(column));
  }
  const std::string& str(const Row& row, std::string_view column) const {
    return std::get<std::string>(row.values[index(column)]);
  }
  double num(const Row& row, std::string_view column) const {
    const Value& v = row.values[index(column)];
    if (const auto* d = std::get_if<double>(&v)) return *d;
    return static_cast<double>(std::get<std::int64_t>(v));
  }
  // True when every named field of `row` was acceptable: cross-row checks skip the others,
  // whose problem is already reported.
  bool ok(const Row& row, std::initializer_list<std::string_view> columns) const {
    for (std::string_view column : columns) {
      if (!row.valid[index(column)]) return false;
    }
    return true;
  }
  std::optional<double> opt_num(const Row& row, std::string_view column) const {
    const Value& v = row.values[index(column)];
    if (const auto* d = std::get_if<double>(&v)) return *d;
    if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
    return std::nullopt;
  }
  std::optional<std::int64_t> opt_int(const Row& row, std::string_view column) const {
    const Value& v = row.values[index(column)];
    if (const auto* i = std::get_if<std::int64_t>(&v)) return *i;
    return std::nullopt;
  }
};

// Problems of one file, kept with their line so that they can be reported in line order.
struct Problems {
  std::vector<std::pair<int, std::string>> items;
  void add(const std::string& path, int line, std::string_view column, std::string_view what) {
    std::ostringstream msg;
    msg << path << ':' << line << ": " << column << ": " << what;
    items.emplace_back(line, msg.str());
  }
};

/// The shortest text that reads back to `value` (std::to_chars), "?" if it cannot be written.
std::string format_number(double value);
/// 'text', for messages.
std::string in_quotes(std::string_view text);
/// `parts` joined by `sep`.
std::string join(const std::vector<std::string_view>& parts, std::string_view sep);
/// True when `s` starts or ends with a space, a tab or a line break.
bool has_outer_space(std::string_view s);
/// A plain decimal: optional minus, digits, optional dot and digits; nothing else.
std::optional<double> parse_decimal(std::string_view s);
/// A whole number, in full.
std::optional<std::int64_t> parse_integer(std::string_view s);
/// "must be greater than 0, got FIELD" (or 0 or more); "" for Range::any.
std::string range_problem(Range range, std::string_view field);
bool in_range(Range range, double value);

/// Converts one field of `column`; returns nullopt (and records why in `problems`, as
/// "PATH:LINE: column: problem") when it is not acceptable. Text: an apostrophe that our
/// export put before a formula-like cell is removed (csv_text_value), line breaks become LF
/// (lf_line_ends), and a control character is refused (a note keeps tabs and line breaks).
std::optional<Value> convert(const Column& column, const std::string& field,
                             const std::set<std::string, std::less<>>& currencies,
                             const std::string& path, int line, Problems& problems);

/// For a header that has no problem: each column of `spec`, its field's index in `header`
/// (kAbsentColumn: a column absent that has Column::when_absent). nullopt when a column is
/// missing, unknown or repeated (each recorded in `problems` at `header_line`).
inline constexpr std::size_t kAbsentColumn = static_cast<std::size_t>(-1);
std::optional<std::vector<std::size_t>> header_positions(const TableSpec& spec,
                                                         const std::vector<std::string>& header,
                                                         int header_line, const std::string& path,
                                                         Problems& problems);

/// One record of a file of kind `spec` converted (see convert), `positions` from
/// header_positions, `header_size` the header's field count. nullopt (recorded in `problems`)
/// when the record does not have as many fields as the header; a row whose fields have
/// problems is returned with valid = false for them.
std::optional<Row> convert_row(const TableSpec& spec, const std::vector<std::size_t>& positions,
                               std::size_t header_size, const CsvRow& record,
                               const std::set<std::string, std::less<>>& currencies,
                               const std::string& path, Problems& problems);

/// The rows of `csv` (a file of kind `spec`, named `path` in messages): the header checked
/// (missing, unknown and repeated columns), then every row converted. Rows with a problem are
/// kept with valid = false for the fields concerned; a row with the wrong number of fields is
/// dropped with a problem. A column absent from the header that has Column::when_absent reads
/// that value in every row. Each row's text is freed once converted (csv.rows keep their lines
/// but no fields), so that a large file is not held twice.
Table load_table(const TableSpec& spec, CsvTable& csv, const std::string& path,
                 const std::set<std::string, std::less<>>& currencies, Problems& problems);

/// The same, reading the file at `path` first (read_csv_file); a file that cannot be read or
/// parsed is one problem at line 0.
Table load_table(const TableSpec& spec, const std::string& path,
                 const std::set<std::string, std::less<>>& currencies, Problems& problems);

}  // namespace gputco::catalog_table
