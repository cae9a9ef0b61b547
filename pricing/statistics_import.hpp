// Reading the files the statistics offices publish, as they publish them, into tariffs and
// exchange rates of the user catalog (gputco issue 38: a user refreshes the catalog next
// quarter from the same file): Eurostat's SDMX-TSV (nrg_pc_205, electricity prices for
// non-household consumers), the U.S. EIA's retail-sales CSV (API v2 / Open Data browser), and
// the ECB's euro foreign exchange reference rates XML (eurofxref-daily.xml, -hist-90d.xml,
// -hist.xml). Internal to pricing/catalog_import.cpp.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "pricing/catalog_import.hpp"
#include "pricing/csv_table.hpp"
#include "pricing/public_catalogs.hpp"

namespace SQLite {
class Database;
}

namespace gputco::import_detail {

/// The format of a file told by its first bytes: an ECB reference-rates XML (an XML envelope
/// naming the ECB's eurofxref vocabulary or "Reference rates") or a Eurostat SDMX-TSV (a
/// tab-separated header whose first cell lists the dimensions and ends "geo\TIME_PERIOD" or
/// "geo\time"); nullopt for anything else (a CSV: told by its header). Reads at most 64 KiB of a
/// regular file; "-" (standard input) is never sniffed.
std::optional<ImportFormat> sniff_statistics_format(const std::string& path);

/// True when a CSV header has the columns of EIA's retail-sales data (period, stateid, sectorid,
/// price).
bool is_eia_retail_sales(const std::vector<std::string>& header);

/// One tariff to write (tariffs.csv columns).
struct TariffRow {
  int line = 0;
  std::string id;
  std::string region;
  double amount_per_kwh = 0;
  std::string currency;
  std::string observed_on;
  std::string source;
  std::string note;
};

/// One exchange rate to write (fx_rates.csv columns): 1 base = rate quote.
struct FxRow {
  int line = 0;
  std::string base;
  std::string quote;
  double rate = 0;
  std::string observed_on;
  std::string source;
};

/// The tariffs of a Eurostat nrg_pc_205 SDMX-TSV `text` (read from `file`): the rows of
/// `options.band` (nrg_cons, default MWH500-1999: band IC), `options.tax` (default X_VAT:
/// excluding VAT and other recoverable taxes), currency EUR and unit KWH, one tariff per geo:
/// id "<geo>-business" (EL is gr, UK gb, EU27_2020 eu, lower case), the value of
/// `options.period` (YYYY-S1|S2) or else the latest period with a value, its flags in the note
/// (p provisional, e estimated, ...), observed on `options.observed_on` (the date the file was
/// published or downloaded). A file of another product (siec other than E7000) or without the
/// dimensions is a problem of its header; a value that is not a number a problem of its line;
/// a geo of the band with no value (":", confidential "c") a skipped row.
std::vector<TariffRow> read_eurostat_tsv(const std::string& text, const std::string& file,
                                         const ImportOptions& options, Problems& problems,
                                         ImportReport& report);

/// The tariffs of an EIA retail-sales CSV (period, stateid, stateDescription, sectorid,
/// sectorName, price, price-units): the rows of sector `options.sector` (default COM), one per
/// state, the latest period (YYYY-MM or YYYY), price in cents/kWh / 100 USD: id
/// "us-<state>-<sector name>" ("us-va-commercial"; the U.S. total "us-commercial"), observed on
/// `options.observed_on` (EIA's release date). price-units other than cents per kilowatt-hour
/// is a problem; a row without a price a skipped row.
std::vector<TariffRow> read_eia_csv(const CsvTable& csv, const ImportOptions& options,
                                    Problems& problems, ImportReport& report);

/// The rates of an ECB reference-rates XML `text`: one per <Cube currency='X' rate='R'/> under
/// its <Cube time='YYYY-MM-DD'>, base EUR, on or after `options.since` when given; a day after
/// options.as_of is a problem, as a price in the future; a currency not in `currencies` (the
/// catalog's ISO 4217 table: withdrawn ones such as HRK, BGN) a skipped row. No day at all: a
/// problem (not an ECB file).
std::vector<FxRow> read_ecb_xml(const std::string& text, const std::string& file,
                                const ImportOptions& options,
                                const std::vector<std::string>& currencies, Problems& problems,
                                ImportReport& report);

/// Writes tariffs or rates into the user database at `db_path` (open_for_import: created or
/// migrated, one transaction): a row already there with the same key (id and date; base,
/// quote and date) and the same values is unchanged, with other values a problem of its line
/// (an observation is never overwritten); nothing is written when there is a problem. Counts
/// in `report`. Throws CatalogError when the database cannot be written.
void write_tariffs(const std::string& db_path, const std::vector<TariffRow>& rows,
                   Problems& problems, ImportReport& report);
void write_fx_rates(const std::string& db_path, const std::vector<FxRow>& rows, Problems& problems,
                    ImportReport& report);

/// The import of a statistics file (`format`: eurostat_tsv, eia_csv or ecb_xml) at `path`
/// (`file` names it in messages; `csv`: the EIA file's CSV reader with its `header` read, else
/// unused) into the user database at `db_path`, as import_price_book documents. `cleanup` is
/// called before a refusal is thrown (it removes a database the import created). Throws
/// ImportError, ImportIncomplete, CatalogError.
void import_statistics(const std::string& db_path, const std::string& path, const std::string& file,
                       ImportFormat format, CsvTable* csv, const ImportOptions& options,
                       ImportReport& report, const std::function<void()>& cleanup);

}  // namespace gputco::import_detail
