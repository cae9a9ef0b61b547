// Writing a price book back as CSV, importable again.
#pragma once

#include <string>

#include "pricing/catalog_import.hpp"

namespace gputco {

/// Writes the rows of the user database at `db_path` as a CSV file in our format `format`
/// (purchase_prices or rental_offers, columns as pricing/data/README.md), importable again:
/// rows of the book `book` (every book when empty; rows with the same key in two books then
/// both appear, so export one book to import it again), ordered by the key columns, then book;
/// numbers in their shortest exact form, text cells guarded against formulas (csv_text_field:
/// "=1+1" is written "'=1+1", and the import reads it back), so that importing the export into
/// the same book changes nothing. Returns the CSV text. Throws CatalogError when the database
/// cannot be read, std::invalid_argument for another format.
std::string export_price_book(const std::string& db_path, ImportFormat format,
                              const std::string& book);
/// The built-in catalog's rows in our format `format` (as export_price_book).
std::string export_builtin_prices(ImportFormat format);

}  // namespace gputco
