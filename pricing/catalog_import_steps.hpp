// What the imports of every format share (pricing/catalog_import.cpp): the user database opened
// for an import, a stored value compared with an imported one, the test hook inside the import
// transaction; and the import of devices.csv and models.csv (pricing/catalog_import_reference.cpp).
// Internal to pricing/.
#pragma once

#include <SQLiteCpp/SQLiteCpp.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pricing/catalog_import.hpp"
#include "pricing/csv_table.hpp"
#include "pricing/price_book_files.hpp"
#include "pricing/public_catalogs.hpp"

namespace gputco::import_detail {

/// The index of the column named `name` in `columns`. Throws std::logic_error when there is
/// none (a caller's bug: the columns come from our own table descriptions).
int column_index(const std::vector<std::string>& columns, std::string_view name);

/// Whether a value read back from the database is the one a file row holds: numbers as numbers
/// (a 0/1 choice stored as an integer equals its text), text with CR LF read as LF.
bool same_value(const CellValue& stored, const CellValue& incoming);

/// What is wrong with an import's --observed-on (`observed_on`, YYYY-MM-DD or "") against its
/// --as-of (`as_of`), as one problem line; "" when nothing. `why_required` ends the line of a
/// missing date ("files, which carry no dates (...)"); `what` names the rows' figures in the
/// line of a date after `as_of` ("a price", "a figure").
std::string observed_on_problem(const std::string& observed_on, const std::string& as_of,
                                const std::string& why_required, const std::string& what);

/// The test hook documented in catalog_import.hpp (GPUTCO_FAULT_IMPORT_SLEEP_MS): sleeps inside
/// the import transaction, once the rows are written. Does nothing when the variable is unset.
void fault_injection_pause();

/// Opens (creating) the user database at `db_path` to import into, its schema created or
/// migrated inside `transaction` (begun here, IMMEDIATE), the built-in catalog attached.
/// Throws CatalogError (a newer schema, a file SQLite cannot open or lock).
std::unique_ptr<SQLite::Database> open_for_import(const std::string& db_path,
                                                  std::optional<SQLite::Transaction>& transaction);

/// Imports a user's devices.csv or models.csv (`format`; `csv` read whole, its header taken)
/// into the database at `db_path`: every row checked as the built-in files are
/// (catalog_build.hpp check_reference_file), none dated after `as_of` (YYYY-MM-DD), none with
/// a built-in id or alias (`builtin`, the built-in catalog), none replacing a stored row with
/// other figures (the same row again counts as unchanged). Problems go to `problems` (nothing is
/// written when there is one); counts to `report`. Throws CatalogError when the database cannot
/// be written.
void import_reference_rows(const std::string& db_path, ImportFormat format, CsvTable& csv,
                           const std::string& as_of, SQLite::Database& builtin, Problems& problems,
                           ImportReport& report);

}  // namespace gputco::import_detail
