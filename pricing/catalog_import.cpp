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
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <utility>

#include "pricing/accelerator_names.hpp"
#include "pricing/catalog_build.hpp"
#include "pricing/catalog_file.hpp"
#include "pricing/catalog_import_steps.hpp"
#include "pricing/catalog_schema.hpp"
#include "pricing/catalog_table.hpp"
#include "pricing/csv_table.hpp"
#include "pricing/embedded.hpp"
#include "pricing/input_file.hpp"
#include "pricing/price_book_files.hpp"
#include "pricing/price_plausibility.hpp"
#include "pricing/public_catalogs.hpp"
#include "pricing/statistics_import.hpp"
#include "pricing/visible_text.hpp"

namespace gputco {

namespace fs = std::filesystem;

namespace {

using import_detail::column_index;
using import_detail::fault_injection_pause;
using import_detail::format_number;
using import_detail::in_quotes;
using import_detail::Offer;
using import_detail::open_for_import;
using import_detail::Problems;
using import_detail::same_value;

// One observation to write: the columns of our file kind, in order.
struct Record {
  int line = 0;
  std::vector<CellValue> values;
};

std::set<std::string, std::less<>> builtin_device_ids(SQLite::Database& builtin) {
  std::set<std::string, std::less<>> ids;
  SQLite::Statement q(builtin, "SELECT id FROM devices ORDER BY id");
  while (q.executeStep()) ids.insert(q.getColumn(0).getString());
  return ids;
}

// The accelerator names of the built-in catalog's devices.
AcceleratorNames builtin_accelerator_names(SQLite::Database& builtin) {
  std::vector<DeviceNaming> devices;
  SQLite::Statement q(builtin, "SELECT id, name FROM devices ORDER BY id");
  while (q.executeStep())
    devices.push_back({q.getColumn(0).getString(), q.getColumn(1).getString()});
  return AcceleratorNames(devices);
}

constexpr const char* kDeviceList =
    "not a device of the built-in catalog: gputco catalog list gpus";

// ---- Our own formats ------------------------------------------------------------------------

// Gives the next record to write, false at the end; a row with a problem is not given (its
// problems are recorded).
using RecordSource = std::function<bool(Record&)>;

// Our own formats, read row by row (one row in memory at a time): every check of a row alone,
// then the import's own (not in the future, not below the price floor).
RecordSource own_format_source(PriceFileReader& reader, const FileKind& kind,
                               const ImportOptions& options, Problems& problems,
                               ImportReport& report) {
  const std::vector<std::string>& columns = reader.columns();
  const auto observed = static_cast<std::size_t>(column_index(columns, "observed_on"));
  const auto amount = static_cast<std::size_t>(column_index(columns, "amount"));
  const int per = kind.format == ImportFormat::rental_offers
                      ? column_index(columns, "devices_per_instance")
                      : -1;
  return [&reader, &options, &problems, &report, observed, amount, per,
          row = CheckedRow{}](Record& out) mutable {
    for (;;) {
      try {
        if (!reader.next(row)) return false;
      } catch (const ImportError&) {
        throw;
      } catch (const CatalogError& e) {
        throw ImportError({e.what()});  // malformed CSV, not UTF-8: the one problem named
      }
      ++report.rows_read;
      const auto* date = std::get_if<std::string>(&row.values[observed]);
      if (date != nullptr && *date > options.as_of) {
        problems.add(row.line, "observed_on",
                     *date + " is after the import date " + options.as_of +
                         " (--as-of, default today): a price cannot be observed in the future");
        row.ok = false;
      }
      const auto* value = std::get_if<double>(&row.values[amount]);
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
      if (!row.ok) continue;
      out.line = row.line;
      out.values = std::move(row.values);
      return true;
    }
  };
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

bool has(const std::vector<std::string>& header, std::string_view column) {
  return std::find(header.begin(), header.end(), column) != header.end();
}

std::optional<ImportFormat> detect_format(const std::vector<std::string>& csv) {
  if (has(csv, "memory_gb") || has(csv, "bandwidth_gbps")) return ImportFormat::devices;
  if (has(csv, "params_b") || has(csv, "layers")) return ImportFormat::models;
  if (has(csv, "InstanceType") || has(csv, "AcceleratorName")) return ImportFormat::skypilot_vms;
  if (has(csv, "instance_name") || has(csv, "gpu_name")) return ImportFormat::gpuhunt;
  if (has(csv, "item_id")) return ImportFormat::purchase_prices;
  if (has(csv, "sku") || has(csv, "device_id") || has(csv, "provider")) {
    return ImportFormat::rental_offers;
  }
  return std::nullopt;
}

// ---- Writing --------------------------------------------------------------------------------

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
      throw CatalogFileInvalid(db_path + ": not a gputco catalog (application_id " +
                               std::to_string(application_id) + ")");
    }
    // Persistent: every later connection, reader or writer, uses the write-ahead log.
    db->exec("PRAGMA journal_mode = WAL");
  });
  db->exec("PRAGMA foreign_keys = ON");
  return db;
}

// Copies the built-in catalog's row of device `id` into the user database, if it has none.
void copy_device(SQLite::Database& db, SQLite::Database& builtin, const std::string& id) {
  SQLite::Statement select(builtin, "SELECT * FROM devices WHERE id = ?");
  select.bind(1, id);
  if (!select.executeStep()) return;
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

// The plausibility of the book after the inserts (inside the transaction): a new row that fails
// is a problem of its line unless outliers are accepted; every other finding is a warning.
void check_plausibility(SQLite::Database& db, const FileKind& kind, std::int64_t last_old_id,
                        const ImportOptions& options, Problems& problems, ImportReport& report) {
  create_layered_views(db);
  const std::vector<Catalog::PriceFinding> findings = kind.format == ImportFormat::purchase_prices
                                                          ? purchase_plausibility(db, options.book)
                                                          : rental_plausibility(db, options.book);
  constexpr int kUserLayer = 1;  // create_layered_views: builtin = 0, main = 1
  SQLite::Statement line_of(db, "SELECT line FROM temp.import_lines WHERE id = ?1");
  for (const Catalog::PriceFinding& f : findings) {
    int line = 0;
    if (f.layer == kUserLayer && f.row_id > last_old_id) {  // a row of this file
      line_of.reset();
      line_of.bind(1, f.row_id);
      if (line_of.executeStep()) line = line_of.getColumn(0).getInt();
    }
    if (line > 0 && !f.reviewed && !options.accept_outliers && f.kind != "conflict") {
      problems.add(line, "amount",
                   f.text +
                       "; refused: check the figure, or import with --accept-outliers to "
                       "keep it (a plan that uses it says so)");
      continue;
    }
    report.warnings.push_back((f.reviewed ? "reviewed: " : "implausible: ") + f.text);
  }
}

// Rental offers of the file: a spot or reserved (reserved_1y, reserved_3y) rate above the
// on-demand rate of the same provider, device, region, date, billing and currency (the same
// sku's when the file has it, else the dearest, the first in the file of equal ones) is a
// problem of that row's line. One sorted query over the rows of this file ("on_demand" sorts
// before the other terms); one group of on-demand rates in memory at a time.
void check_discounted_rates(SQLite::Database& db, const std::string& book, Problems& problems) {
  SQLite::Statement rows(
      db,
      "SELECT o.provider, o.device_id, o.region, o.observed_on, o.billing, o.currency, o.term, "
      "o.sku, o.amount * 1.0 / o.devices_per_instance, l.line FROM temp.import_lines l "
      "JOIN main.rental_offers o ON o.id = l.id WHERE o.book = ?1 ORDER BY o.provider, "
      "o.device_id, o.region, o.observed_on, o.billing, o.currency, o.term, l.line");
  rows.bind(1, book);
  struct Rate {
    double per_device = 0;
    int line = 0;
  };
  std::vector<std::string> key(6);
  std::vector<std::string> next(6);
  std::map<std::string, Rate, std::less<>> by_sku;
  std::optional<Rate> dearest;
  while (rows.executeStep()) {
    for (int k = 0; k < 6; ++k) next[static_cast<std::size_t>(k)] = rows.getColumn(k).getString();
    if (next != key) {
      key = next;
      by_sku.clear();
      dearest.reset();
    }
    const std::string term = rows.getColumn(6).getString();
    const std::string sku = rows.getColumn(7).getString();
    const Rate rate{rows.getColumn(8).getDouble(), rows.getColumn(9).getInt()};
    if (term == "on_demand") {
      by_sku.emplace(sku, rate);
      if (!dearest || rate.per_device > dearest->per_device) dearest = rate;
      continue;
    }
    if (!dearest) continue;
    const auto same_sku = by_sku.find(sku);
    const Rate& reference = same_sku != by_sku.end() ? same_sku->second : *dearest;
    if (rate.per_device > reference.per_device) {
      problems.add(rate.line, "amount",
                   term + " rate " + format_number(rate.per_device) + " " + key[5] +
                       " per device-hour is above the on-demand rate " +
                       format_number(reference.per_device) + " of line " +
                       std::to_string(reference.line) + " (same provider, device, region, date" +
                       (term == "spot" ? ")" : "; a commitment sells below on-demand)"));
    }
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

/// The SQL of a file kind's rows: its data file's columns, the parameters ?2.. that bind them
/// (?1 is the book), the key's match, and where the key, the device and the term are.
struct RecordSql {
  std::vector<std::string> columns;
  std::string column_list;  ///< "a, b, c"
  std::string params;       ///< ", ?2, ?3, ?4"
  std::string key_match;    ///< "book = ?1 AND k = ?N ..."
  std::vector<std::size_t> key_columns;
  std::string key_names;          ///< "k1+k2", the column of a duplicate key's problem
  std::size_t device_column = 0;  ///< item_id (purchase prices) or device_id
  int term_column = -1;           ///< rental offers' term; -1 for purchase prices
};

RecordSql record_sql(const FileKind& kind) {
  RecordSql sql;
  sql.columns = data_file_columns(kind.data_file);
  const std::vector<std::string>& columns = sql.columns;
  sql.key_match = "book = ?1";
  for (std::size_t i = 0; i < columns.size(); ++i) {
    sql.column_list += (i ? ", " : "") + columns[i];
    sql.params += ", ?" + std::to_string(i + 2);
  }
  for (const std::string& key : kind.key) {
    const int i = column_index(columns, key);
    sql.key_columns.push_back(static_cast<std::size_t>(i));
    sql.key_match += " AND " + key + " = ?" + std::to_string(i + 2);
    sql.key_names += (sql.key_names.empty() ? "" : "+") + key;
  }
  sql.device_column = static_cast<std::size_t>(column_index(
      columns, kind.format == ImportFormat::purchase_prices ? "item_id" : "device_id"));
  sql.term_column = kind.format == ImportFormat::rental_offers ? column_index(columns, "term") : -1;
  return sql;
}

/// The key of `r` as a duplicate key's problem writes it: "v1, v2".
std::string key_text(const Record& r, const std::vector<std::size_t>& key_columns) {
  std::string text;
  for (const std::size_t i : key_columns) {
    text += (text.empty() ? "" : ", ") + cell_text(r.values[i]);
  }
  return text;
}

/// Whether `r` holds the values of the row `existing` has just read (its id, then `columns`).
/// The first column that differs is a problem with the book (`book_problems`): an observation is
/// never overwritten.
bool same_as_stored(SQLite::Statement& existing, const Record& r, const FileKind& kind,
                    const std::vector<std::string>& columns, const ImportOptions& options,
                    Problems& book_problems) {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const CellValue stored = column_value(existing.getColumn(static_cast<int>(i) + 1));
    if (!same_value(stored, r.values[i])) {
      book_problems.add(r.line, columns[i],
                        "the book " + in_quotes(options.book) + " already holds this " +
                            (kind.format == ImportFormat::purchase_prices ? "price" : "offer") +
                            " with " + columns[i] + " " +
                            in_quotes(visible_text(cell_text(stored))) + ", not " +
                            in_quotes(visible_text(cell_text(r.values[i]))) +
                            " (an observation is never overwritten: give the new figure "
                            "its own date)");
      return false;
    }
  }
  return true;
}

// Writes the records of `next` into the book, in one transaction, as they are read: at most
// one record in memory. Problems of the file (a row's own, a key twice in the file, spot above
// on-demand) go to `problems`; problems with the book (a key already there with other values,
// a row refused as implausible) to `book_problems`, reported only when the file has none (as
// when every row was checked before the first was written). Either rolls back.
void write_records(const std::string& db_path, const FileKind& kind, const RecordSource& next,
                   SQLite::Database& builtin, const ImportOptions& options, Problems& problems,
                   Problems& book_problems, ImportReport& report) {
  const RecordSql sql = record_sql(kind);

  std::unique_ptr<SQLite::Database> db;
  std::optional<SQLite::Transaction> transaction;
  try {
    db = open_for_import(db_path, transaction);
  } catch (const CatalogError&) {
    // The database cannot be written: a file with problems is still bad input (exit 2), as
    // when every row was checked before the database was opened.
    Record r;
    while (next(r)) {
    }
    if (!problems.items.empty()) return;
    throw;
  }

  try {
    SQLite::Statement add_book(*db, "INSERT OR IGNORE INTO main.books (name) VALUES (?)");
    add_book.bind(1, options.book);
    add_book.exec();
    // Rows of the book before this file have ids up to this one; the file's rows get larger
    // ones (SQLite gives a new row the largest id plus one).
    const std::int64_t last_old_id =
        db->execAndGet("SELECT coalesce(max(id), 0) FROM main." + std::string(kind.table))
            .getInt64();
    // Each row of the book that a line of the file inserted or matched, and the first such
    // line: the line of a finding, and the first line of a key given twice. On disk, not in
    // memory (temp_store = FILE): flat memory whatever the file's size (gputco issue 20).
    db->exec("CREATE TABLE temp.import_lines (id INTEGER PRIMARY KEY, line INTEGER NOT NULL)");
    SQLite::Statement note_line(*db, "INSERT INTO temp.import_lines (id, line) VALUES (?1, ?2)");
    SQLite::Statement first_line(*db, "SELECT line FROM temp.import_lines WHERE id = ?1");

    // Table and column names are the constants of pricing/catalog_data_spec.cpp, never data.
    SQLite::Statement existing(*db, "SELECT id, " + sql.column_list + " FROM main." + kind.table +
                                        " WHERE " + sql.key_match);
    SQLite::Statement insert(*db, "INSERT INTO main." + std::string(kind.table) + " (book, " +
                                      sql.column_list + ") VALUES (?1" + sql.params +
                                      ") ON CONFLICT DO NOTHING");
    std::set<std::string, std::less<>> devices;  // copied: at most the catalog's devices
    bool discounted_rows = false;  // spot or reserved rows, compared with on-demand ones
    Record r;
    while (next(r)) {
      const auto& device = std::get<std::string>(r.values[sql.device_column]);
      if (devices.insert(device).second) copy_device(*db, builtin, device);
      if (sql.term_column >= 0 &&
          std::get<std::string>(r.values[static_cast<std::size_t>(sql.term_column)]) !=
              "on_demand") {
        discounted_rows = true;
      }
      insert.reset();
      insert.clearBindings();
      insert.bind(1, options.book);
      for (std::size_t i = 0; i < sql.columns.size(); ++i) {
        bind_value(insert, static_cast<int>(i) + 2, r.values[i]);
      }
      // One index lookup per row: the key is looked up again only when it is already there.
      if (insert.exec() == 1) {
        note_line.reset();
        note_line.bind(1, db->getLastInsertRowid());
        note_line.bind(2, r.line);
        note_line.exec();
        ++report.inserted;
        continue;
      }
      existing.reset();
      existing.clearBindings();
      existing.bind(1, options.book);
      for (const std::size_t i : sql.key_columns) {
        bind_value(existing, static_cast<int>(i) + 2, r.values[i]);
      }
      if (!existing.executeStep()) continue;
      const std::int64_t id = existing.getColumn(0).getInt64();
      first_line.reset();
      first_line.bind(1, id);
      if (first_line.executeStep()) {
        problems.add(r.line, sql.key_names,
                     "duplicate key (" + key_text(r, sql.key_columns) + "), first on line " +
                         std::to_string(first_line.getColumn(0).getInt()));
        continue;
      }
      note_line.reset();
      note_line.bind(1, id);
      note_line.bind(2, r.line);
      note_line.exec();
      if (same_as_stored(existing, r, kind, sql.columns, options, book_problems))
        ++report.unchanged;
    }
    if (discounted_rows) check_discounted_rates(*db, options.book, problems);
    if (!problems.items.empty() || !book_problems.items.empty()) return;  // rolls back
    check_plausibility(*db, kind, last_old_id, options, book_problems, report);
    if (!book_problems.items.empty()) return;
    fault_injection_pause();  // temp.import_lines goes with the connection
    transaction->commit();
  } catch (const SQLite::Exception& e) {
    throw_catalog_file_error(db_path, "cannot import", e.getErrorCode(), e.what());
  }
}

}  // namespace

// ---- Steps the imports of every format share (pricing/catalog_import_steps.hpp) -------

namespace import_detail {

std::string observed_on_problem(const std::string& observed_on, const std::string& as_of,
                                const std::string& why_required, const std::string& what) {
  if (observed_on.empty()) return "--observed-on: required for " + why_required;
  if (!is_iso_date(observed_on)) {
    return "--observed-on: " + in_quotes(observed_on) + " is not a date YYYY-MM-DD";
  }
  if (observed_on > as_of) {
    return "--observed-on: " + observed_on + " is after the import date " + as_of +
           " (--as-of, default today): " + what + " cannot be observed in the future";
  }
  return "";
}

int column_index(const std::vector<std::string>& columns, std::string_view name) {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == name) return static_cast<int>(i);
  }
  throw std::logic_error("no column " + std::string(name));
}

bool same_value(const CellValue& stored, const CellValue& incoming) {
  auto number = [](const CellValue& v) -> std::optional<double> {
    if (const auto* d = std::get_if<double>(&v)) return *d;
    if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
    return std::nullopt;
  };
  // A choice column read as text ("0", "1") is stored as an integer by the column's INTEGER
  // affinity (SQLite, "Datatypes In SQLite" 3.1): the text that spells the number is the same.
  auto spelled = [](const CellValue& v) -> std::optional<double> {
    const auto* text = std::get_if<std::string>(&v);
    if (!text || text->empty()) return std::nullopt;
    double x = 0;
    const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), x);
    if (ec != std::errc() || end != text->data() + text->size()) return std::nullopt;
    return x;
  };
  auto a = number(stored);
  auto b = number(incoming);
  if (a && b) return *a == *b;
  if (a && !b) b = spelled(incoming);
  if (b && !a) a = spelled(stored);
  if (a && b) return *a == *b;
  // A note stored by an older version may keep the CR LF of a file saved on Windows.
  const auto* stored_text = std::get_if<std::string>(&stored);
  const auto* incoming_text = std::get_if<std::string>(&incoming);
  if (stored_text && incoming_text) {
    return lf_line_ends(*stored_text) == lf_line_ends(*incoming_text);
  }
  return stored == incoming;
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

// Opens (creating) the user database at `db_path` to import into, its schema created or
// migrated inside `transaction` (begun here, IMMEDIATE). Throws CatalogError.
std::unique_ptr<SQLite::Database> open_for_import(const std::string& db_path,
                                                  std::optional<SQLite::Transaction>& transaction) {
  std::unique_ptr<SQLite::Database> db;
  try {
    db = open_user_database(db_path);
    // The plausibility checks read every layer. Every statement below names `main.` tables:
    // the attached copy holds tables of the same names, and an unqualified name that this
    // connection's cached schema of main lacks (another import created it meanwhile) would
    // resolve to the copy instead of failing and reloading the schema.
    attach_builtin_catalog(*db, true);
    // A page cache of 64 MiB (SQLite's default is 2 MiB): a million rows' index inserts stay
    // in memory instead of re-reading pages; bounded whatever the file's size. The temporary
    // table of lines lives in a file (temp_store), with SQLite's default cache.
    db->exec("PRAGMA main.cache_size = -65536");
    db->exec("PRAGMA temp_store = FILE");
    transaction.emplace(*db, SQLite::TransactionBehavior::IMMEDIATE);
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
  } catch (const SQLite::Exception& e) {
    transaction.reset();  // before the connection it rolls back on
    throw_catalog_file_error(db_path, "cannot import", e.getErrorCode(), e.what());
  } catch (...) {
    transaction.reset();
    throw;
  }
  return db;
}

}  // namespace import_detail

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
    case ImportFormat::devices:
      return "devices";
    case ImportFormat::models:
      return "models";
    case ImportFormat::eurostat_tsv:
      return "eurostat_tsv";
    case ImportFormat::eia_csv:
      return "eia_csv";
    case ImportFormat::ecb_xml:
      return "ecb_xml";
  }
  return "?";
}

namespace {

/// Throws ImportError unless the book's name and the import's date are sound: the options are
/// part of the input.
void check_book_options(const ImportOptions& options) {
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
}

/// The CSV file at `csv_path` (`file` in messages) opened and its header record read into
/// `header`: the rows are read as they are written (one in memory). Throws ImportError "FILE:1:
/// header: file is empty", or with the reader's message when it cannot be read.
CsvReader open_with_header(const std::string& csv_path, const std::string& file, CsvRow& header) {
  try {
    CsvReader csv = open_csv_file(csv_path);
    if (!csv.next(header)) throw ImportError({file + ":1: header: file is empty"});
    return csv;
  } catch (const ImportError&) {
    throw;
  } catch (const CatalogError& e) {
    throw ImportError({e.what()});
  }
}

/// The rest of `csv`'s records under `header` (read_rows_after); a CatalogError (malformed CSV)
/// is rethrown as ImportError with its message.
CsvTable rows_after(CsvReader& csv, CsvRow header) {
  try {
    return read_rows_after(csv, std::move(header));
  } catch (const CatalogError& e) {
    throw ImportError({e.what()});
  }
}

/// The format of a CSV file from its header record. Throws ImportError "FILE:LINE: header: not a
/// file this program imports ..." for a header of no format imported.
ImportFormat header_format(const CsvRow& header, const std::string& file) {
  const auto format = import_detail::is_eia_retail_sales(header.fields)
                          ? std::optional<ImportFormat>(ImportFormat::eia_csv)
                          : detect_format(header.fields);
  if (!format) {
    throw ImportError({file + ":" + std::to_string(header.line) +
                       ": header: not a file this program imports: expected the columns of "
                       "purchase_prices.csv, rental_offers.csv, devices.csv or models.csv "
                       "(pricing/data/README.md), a SkyPilot vms.csv (InstanceType, "
                       "AcceleratorName, AcceleratorCount, Region, Price, SpotPrice), a "
                       "gpuhunt CSV (instance_name, location, price, gpu_count, gpu_name, "
                       "spot), an EIA retail-sales CSV (period, stateid, sectorid, price), a "
                       "Eurostat nrg_pc_205 TSV or an ECB reference rates XML"});
  }
  return *format;
}

/// The rental records of a SkyPilot or gpuhunt file read whole (`table`; `format` says which):
/// its provider (--provider, else the file's name) and date (--observed-on) checked, its rows
/// read and its zones merged (pricing/public_catalogs.hpp). Throws ImportError with every
/// problem (options' first), ImportIncomplete when rows were skipped and not allowed.
std::vector<Record> public_catalog_records(const CsvTable& table, ImportFormat format,
                                           const std::string& csv_path, const std::string& file,
                                           const ImportOptions& options, SQLite::Database& builtin,
                                           Problems& problems, ImportReport& report) {
  const std::string provider =
      options.provider.empty() ? import_detail::provider_from_path(csv_path) : options.provider;
  std::vector<std::string> option_problems;
  if (provider.empty()) option_problems.push_back("--provider: required (not in the file name)");
  const std::string observed_on = import_detail::observed_on_problem(
      options.observed_on, options.as_of,
      to_string(format) + " files, which carry no dates (the date their prices were read)",
      "a price");
  if (!observed_on.empty()) option_problems.push_back(observed_on);
  if (!option_problems.empty()) throw ImportError(option_problems);
  const std::string file_name = fs::path(csv_path).filename().string();
  const std::string source =
      !options.source.empty() ? options.source
                              : (format == ImportFormat::skypilot_vms ? "SkyPilot catalog vms.csv "
                                                                      : "gpuhunt catalog ") +
                                    provider + "/" + file_name;
  const AcceleratorNames names = builtin_accelerator_names(builtin);
  std::vector<Offer> offers =
      format == ImportFormat::skypilot_vms
          ? import_detail::read_skypilot_offers(table, provider, names, problems, report)
          : import_detail::read_gpuhunt_offers(table, provider, names, problems, report);
  offers = import_detail::merge_zones(
      std::move(offers),
      format == ImportFormat::skypilot_vms ? "InstanceType+Region" : "instance_name+location",
      problems);
  if (!problems.items.empty()) throw ImportError(problems.sorted());
  std::stable_sort(report.skipped_rows.begin(), report.skipped_rows.end(),
                   [](const SkippedRow& a, const SkippedRow& b) { return a.line < b.line; });
  if (report.skipped > 0 && !options.allow_skipped) {
    throw ImportIncomplete(skipped_summary(report, file), report.skipped);
  }
  return offers_to_records(offers, provider, options, source);
}

}  // namespace

ImportReport import_price_book(const std::string& db_path, const std::string& csv_path,
                               const ImportOptions& options) {
  ImportReport report;
  report.book = options.book;
  // Standard input ("-") is named <stdin> in messages, as read_csv_file names it.
  const std::string file = is_standard_input(csv_path) ? "<stdin>" : csv_path;
  Problems problems{file, {}};
  // Options first: they are part of the input.
  check_book_options(options);

  std::error_code exists_ec;
  const bool db_existed = fs::exists(db_path, exists_ec);
  const auto cleanup = [&] {
    if (!db_existed) remove_empty_database(db_path);
  };
  // Files the statistics offices publish, told by their first bytes (not CSV).
  if (const auto stats = import_detail::sniff_statistics_format(csv_path)) {
    report.format = *stats;
    import_detail::import_statistics(db_path, csv_path, file, *stats, nullptr, options, report,
                                     cleanup);
    return report;
  }
  // Read record by record: the header now, the rows as they are written (one in memory).
  CsvRow header;
  std::optional<CsvReader> csv = open_with_header(csv_path, file, header);
  const ImportFormat format = header_format(header, file);
  report.format = format;
  if (format == ImportFormat::eia_csv) {
    CsvTable table = rows_after(*csv, std::move(header));
    import_detail::import_statistics(db_path, csv_path, file, format, &table, options, report,
                                     cleanup);
    return report;
  }

  auto builtin = open_builtin_database();
  const auto device_ids = builtin_device_ids(*builtin);
  Problems book_problems{file, {}};
  std::error_code ec;
  const bool existed = fs::exists(db_path, ec);
  // Whatever is thrown once the database may have been created: not left behind empty.
  const auto write = [&](const FileKind& kind, const RecordSource& next) {
    try {
      write_records(db_path, kind, next, *builtin, options, problems, book_problems, report);
    } catch (const ImportError&) {
      if (!existed) remove_empty_database(db_path);
      throw;
    }
    Problems& refused = problems.items.empty() ? book_problems : problems;
    if (!refused.items.empty()) {
      if (!existed) remove_empty_database(db_path);  // refused in the transaction: not created
      throw ImportError(refused.sorted());
    }
  };

  if (format == ImportFormat::purchase_prices || format == ImportFormat::rental_offers) {
    const FileKind& kind =
        format == ImportFormat::purchase_prices ? purchase_kind() : rental_kind();
    PriceFileReader reader(kind.data_file, *csv, header, device_ids, kDeviceList, problems.items);
    if (!reader.header_ok()) throw ImportError(problems.sorted());
    write(kind, own_format_source(reader, kind, options, problems, report));
    return report;
  }

  // Files checked or merged across all their rows are read whole.
  if (format == ImportFormat::devices || format == ImportFormat::models) {
    CsvTable table = rows_after(*csv, std::move(header));
    try {
      import_detail::import_reference_rows(db_path, format, table, options.as_of, *builtin,
                                           problems, report);
    } catch (const ImportError&) {
      if (!existed) remove_empty_database(db_path);
      throw;
    }
    if (!problems.items.empty()) {
      if (!existed) remove_empty_database(db_path);
      throw ImportError(problems.sorted());
    }
    return report;
  }

  // SkyPilot and gpuhunt files are read whole: their zones are merged and GCP's GPU rows joined
  // to their hosts across the file (pricing/public_catalogs.hpp).
  CsvTable table = rows_after(*csv, std::move(header));
  csv.reset();
  const std::vector<Record> records =
      public_catalog_records(table, format, csv_path, file, options, *builtin, problems, report);
  std::size_t at = 0;
  write(rental_kind(), [&](Record& out) {
    if (at == records.size()) return false;
    out = records[at++];
    return true;
  });
  return report;
}

}  // namespace gputco
