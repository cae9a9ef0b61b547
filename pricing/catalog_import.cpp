#include "pricing/catalog_import.hpp"

#include <unistd.h>

#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <utility>

#include "pricing/catalog_build.hpp"
#include "pricing/catalog_file.hpp"
#include "pricing/catalog_schema.hpp"
#include "pricing/catalog_table.hpp"
#include "pricing/csv_table.hpp"
#include "pricing/embedded.hpp"
#include "pricing/input_file.hpp"
#include "pricing/price_book_files.hpp"
#include "pricing/price_plausibility.hpp"
#include "pricing/public_catalogs.hpp"
#include "pricing/visible_text.hpp"

namespace gputco {

namespace fs = std::filesystem;

namespace {

using import_detail::format_number;
using import_detail::in_quotes;
using import_detail::Offer;
using import_detail::Problems;

// One observation to write: the columns of our file kind, in order.
struct Record {
  int line = 0;
  std::vector<CellValue> values;
};

int column_index(const std::vector<std::string>& columns, std::string_view name) {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == name) return static_cast<int>(i);
  }
  throw std::logic_error("no column " + std::string(name));
}

std::set<std::string, std::less<>> builtin_device_ids(SQLite::Database& builtin) {
  std::set<std::string, std::less<>> ids;
  SQLite::Statement q(builtin, "SELECT id FROM devices ORDER BY id");
  while (q.executeStep()) ids.insert(q.getColumn(0).getString());
  return ids;
}

constexpr const char* kDeviceList =
    "not a device of the built-in catalog: gputco catalog list gpus";

// ---- Our own formats ------------------------------------------------------------------------

std::vector<Record> read_own_format(const FileKind& kind, CsvTable& csv,
                                    const std::set<std::string, std::less<>>& device_ids,
                                    const ImportOptions& options, Problems& problems,
                                    ImportReport& report) {
  const std::string& path = csv.path;
  std::vector<std::string> found;
  CheckedTable table = check_data_file(kind.data_file, csv, device_ids, kDeviceList, found);
  for (std::string& problem : found) {
    // "PATH:LINE: ..." -> LINE, to merge with the problems below in line order.
    int line = 0;
    const std::size_t at = path.size() + 1;
    if (problem.size() > at)
      std::from_chars(problem.data() + at, problem.data() + problem.size(), line);
    problems.items.emplace_back(line, std::move(problem));
  }
  report.rows_read = static_cast<int>(table.rows.size());
  const int observed = column_index(table.columns, "observed_on");
  const int amount = column_index(table.columns, "amount");
  const int per = kind.format == ImportFormat::rental_offers
                      ? column_index(table.columns, "devices_per_instance")
                      : -1;
  std::vector<Record> records;
  for (CheckedRow& row : table.rows) {
    const auto* date = std::get_if<std::string>(&row.values[static_cast<std::size_t>(observed)]);
    if (date != nullptr && *date > options.as_of) {
      problems.add(row.line, "observed_on",
                   *date + " is after the import date " + options.as_of +
                       " (--as-of, default today): a price cannot be observed in the future");
      row.ok = false;
    }
    const auto* value = std::get_if<double>(&row.values[static_cast<std::size_t>(amount)]);
    if (value != nullptr && *value > 0) {
      double per_device = *value;
      if (per >= 0) {
        if (const auto* n = std::get_if<std::int64_t>(&row.values[static_cast<std::size_t>(per)]);
            n != nullptr && *n > 0) {
          per_device /= static_cast<double>(*n);
        }
      }
      if (per_device <= kPriceFloor) {
        problems.add(row.line, "amount",
                     format_number(per_device) + " per device is at or below the floor " +
                         format_number(kPriceFloor) + " (the typical value of a parsing bug)");
        row.ok = false;
      }
    }
    records.push_back({row.line, std::move(row.values)});
  }
  return records;
}

std::vector<Record> offers_to_records(const std::vector<Offer>& offers, const std::string& provider,
                                      const ImportOptions& options, const std::string& source) {
  std::vector<Record> records;
  for (const Offer& o : offers) {
    records.push_back({o.line,
                       {CellValue{provider}, CellValue{o.sku}, CellValue{o.device_id},
                        CellValue{static_cast<std::int64_t>(o.count)},
                        CellValue{std::string("hourly")}, CellValue{o.term}, CellValue{o.amount},
                        CellValue{0.0}, CellValue{std::string("USD")}, CellValue{o.region},
                        CellValue{options.observed_on}, CellValue{source}, CellValue{o.note}}});
  }
  return records;
}

// ---- Format detection -----------------------------------------------------------------------

bool has(const CsvTable& csv, std::string_view column) {
  return csv.column(column).has_value();
}

std::optional<ImportFormat> detect_format(const CsvTable& csv) {
  if (has(csv, "InstanceType") || has(csv, "AcceleratorName")) return ImportFormat::skypilot_vms;
  if (has(csv, "instance_name") || has(csv, "gpu_name")) return ImportFormat::gpuhunt;
  if (has(csv, "item_id")) return ImportFormat::purchase_prices;
  if (has(csv, "sku") || has(csv, "device_id") || has(csv, "provider")) {
    return ImportFormat::rental_offers;
  }
  return std::nullopt;
}

// ---- Writing --------------------------------------------------------------------------------

bool same_value(const CellValue& stored, const CellValue& incoming) {
  auto number = [](const CellValue& v) -> std::optional<double> {
    if (const auto* d = std::get_if<double>(&v)) return *d;
    if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
    return std::nullopt;
  };
  auto a = number(stored);
  auto b = number(incoming);
  if (a && b) return *a == *b;
  // A note stored by an older version may keep the CR LF of a file saved on Windows.
  const auto* stored_text = std::get_if<std::string>(&stored);
  const auto* incoming_text = std::get_if<std::string>(&incoming);
  if (stored_text && incoming_text) {
    return lf_line_ends(*stored_text) == lf_line_ends(*incoming_text);
  }
  return stored == incoming;
}

// Runs `step` again while SQLite answers SQLITE_BUSY without waiting, for at most the busy
// timeout: a catalog another import is creating (its first transaction still open, the file not
// yet in WAL mode) refuses the switch to WAL at once instead of calling the busy handler.
template <typename Step>
void retry_while_busy(Step step) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(kCatalogBusyTimeoutMs);
  for (;;) {
    try {
      step();
      return;
    } catch (const SQLite::Exception& e) {
      if ((e.getErrorCode() & 0xff) != SQLITE_BUSY || std::chrono::steady_clock::now() > deadline)
        throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
}

// Opens (creating) the user database to write (catalog_file.hpp: never through a link,
// refused when read-only), in WAL mode.
std::unique_ptr<SQLite::Database> open_user_database(const std::string& db_path) {
  auto db = open_catalog_file_for_writing(db_path);
  retry_while_busy([&] {
    // Checked before anything is written: never turn someone else's database into a catalog.
    const int application_id = db->execAndGet("PRAGMA application_id").getInt();
    const int tables = db->execAndGet("SELECT count(*) FROM sqlite_master").getInt();
    if (application_id != kCatalogApplicationId && (application_id != 0 || tables != 0)) {
      throw CatalogError(db_path + ": not a gputco catalog (application_id " +
                         std::to_string(application_id) + ")");
    }
    // Persistent: every later connection, reader or writer, uses the write-ahead log.
    db->exec("PRAGMA journal_mode = WAL");
  });
  db->exec("PRAGMA foreign_keys = ON");
  return db;
}

void copy_devices(SQLite::Database& db, SQLite::Database& builtin,
                  const std::set<std::string, std::less<>>& ids) {
  for (const std::string& id : ids) {
    SQLite::Statement select(builtin, "SELECT * FROM devices WHERE id = ?");
    select.bind(1, id);
    if (!select.executeStep()) continue;
    std::string columns;
    std::string params;
    for (int i = 0; i < select.getColumnCount(); ++i) {
      columns += std::string(i ? ", " : "") + select.getColumnName(i);  // schema names, not data
      params += i ? ", ?" : "?";
    }
    SQLite::Statement insert(
        db, "INSERT OR IGNORE INTO main.devices (" + columns + ") VALUES (" + params + ")");
    for (int i = 0; i < select.getColumnCount(); ++i) {
      bind_value(insert, i + 1, column_value(select.getColumn(i)));
    }
    insert.exec();
  }
}

// The plausibility of the book after the inserts (inside the transaction): a new row that fails
// is a problem of its line unless outliers are accepted; every other finding is a warning.
void check_plausibility(SQLite::Database& db, const FileKind& kind,
                        const std::vector<std::pair<std::int64_t, int>>& inserted,
                        const ImportOptions& options, Problems& problems, ImportReport& report) {
  create_layered_views(db);
  const std::vector<Catalog::PriceFinding> findings = kind.format == ImportFormat::purchase_prices
                                                          ? purchase_plausibility(db, options.book)
                                                          : rental_plausibility(db, options.book);
  constexpr int kUserLayer = 1;  // create_layered_views: builtin = 0, main = 1
  for (const Catalog::PriceFinding& f : findings) {
    const auto it = std::lower_bound(inserted.begin(), inserted.end(), std::make_pair(f.row_id, 0));
    const bool new_row = f.layer == kUserLayer && it != inserted.end() && it->first == f.row_id;
    if (new_row && !f.reviewed && !options.accept_outliers && f.kind != "conflict") {
      problems.add(it->second, "amount",
                   f.text +
                       "; refused: check the figure, or import with --accept-outliers to "
                       "keep it (a plan that uses it says so)");
      continue;
    }
    report.warnings.push_back((f.reviewed ? "reviewed: " : "implausible: ") + f.text);
  }
}

// Removes the database file at `path` (and its WAL and shared-memory files) when it holds no
// table: what an import that created it and then rolled back leaves.
void remove_empty_database(const std::string& path) {
  try {
    {
      SQLite::Database db(path, SQLite::OPEN_READONLY);
      if (db.execAndGet("SELECT count(*) FROM sqlite_master").getInt() != 0) return;
    }
    std::error_code ec;
    for (const char* suffix : {"-wal", "-shm", ""}) fs::remove(path + suffix, ec);
  } catch (const SQLite::Exception&) {
    // Not readable as a database: not ours to remove.
  }
}

// The test hook documented in catalog_import.hpp.
void fault_injection_pause() {
  const char* sleep_ms = std::getenv("GPUTCO_FAULT_IMPORT_SLEEP_MS");
  if (sleep_ms == nullptr) return;
  if (const char* marker = std::getenv("GPUTCO_FAULT_IMPORT_MARKER")) {
    std::ofstream(marker) << "inside the import transaction\n";
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(std::atol(sleep_ms)));
}

void write_records(const std::string& db_path, const FileKind& kind,
                   const std::vector<Record>& records, SQLite::Database& builtin,
                   const ImportOptions& options, Problems& problems, ImportReport& report) {
  const std::vector<std::string> columns = data_file_columns(kind.data_file);
  std::string column_list;
  std::string params;
  std::string key_match = "book = ?1";
  for (std::size_t i = 0; i < columns.size(); ++i) {
    column_list += (i ? ", " : "") + columns[i];
    params += ", ?" + std::to_string(i + 2);
  }
  for (const std::string& key : kind.key) {
    key_match += " AND " + key + " = ?" + std::to_string(column_index(columns, key) + 2);
  }
  const std::string device_column =
      kind.format == ImportFormat::purchase_prices ? "item_id" : "device_id";
  std::set<std::string, std::less<>> devices;
  for (const Record& r : records) {
    devices.insert(std::get<std::string>(
        r.values[static_cast<std::size_t>(column_index(columns, device_column))]));
  }

  try {
    auto db = open_user_database(db_path);
    // The plausibility checks read every layer. Every statement below names `main.` tables:
    // the attached copy holds tables of the same names, and an unqualified name that this
    // connection's cached schema of main lacks (another import created it meanwhile) would
    // resolve to the copy instead of failing and reloading the schema.
    attach_builtin_catalog(*db, true);
    // A page cache of 64 MiB (SQLite's default is 2 MiB): a million rows' index inserts stay in
    // memory instead of re-reading pages; bounded whatever the file's size.
    db->exec("PRAGMA main.cache_size = -65536");
    SQLite::Transaction transaction(*db, SQLite::TransactionBehavior::IMMEDIATE);
    db->execAndGet("SELECT count(*) FROM main.sqlite_master");  // reload main's schema now
    const int version = db->execAndGet("PRAGMA user_version").getInt();
    if (version == 0) {
      create_catalog_schema(*db, true);
    } else if (version > kCatalogSchemaVersion) {
      throw CatalogError(db_path + ": catalog schema version " + std::to_string(version) +
                         " is newer than this program reads (" +
                         std::to_string(kCatalogSchemaVersion) + ")");
    } else {
      migrate_catalog(*db, true);
    }
    SQLite::Statement add_book(*db, "INSERT OR IGNORE INTO main.books (name) VALUES (?)");
    add_book.bind(1, options.book);
    add_book.exec();
    copy_devices(*db, builtin, devices);

    // Table and column names are the constants of pricing/catalog_build.cpp, never data.
    SQLite::Statement existing(
        *db, "SELECT " + column_list + " FROM main." + kind.table + " WHERE " + key_match);
    SQLite::Statement insert(*db, "INSERT INTO main." + std::string(kind.table) + " (book, " +
                                      column_list + ") VALUES (?1" + params +
                                      ") ON CONFLICT DO NOTHING");
    std::vector<std::pair<std::int64_t, int>> inserted;  // row id, file line; ids increase
    for (const Record& r : records) {
      insert.reset();
      insert.clearBindings();
      insert.bind(1, options.book);
      for (std::size_t i = 0; i < columns.size(); ++i) {
        bind_value(insert, static_cast<int>(i) + 2, r.values[i]);
      }
      // One index lookup per row: the key is looked up again only when it is already there.
      if (insert.exec() == 1) {
        inserted.emplace_back(db->getLastInsertRowid(), r.line);
        ++report.inserted;
        continue;
      }
      existing.reset();
      existing.clearBindings();
      existing.bind(1, options.book);
      for (const std::string& key : kind.key) {
        const int i = column_index(columns, key);
        bind_value(existing, i + 2, r.values[static_cast<std::size_t>(i)]);
      }
      if (existing.executeStep()) {
        bool same = true;
        for (std::size_t i = 0; i < columns.size() && same; ++i) {
          const CellValue stored = column_value(existing.getColumn(static_cast<int>(i)));
          if (!same_value(stored, r.values[i])) {
            same = false;
            problems.add(r.line, columns[i],
                         "the book " + in_quotes(options.book) + " already holds this " +
                             (kind.format == ImportFormat::purchase_prices ? "price" : "offer") +
                             " with " + columns[i] + " " +
                             in_quotes(visible_text(cell_text(stored))) + ", not " +
                             in_quotes(visible_text(cell_text(r.values[i]))) +
                             " (an observation is never overwritten: give the new figure its "
                             "own date)");
          }
        }
        if (same) ++report.unchanged;
      }
    }
    if (!problems.items.empty()) return;  // the transaction rolls back
    check_plausibility(*db, kind, inserted, options, problems, report);
    if (!problems.items.empty()) return;
    fault_injection_pause();
    transaction.commit();
  } catch (const SQLite::Exception& e) {
    throw_catalog_file_error(db_path, "cannot import", e.getErrorCode(), e.what());
  }
}

}  // namespace

ImportError::ImportError(std::vector<std::string> problems)
    : CatalogError([&] {
        std::string text;
        for (const auto& p : problems) text += p + "\n";
        text += std::to_string(problems.size()) +
                (problems.size() == 1 ? " problem" : " problems") + "; nothing imported";
        return text;
      }()),
      problems_(std::move(problems)) {}

std::string to_string(ImportFormat format) {
  switch (format) {
    case ImportFormat::purchase_prices:
      return "purchase_prices";
    case ImportFormat::rental_offers:
      return "rental_offers";
    case ImportFormat::skypilot_vms:
      return "skypilot_vms";
    case ImportFormat::gpuhunt:
      return "gpuhunt";
  }
  return "?";
}

ImportReport import_price_book(const std::string& db_path, const std::string& csv_path,
                               const ImportOptions& options) {
  ImportReport report;
  report.book = options.book;
  // Standard input ("-") is named <stdin> in messages, as read_csv_file names it.
  const std::string file = is_standard_input(csv_path) ? "<stdin>" : csv_path;
  Problems problems{file, {}};
  // Options first: they are part of the input.
  if (options.book.empty() || options.book.find_first_of(" \t\r\n") == 0 ||
      options.book.find_last_of(" \t\r\n") == options.book.size() - 1) {
    throw ImportError({"--book: " + in_quotes(options.book) +
                       " is not a book name (not empty, no leading or trailing space)"});
  }
  if (const auto at = first_control_character(options.book); at != std::string::npos) {
    throw ImportError({"--book: " + in_quotes(visible_text(options.book)) +
                       " is not a book name (control character " +
                       code_point_name(options.book, at) + ")"});
  }
  if (options.book == kBuiltinBook) {
    throw ImportError({"--book: " + in_quotes(options.book) + " is the built-in catalog's book"});
  }
  if (!is_iso_date(options.as_of)) {
    throw ImportError({"--as-of: " + in_quotes(options.as_of) + " is not a date YYYY-MM-DD"});
  }

  CsvTable csv;
  try {
    csv = read_csv_file(csv_path);
  } catch (const CatalogError& e) {
    throw ImportError({e.what()});
  }
  if (csv.header_line == 0) throw ImportError({file + ":1: header: file is empty"});
  const auto format = detect_format(csv);
  if (!format) {
    throw ImportError({file + ":" + std::to_string(csv.header_line) +
                       ": header: not a price file this program reads: expected the columns of "
                       "purchase_prices.csv or rental_offers.csv (pricing/data/README.md), a "
                       "SkyPilot vms.csv (InstanceType, AcceleratorName, AcceleratorCount, "
                       "Region, Price, SpotPrice) or a gpuhunt CSV (instance_name, location, "
                       "price, gpu_count, gpu_name, spot)"});
  }
  report.format = *format;

  auto builtin = open_builtin_database();
  const auto device_ids = builtin_device_ids(*builtin);
  std::vector<Record> records;
  const FileKind* kind = &rental_kind();
  if (*format == ImportFormat::purchase_prices || *format == ImportFormat::rental_offers) {
    kind = *format == ImportFormat::purchase_prices ? &purchase_kind() : &rental_kind();
    records = read_own_format(*kind, csv, device_ids, options, problems, report);
  } else {
    const std::string provider =
        options.provider.empty() ? import_detail::provider_from_path(csv_path) : options.provider;
    std::vector<std::string> option_problems;
    if (provider.empty()) option_problems.push_back("--provider: required (not in the file name)");
    if (options.observed_on.empty()) {
      option_problems.push_back("--observed-on: required for " + to_string(*format) +
                                " files, which carry no dates (the date their prices were read)");
    } else if (!is_iso_date(options.observed_on)) {
      option_problems.push_back("--observed-on: " + in_quotes(options.observed_on) +
                                " is not a date YYYY-MM-DD");
    } else if (options.observed_on > options.as_of) {
      option_problems.push_back("--observed-on: " + options.observed_on +
                                " is after the import date " + options.as_of +
                                " (--as-of, default today): a price cannot be observed in the "
                                "future");
    }
    if (!option_problems.empty()) throw ImportError(option_problems);
    const std::string file_name = fs::path(csv_path).filename().string();
    const std::string source = !options.source.empty() ? options.source
                                                       : (*format == ImportFormat::skypilot_vms
                                                              ? "SkyPilot catalog vms.csv "
                                                              : "gpuhunt catalog ") +
                                                             provider + "/" + file_name;
    std::vector<Offer> offers =
        *format == ImportFormat::skypilot_vms
            ? import_detail::read_skypilot_offers(csv, provider, problems, report)
            : import_detail::read_gpuhunt_offers(csv, provider, problems, report);
    offers = import_detail::merge_zones(
        std::move(offers),
        *format == ImportFormat::skypilot_vms ? "InstanceType+Region" : "instance_name+location",
        problems);
    records = offers_to_records(offers, provider, options, source);
  }
  if (!problems.items.empty()) throw ImportError(problems.sorted());

  std::error_code ec;
  const bool existed = fs::exists(db_path, ec);
  write_records(db_path, *kind, records, *builtin, options, problems, report);
  if (!problems.items.empty()) {
    if (!existed) remove_empty_database(db_path);  // refused in the transaction: not created
    throw ImportError(problems.sorted());
  }
  return report;
}

}  // namespace gputco
