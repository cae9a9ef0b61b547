// Importing a price file into a user database of price books, layered over the built-in
// catalog by Catalog::open_layered. Our own files are read and written row by row in one
// transaction (one row in memory at a time: gputco issue 20); a file with any problem is
// rejected whole (the transaction rolled back, nothing written).
#pragma once

#include <string>
#include <vector>

#include "pricing/catalog.hpp"

namespace gputco {

/// Thrown when an import file (or its options) has problems: bad input, exit code 2.
/// problems() lists every one, "FILE:LINE: column: problem", in line order; what() holds them
/// one per line and a count. Nothing was written.
class ImportError : public CatalogError {
 public:
  explicit ImportError(std::vector<std::string> problems);
  const std::vector<std::string>& problems() const { return problems_; }

 private:
  std::vector<std::string> problems_;
};

/// The file formats an import reads, told apart by their header.
enum class ImportFormat {
  purchase_prices,  ///< our purchase_prices.csv (pricing/data/README.md)
  rental_offers,    ///< our rental_offers.csv
  skypilot_vms,  ///< SkyPilot catalog vms.csv: InstanceType, AcceleratorName, ... Price, SpotPrice
  gpuhunt,       ///< gpuhunt catalog CSV: instance_name, location, price, ... gpu_name, spot
  devices,       ///< our devices.csv: devices of the user's own (memory_gb, bandwidth_gbps, ...)
  models,        ///< our models.csv: models of the user's own (params_b, layers, ...)
  eurostat_tsv,  ///< Eurostat nrg_pc_205 SDMX-TSV: business electricity tariffs of Europe
  eia_csv,       ///< EIA retail-sales CSV: US electricity tariffs by state and sector
  ecb_xml,       ///< ECB euro foreign exchange reference rates XML
};

/// "purchase_prices", "rental_offers", "skypilot_vms", "gpuhunt", "devices", "models",
/// "eurostat_tsv", "eia_csv" or "ecb_xml".
std::string to_string(ImportFormat format);

/// What an import is told besides the file.
struct ImportOptions {
  /// The price book the rows go into; not empty, no outer whitespace, not kBuiltinBook.
  std::string book = "default";
  /// YYYY-MM-DD: a row observed after this date is rejected as "in the future". The only use of
  /// this date; the CLI passes --as-of or, without it, today's date (the one place a wall
  /// clock is read, and it never reaches a result).
  std::string as_of;
  /// SkyPilot and gpuhunt files carry no dates: the date their prices were observed
  /// (YYYY-MM-DD), required for those formats and ignored for ours.
  std::string observed_on;
  /// SkyPilot and gpuhunt: the provider ("lambda"); empty = from the file name: the name
  /// without its extension ("runpod.csv" -> "runpod"), or for SkyPilot's "vms.csv" the folder
  /// it is in ("catalogs/v7/lambda/vms.csv" -> "lambda").
  std::string provider;
  /// SkyPilot and gpuhunt: the `source` of every row; empty = "<format> <provider>/<file name>".
  std::string source;
  /// false (the default): a new row that fails a plausibility check (Catalog::price_plausibility
  /// outlier or used above new, Catalog::rental_plausibility) refuses the file, the line named;
  /// true (`--accept-outliers`): it is imported and listed in ImportReport::warnings, and a plan
  /// that uses it says so.
  bool accept_outliers = false;
  /// SkyPilot, gpuhunt and the statistics files: false (the default): rows that cannot be
  /// imported refuse the file (ImportIncomplete, exit 1, every such row named); true
  /// (`--allow-skipped`): the other rows are imported and the skipped ones reported.
  bool allow_skipped = false;
  /// Eurostat TSV: the consumption band (nrg_cons) and tax level (tax) imported, and the
  /// semester (YYYY-S1|S2; empty: each country's latest with a value). Defaults: band IC
  /// (500-1,999 MWh a year), excluding VAT and other recoverable taxes, as the built-in
  /// tariffs.
  std::string band = "MWH500-1999";
  std::string tax = "X_VAT";
  std::string period;
  /// EIA CSV: the sector imported (sectorid: COM commercial, IND industrial, RES residential,
  /// ALL).
  std::string sector = "COM";
  /// ECB XML: only days on or after this date (YYYY-MM-DD; empty: every day of the file).
  std::string since;
};

/// A row of a SkyPilot or gpuhunt file that carries an accelerator and is not imported.
struct SkippedRow {
  int line = 0;
  std::string column;  ///< the column that decided it: "AcceleratorName", "gpu_count", ...
  std::string value;   ///< its value as written ("TPU-v4-8", "0.5")
  std::string reason;  ///< why, in words: "not a catalog device", ...
};

/// What an import did.
struct ImportReport {
  ImportFormat format = ImportFormat::purchase_prices;
  std::string book;
  int rows_read = 0;  ///< data rows of the file
  int inserted = 0;   ///< observations added
  int unchanged = 0;  ///< observations already in the book with the same values
  /// Rows that carry an accelerator and were left out (unmapped names, TPUs, fractional
  /// counts, no price, a GCP GPU without a host in its zone): skipped_rows.size().
  int skipped = 0;
  /// Rows without an accelerator: CPU-only instances and GCP's host VM rows (priced into the
  /// GPU offers they host). Not GPU offers: counted, never skipped.
  int without_accelerator = 0;
  /// Statistics rows of another band, tax level, currency, unit or sector than the import asks
  /// for (Eurostat, EIA): counted, not skipped.
  int not_selected = 0;
  /// Every skipped row, in line order (skipped_summary groups them).
  std::vector<SkippedRow> skipped_rows;
  /// The plausibility findings of the book after the import ("implausible: ..." or, for a row
  /// whose note says it was reviewed, "reviewed: ..."): accepted outliers, rows already in the
  /// book, conflicts.
  std::vector<std::string> warnings;
};

/// The skipped rows of `report` grouped by column, value and reason, in the order of their
/// first line, one line each: "FILE:LINES: COLUMN: 'VALUE': REASON (N rows)", LINES the line
/// numbers with runs shortened ("6", "10-17, 20"). Every skipped row is named by its line.
std::vector<std::string> skipped_summary(const ImportReport& report, const std::string& file);

/// Thrown when a SkyPilot or gpuhunt file has rows with an accelerator that cannot be imported
/// (or a statistics file rows without a value or in a withdrawn currency)
/// and ImportOptions::allow_skipped is false: a runtime refusal (exit 1), not bad input; the file
/// may be fine and the catalog lack a device. summary() is skipped_summary's; nothing was
/// written.
class ImportIncomplete : public CatalogError {
 public:
  ImportIncomplete(std::vector<std::string> summary, int skipped);
  const std::vector<std::string>& summary() const { return summary_; }
  int skipped() const { return skipped_; }

 private:
  std::vector<std::string> summary_;
  int skipped_ = 0;
};

/// Per-device amounts at or below this (0.01 in any currency: the typical value of a parsing
/// bug) are rejected by imports and reported by catalog checks.
inline constexpr double kPriceFloor = 0.01;

/// Imports the price file `csv_path` into the book `options.book` of the user database at
/// `db_path`, creating the database (and its folder) with the current schema when it does not
/// exist, migrating it when it is older.
///
/// Checks, each problem reported "FILE:LINE: column: problem": the header (a missing column;
/// for our formats the exact documented columns), every field (numbers, dates, enumerations,
/// currencies of the schema), zero or negative amounts, per-device amounts at or below
/// kPriceFloor, dates after `options.as_of`, devices unknown to the built-in catalog, spot
/// above on-demand for the same offer, keys appearing twice in the file; then, only for a file
/// without any of those, keys already in the book with other values (an observation is never
/// overwritten: give the new figure its own date) and the plausibility of the new rows against
/// every layer (Catalog::price_plausibility outliers and used above new,
/// Catalog::rental_plausibility; unless `options.accept_outliers`). Any problem rejects the
/// whole file: throws ImportError and the database is as it was (not even created). Where the
/// database cannot be opened for writing, the rows are still all checked: a file with problems
/// is ImportError, a good one CatalogError.
///
/// Memory (gputco issue 20): our own formats are read by a CsvReader (one 64 KiB chunk and one
/// row at a time) and each row is inserted as it is read; the checks across rows are made by
/// SQLite on what the transaction holds (a key twice: the conflict of the insert, its first
/// line from a temporary table of row ids and lines, on disk; spot above on-demand: one sorted
/// query), the plausibility checks group by group (pricing/price_plausibility.hpp). What is
/// held grows with the largest group of peers (one device and term), never with the file.
/// SkyPilot and gpuhunt files are read whole (their zones are merged across the file).
///
/// SkyPilot and gpuhunt rows: prices are USD per instance-hour, stored per instance with
/// devices_per_instance = the accelerator count (so the per-device rate is price / count);
/// SkyPilot's Price becomes an on_demand and SpotPrice a spot offer; rows of one instance type
/// and region that repeat per availability zone with the same prices are stored once, zones with
/// different prices get region "REGION/ZONE". Rows without an accelerator (CPU-only, GCP host
/// VMs) are counted in `without_accelerator`. Rows with an accelerator that cannot be imported
/// (a name the catalog has no device for, AcceleratorNames; a TPU; a fractional count; no
/// price; a GCP GPU without a host in its zone) are `skipped_rows`: unless
/// `options.allow_skipped`, they refuse the file (ImportIncomplete: nothing written, exit 1).
///
/// Statistics files (ImportFormat eurostat_tsv, eia_csv, ecb_xml; pricing/statistics_import.hpp)
/// write tariffs or exchange rates, shared by every book of the database: Eurostat's TSV and
/// the ECB's XML are told by their first bytes (not from standard input), EIA's CSV by its
/// header; Eurostat and EIA figures need `options.observed_on`, the ECB's carry their day.
///
/// Writing: WAL journal, a busy timeout of kCatalogBusyTimeoutMs, foreign keys on, one
/// BEGIN IMMEDIATE transaction for the whole file (a concurrent import waits for it, or fails
/// with CatalogError "database is locked" leaving nothing half done); a process killed inside it
/// leaves the database as it was. Rows already in the book with the same values are counted as
/// unchanged, so importing a file twice changes nothing. The device rows referenced are copied
/// from the built-in catalog so that the user database is consistent on its own.
///
/// Test hook: when the environment holds GPUTCO_FAULT_IMPORT_SLEEP_MS=N, the import sleeps N ms
/// inside its transaction, after the inserts and before the commit, having first created the
/// file named by GPUTCO_FAULT_IMPORT_MARKER (if set); tests kill it there.
///
/// Throws ImportError (bad file or options: exit 2), ImportIncomplete (rows skipped without
/// allow_skipped: exit 1), CatalogError (the database cannot be created, read or written, is
/// not a gputco catalog, or is locked too long: exit 1).
ImportReport import_price_book(const std::string& db_path, const std::string& csv_path,
                               const ImportOptions& options);

}  // namespace gputco
