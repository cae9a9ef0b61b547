// Reading the catalog's CSV files: RFC 4180 through libcsv, with the physical line of each
// record kept so that every problem can be reported as FILE:LINE.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
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

/// A number we format ourselves (digits, a sign, a dot, an exponent) as one RFC 4180 field:
/// unchanged unless it holds a comma, a quote or a line break, then quoted with its quotes
/// doubled (parse_csv reads it back). Never for text from people, files or the catalog:
/// every CSV writer of the project (catalog export, catalog list, plan and sweep --format
/// csv) writes text through csv_text_field, the one guard against formulas. Throws nothing.
std::string csv_number_field(std::string_view text);

/// A text cell (an id, a name, a note, a source) as a CSV field that a spreadsheet opening the
/// file will not run as a formula (OWASP, "CSV Injection"): a cell starting with '=', '+',
/// '-', '@', a tab or a carriage return gets a leading apostrophe ("=1+1" -> "'=1+1",
/// "-2+3" -> "'-2+3"), and so does a cell that starts with an apostrophe followed by one of
/// those or another apostrophe, so that csv_text_value gives every text back exactly; then
/// quoted as csv_number_field quotes. Numbers we format ourselves are written with
/// csv_number_field: a negative number stays a number. Throws nothing.
std::string csv_text_field(std::string_view text);

/// The text a csv_text_field cell holds: one leading apostrophe removed when it is followed by
/// '=', '+', '-', '@', a tab, a carriage return or another apostrophe; anything else as it
/// is. The import of our own price files reads text cells through it, so that an exported
/// book imports again unchanged. Throws nothing.
std::string csv_text_value(std::string_view field);

/// `text` with Windows (CR LF) and old Mac (CR) line ends as LF: a quoted field that spans
/// lines is the same text whichever system saved the file. Throws nothing.
std::string lf_line_ends(std::string_view text);

/// The problem of a record of `fields` fields under a header of `header_fields`: "N fields, but
/// the header has M", the text every reader of a CSV file reports after "FILE:LINE: row: " (the
/// caller adds the file, the line and the "row" column); nullopt when the counts match. Throws
/// nothing but std::bad_alloc.
std::optional<std::string> row_width_problem(std::size_t fields, std::size_t header_fields);

/// Largest CSV file read (a price file to import, a data file of the catalog): 256 MiB, about
/// two million rows of a SkyPilot vms.csv (120 bytes a row). Larger files, FIFOs and devices
/// are refused before they are read.
inline constexpr std::size_t kMaxCsvFileBytes = std::size_t{256} * 1024 * 1024;

/// Reads and parses the file at `path` ("-": standard input, named <stdin> in messages) (see
/// parse_csv), a regular file of at most kMaxCsvFileBytes (input_file.hpp). Throws
/// CatalogError when the file cannot be read, is not a regular file, is too large or is
/// malformed.
CsvTable read_csv_file(const std::string& path);

/// Bytes a CsvReader reads from its file at a time: what it holds besides the record it
/// returns, whatever the file's size.
inline constexpr std::size_t kCsvChunkBytes = 64 * 1024;

/// A CSV text read record by record, as parse_csv reads it (the same rules and messages), from
/// a file (open_csv_file) or a text: one chunk of kCsvChunkBytes and one record in memory at a
/// time, so that an import of a million rows holds no more than one of a hundred (gputco issue
/// 20). The checks that parse_csv makes on the whole text (UTF-16, NUL bytes, UTF-8) are made
/// chunk by chunk, before the chunk is parsed, with the same line numbers.
class CsvReader {
 public:
  /// `source` fills a buffer and returns how many bytes it wrote, 0 at the end (it may throw
  /// CatalogError). `path` only labels messages.
  CsvReader(std::string path, std::function<std::size_t(char*, std::size_t)> source);
  CsvReader(CsvReader&&) noexcept;
  CsvReader& operator=(CsvReader&&) noexcept;
  ~CsvReader();
  /// As given: the name in messages.
  const std::string& path() const;
  /// The next record (the header is the first), false at the end of the text. Throws
  /// CatalogError "PATH:LINE: csv: ..." for malformed CSV or text that is not UTF-8.
  bool next(CsvRow& row);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// The rest of `reader`'s records as a table whose header is `header` (the record the caller
/// read first): for files checked or merged across all their rows. Throws CatalogError as
/// CsvReader::next does.
CsvTable read_rows_after(CsvReader& reader, CsvRow header);

/// A CsvReader over the file at `path` ("-": standard input, named <stdin>), opened as
/// read_csv_file opens it (a regular file of at most kMaxCsvFileBytes). Throws CatalogError
/// "PATH: ..." when it cannot be opened.
CsvReader open_csv_file(const std::string& path);

}  // namespace gputco
