// Building the catalog database from the CSV files of pricing/data (or any directory laid
// out the same way, see pricing/data/README.md): every row validated, every problem
// reported as FILE:LINE: column: problem, nothing written unless all rows are good.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "pricing/catalog.hpp"
#include "pricing/catalog_schema.hpp"
#include "pricing/csv_table.hpp"

namespace SQLite {
class Statement;
}

namespace gputco {

/// Thrown when catalog data has problems. what() holds every problem, one per line;
/// problems() gives them one by one, each "FILE:LINE: column: problem", in file order
/// (devices, models, quants, purchase_prices, rental_offers, tariffs, fx_rates), by line.
class CatalogBuildError : public CatalogError {
 public:
  explicit CatalogBuildError(std::vector<std::string> problems);
  const std::vector<std::string>& problems() const { return problems_; }

 private:
  std::vector<std::string> problems_;
};

/// Checks every CSV file of `data_dir` without writing anything. devices.csv, models.csv
/// and quants.csv are required; purchase_prices.csv, rental_offers.csv, tariffs.csv,
/// fx_rates.csv, systems.csv, system_prices.csv and resale_curves.csv are optional (absent = no
/// rows); any other *.csv is a problem.
/// Rules: the header has exactly the documented columns; every row has as many fields as the
/// header; no field has leading or trailing whitespace; required fields are non-empty;
/// numbers are plain decimals with a dot, parsed in full (std::from_chars, no locale); dates
/// are real calendar dates YYYY-MM-DD; enumerations and currency codes are known; ranges
/// hold (amounts > 0, setup fees >= 0, ...); references name a device of devices.csv (a system
/// of systems.csv for system_prices.csv); no key
/// appears twice; a spot rate is not above the on-demand rate of the same provider, device,
/// region and date (per device, same billing and currency; the same sku's on-demand offer when
/// there is one, else the dearest on-demand offer).
/// Returns the problems ("FILE:LINE: column: problem"), empty when the data is good. Throws
/// CatalogError only when the directory itself cannot be read.
std::vector<std::string> check_catalog_data(const std::string& data_dir);

/// Builds a catalog database at `db_path` from the CSV files of `data_dir`: checks them
/// (see check_catalog_data), creates the schema, inserts every row in one transaction, then
/// VACUUMs. Writes `db_path`.tmp and renames it over `db_path`, so `db_path` is either the
/// old file or a complete catalog. Throws CatalogBuildError listing every problem of the data
/// (nothing is written), CatalogError when the database cannot be written.
void build_catalog(const std::string& data_dir, const std::string& db_path);

/// True when `text` is a valid calendar date written YYYY-MM-DD (leap years included).
bool is_iso_date(std::string_view text);

/// A field value as stored: NULL (empty optional number), text, real or integer.
using CellValue = std::variant<std::monostate, std::string, double, std::int64_t>;

/// Binds `value` (NULL, text, real, integer) to parameter `index` (1-based) of `q`.
void bind_value(SQLite::Statement& q, int index, const CellValue& value);

/// One data row of a checked file: values in the order of the file kind's documented columns.
struct CheckedRow {
  int line = 0;                   ///< 1-based line of the file where the record starts
  std::vector<CellValue> values;  ///< one per column of CheckedTable::columns
  bool ok = false;                ///< false when a field of the row had a problem
};

/// A price file ("purchase_prices.csv" or "rental_offers.csv", see pricing/data/README.md) read
/// row by row from a CsvReader, one row in memory at a time: each row checked by the rules of
/// check_catalog_data that concern the row alone (fields, ranges, enumerations, currencies,
/// device references against `device_ids`, spot offers billed hourly). The rules that compare
/// rows (duplicate keys, spot above on-demand) are the import's, made in SQL on the rows it
/// has written (pricing/catalog_import.cpp).
class PriceFileReader {
 public:
  /// `header` is the file's first record (CsvReader::next); `device_list` says where the ids
  /// come from, for messages. Problems of the header are appended to `problems` (line, "PATH:
  /// LINE: column: problem"); header_ok() is false then and next() reads nothing. Throws
  /// std::invalid_argument for another `file_name`.
  PriceFileReader(std::string_view file_name, CsvReader& csv, const CsvRow& header,
                  const std::set<std::string, std::less<>>& device_ids, std::string device_list,
                  std::vector<std::pair<int, std::string>>& problems);
  PriceFileReader(const PriceFileReader&) = delete;
  PriceFileReader& operator=(const PriceFileReader&) = delete;
  ~PriceFileReader();
  bool header_ok() const;
  /// The documented columns of the file kind, in order: the order of CheckedRow::values.
  const std::vector<std::string>& columns() const;
  /// The next row (a record with the wrong number of fields is a problem, not a row); false at
  /// the end of the file. Every problem of the row is appended to `problems`, and the row
  /// comes with ok = false. Throws CatalogError from the CsvReader (malformed CSV, not UTF-8).
  bool next(CheckedRow& row);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The rows of a checked file, in file order.
struct CheckedTable {
  std::vector<std::string> columns;  ///< the documented columns of the file kind, in order
  std::vector<CheckedRow> rows;
};

/// A devices.csv or models.csv (`file_name`; pricing/data/README.md) a user imports, read whole
/// from `csv` (small files: a row per part) and checked by the rules of check_catalog_data for
/// that file: header, fields (source and observed_on required in every row), ids given twice
/// (ignoring case), figures beyond any part (engine figure_problem: memory above 16384 GB, a
/// unit slip), and for models the consistency of the architecture (active_params_b <=
/// params_b, experts_active <= experts, ...) and the Hugging Face aliases. Every problem is
/// appended to `problems` (line, "PATH:LINE: column: problem"); a row with one has ok = false.
/// Throws std::invalid_argument for another `file_name`.
CheckedTable check_reference_file(std::string_view file_name, CsvTable& csv,
                                  std::vector<std::pair<int, std::string>>& problems);

/// The documented columns of a data file kind ("rental_offers.csv"), in order. Throws
/// std::invalid_argument for an unknown kind.
std::vector<std::string> data_file_columns(std::string_view file_name);

/// The ISO 4217 codes of the schema's currencies table.
std::set<std::string, std::less<>> catalog_currencies();

}  // namespace gputco
