// Reading the catalog's CSV files: RFC 4180 through libcsv, with the physical line of each
// record kept so that every problem can be reported as FILE:LINE.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gputco {

/// One record of a CSV file.
struct CsvRow {
  int line = 0;                     ///< 1-based physical line where the record starts
  std::vector<std::string> fields;  ///< as written, unquoted; nothing trimmed
};

/// A whole CSV file: the header record and the data records after it.
struct CsvTable {
  std::string path;                 ///< as given to read_csv_file, used in messages
  int header_line = 0;              ///< 0 when the file has no record at all
  std::vector<std::string> header;  ///< column names
  std::vector<CsvRow> rows;         ///< data records, in file order
  /// Index of `column` in the header, nullopt when absent.
  std::optional<std::size_t> column(std::string_view name) const;
};

/// Parses CSV text (RFC 4180: quoted fields may hold commas, quotes and line breaks).
/// A leading UTF-8 byte order mark is skipped; CRLF and LF line ends are both accepted;
/// blank lines are skipped; fields are kept exactly (no whitespace trimming).
/// `path` only labels messages. Throws CatalogError "PATH:LINE: csv: malformed CSV: ..." on a
/// syntax error (e.g. a stray quote or an unterminated quoted field).
CsvTable parse_csv(std::string_view text, const std::string& path);

/// Offset of the first byte of `text` that is not part of valid UTF-8 (RFC 3629: overlong
/// forms, surrogates and code points above U+10FFFF are invalid), npos when all is valid.
/// Shared by the CSV reader and the scenario reader.
std::size_t first_invalid_utf8(std::string_view text);

/// One RFC 4180 field as written: `text` unchanged unless it holds a comma, a quote or a line
/// break, then quoted with its quotes doubled. The one CSV writer of the project (catalog
/// export, `plan --format csv`): parse_csv reads it back to `text`. Throws nothing.
std::string csv_field(std::string_view text);

/// Reads and parses the file at `path` (see parse_csv). Throws CatalogError when the file
/// cannot be read or is malformed.
CsvTable read_csv_file(const std::string& path);

}  // namespace gputco
