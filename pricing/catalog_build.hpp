// Building the catalog database from the CSV files of pricing/data (or any directory laid
// out the same way, see pricing/data/README.md): every row validated, every problem
// reported as FILE:LINE: column: problem, nothing written unless all rows are good.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pricing/catalog.hpp"

namespace gputco {

/// Schema version of the catalogs this code builds and reads (PRAGMA user_version).
inline constexpr int kCatalogSchemaVersion = 1;
/// PRAGMA application_id of a gputco catalog: 0x47505443, "GPTC".
inline constexpr int kCatalogApplicationId = 0x47505443;

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

/// The catalog schema (pricing/schema.sql), compiled into the library.
std::string_view catalog_schema_sql();

/// Checks every CSV file of `data_dir` without writing anything. devices.csv, models.csv
/// and quants.csv are required; purchase_prices.csv, rental_offers.csv, tariffs.csv and
/// fx_rates.csv are optional (absent = no rows); any other *.csv is a problem.
/// Rules: the header has exactly the documented columns; every row has as many fields as the
/// header; no field has leading or trailing whitespace; required fields are non-empty;
/// numbers are plain decimals with a dot, parsed in full (std::from_chars, no locale); dates
/// are real calendar dates YYYY-MM-DD; enumerations and currency codes are known; ranges
/// hold (amounts > 0, setup fees >= 0, ...); references name a device of devices.csv; no key
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

}  // namespace gputco
