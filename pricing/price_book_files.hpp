// The two price-file kinds a user book holds (purchase prices, rental offers), and their
// values between CSV, SQLite and text. Internal to pricing/: import and export share them.
#pragma once

#include <string>
#include <vector>

#include "pricing/catalog_build.hpp"
#include "pricing/catalog_import.hpp"

namespace SQLite {
class Column;
}  // namespace SQLite

namespace gputco {

/// A price-file kind: its format, data file of pricing/data, table and key columns.
struct FileKind {
  ImportFormat format;
  const char* data_file;  // "purchase_prices.csv" | "rental_offers.csv"
  const char* table;      // in the database
  std::vector<std::string> key;
};

/// The purchase prices' kind (price_observations).
const FileKind& purchase_kind();
/// The rental offers' kind (rental_offers).
const FileKind& rental_kind();
/// The kind of `format`; throws std::invalid_argument for SkyPilot and gpuhunt.
const FileKind& kind_of(ImportFormat format);

/// A value as CSV text: numbers in their shortest exact form, NULL as "".
std::string cell_text(const CellValue& value);
/// A stored column as a value.
CellValue column_value(const SQLite::Column& column);

}  // namespace gputco
