#include "pricing/catalog_import.hpp"

#include <unistd.h>

#include <SQLiteCpp/SQLiteCpp.h>

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

#include "pricing/accelerator_names.hpp"
#include "pricing/catalog_build.hpp"
#include "pricing/catalog_schema.hpp"
#include "pricing/csv_table.hpp"
#include "pricing/embedded.hpp"

namespace gputco {

namespace fs = std::filesystem;

namespace {

// One observation to write: the columns of our file kind, in order.
struct Record {
  int line = 0;
  std::vector<CellValue> values;
};

struct FileKind {
  ImportFormat format;
  const char* data_file;  // "purchase_prices.csv" | "rental_offers.csv"
  const char* table;      // in the database
  std::vector<std::string> key;
};

const FileKind& purchase_kind() {
  static const FileKind kind{ImportFormat::purchase_prices,
                             "purchase_prices.csv",
                             "price_observations",
                             {"item_id", "condition", "seller", "region", "observed_on"}};
  return kind;
}

const FileKind& rental_kind() {
  static const FileKind kind{ImportFormat::rental_offers,
                             "rental_offers.csv",
                             "rental_offers",
                             {"provider", "sku", "billing", "term", "region", "observed_on"}};
  return kind;
}

// Problems with their line, reported in line order.
struct Problems {
  std::string path;
  std::vector<std::pair<int, std::string>> items;
  void add(int line, std::string_view column, const std::string& what) {
    items.emplace_back(
        line, path + ":" + std::to_string(line) + ": " + std::string(column) + ": " + what);
  }
  std::vector<std::string> sorted() {
    std::stable_sort(items.begin(), items.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> out;
    for (auto& item : items) out.push_back(std::move(item.second));
    return out;
  }
};

std::string in_quotes(std::string_view text) {
  return "'" + std::string(text) + "'";
}

std::string format_number(double value) {
  std::array<char, 64> buf{};
  auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value);
  return ec == std::errc{} ? std::string(buf.data(), end) : std::string("?");
}

// A plain decimal (digits, an optional dot, an optional leading minus), parsed in full.
std::optional<double> parse_decimal(std::string_view s) {
  if (s.empty()) return std::nullopt;
  for (char c : s) {
    if (!(c == '-' || c == '.' || (c >= '0' && c <= '9'))) return std::nullopt;
  }
  double value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value, std::chars_format::fixed);
  if (ec != std::errc{} || ptr != s.data() + s.size()) return std::nullopt;
  return value;
}

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

std::vector<Record> read_own_format(const FileKind& kind, const std::string& path,
                                    const std::set<std::string, std::less<>>& device_ids,
                                    const ImportOptions& options, Problems& problems,
                                    ImportReport& report) {
  std::vector<std::string> found;
  CheckedTable table = check_data_file(kind.data_file, path, device_ids, kDeviceList, found);
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

// ---- SkyPilot and gpuhunt -------------------------------------------------------------------

// One offer read from a public catalog row, before zones are merged.
struct Offer {
  int line = 0;
  std::string sku;
  std::string device_id;
  std::string note;
  int count = 0;
  std::string region;
  std::string zone;
  std::string term;  // on_demand | spot
  double amount = 0;
};

std::string provider_from_path(const std::string& path) {
  const fs::path p(path);
  const std::string stem = p.stem().string();
  if (stem == "vms") return p.parent_path().filename().string();
  return stem;
}

struct ColumnMap {
  const CsvTable* csv = nullptr;
  std::map<std::string, std::size_t, std::less<>> index;
  const std::string& get(const CsvRow& row, std::string_view name) const {
    static const std::string empty;
    auto it = index.find(name);
    return it == index.end() ? empty : row.fields[it->second];
  }
};

// Checks that `required` columns are in the header; maps every column name to its index.
std::optional<ColumnMap> map_columns(const CsvTable& csv,
                                     const std::vector<std::string_view>& required,
                                     Problems& problems) {
  ColumnMap map;
  map.csv = &csv;
  for (std::size_t i = 0; i < csv.header.size(); ++i) map.index.emplace(csv.header[i], i);
  bool ok = true;
  for (std::string_view column : required) {
    if (map.index.find(column) == map.index.end()) {
      problems.add(csv.header_line, column, "missing column");
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return map;
}

// The accelerator count of a row: a whole number > 0; 0 or empty for CPU-only rows.
// SkyPilot writes counts as decimals ("8.0"); fractions are shares of a device.
struct Count {
  enum { none, whole, fraction, bad } kind = none;
  int value = 0;
};
Count parse_count(const std::string& field) {
  if (field.empty()) return {};
  auto value = parse_decimal(field);
  if (!value || *value < 0) return {Count::bad, 0};
  if (*value == 0) return {};
  if (*value != static_cast<double>(static_cast<int>(*value))) return {Count::fraction, 0};
  return {Count::whole, static_cast<int>(*value)};
}

// Reads a price field: nullopt when empty; records a problem (and returns -1) when bad.
std::optional<double> parse_price(const std::string& field, int line, std::string_view column,
                                  int count, Problems& problems) {
  if (field.empty()) return std::nullopt;
  auto value = parse_decimal(field);
  if (!value) {
    problems.add(line, column, in_quotes(field) + " is not a plain decimal number");
    return -1.0;
  }
  if (*value <= 0) {
    problems.add(line, column, "must be greater than 0, got " + field);
    return -1.0;
  }
  if (count > 0 && *value / count <= kPriceFloor) {
    problems.add(line, column,
                 format_number(*value / count) + " per device is at or below the floor " +
                     format_number(kPriceFloor) + " (the typical value of a parsing bug)");
    return -1.0;
  }
  return value;
}

// Maps a row's accelerator; returns false (and says why in `report`) when the row is skipped.
bool accelerator_of(const std::string& path, int line, std::string_view column,
                    const std::string& name, const std::string& count_field, const std::string& sku,
                    const std::string& provider, double memory_gb, Offer& offer, Problems& problems,
                    ImportReport& report) {
  const Count count = parse_count(count_field);
  if (count.kind == Count::bad) {
    problems.add(line, column == "AcceleratorName" ? "AcceleratorCount" : "gpu_count",
                 in_quotes(count_field) + " is not a number of devices");
    return false;
  }
  if (name.empty() || count.kind == Count::none) {
    ++report.skipped;  // CPU-only: expected in these catalogs, only counted
    return false;
  }
  if (count.kind == Count::fraction) {
    ++report.skipped;
    report.warnings.push_back(path + ":" + std::to_string(line) + ": " +
                              (column == "AcceleratorName" ? "AcceleratorCount" : "gpu_count") +
                              ": " + in_quotes(count_field) +
                              " is a share of a device, which the catalog does not price; row "
                              "skipped");
    return false;
  }
  auto match = map_accelerator(name, sku, provider, memory_gb);
  if (!match) {
    ++report.skipped;
    report.warnings.push_back(path + ":" + std::to_string(line) + ": " + std::string(column) +
                              ": " + in_quotes(name) + " is not a catalog device; row skipped");
    return false;
  }
  offer.device_id = match->device_id;
  offer.count = count.value;
  offer.note = "accelerator " + in_quotes(name) + " -> " + match->device_id;
  if (!match->rule.empty()) offer.note += " (" + match->rule + ")";
  return true;
}

std::vector<Offer> read_skypilot(const CsvTable& csv, const std::string& provider,
                                 Problems& problems, ImportReport& report) {
  std::vector<Offer> offers;
  auto columns = map_columns(
      csv, {"InstanceType", "AcceleratorName", "AcceleratorCount", "Region", "Price", "SpotPrice"},
      problems);
  if (!columns) return offers;
  for (const CsvRow& row : csv.rows) {
    ++report.rows_read;
    if (row.fields.size() != csv.header.size()) {
      problems.add(row.line, "row",
                   std::to_string(row.fields.size()) + " fields, but the header has " +
                       std::to_string(csv.header.size()));
      continue;
    }
    Offer offer;
    offer.line = row.line;
    offer.sku = columns->get(row, "InstanceType");
    offer.region = columns->get(row, "Region");
    offer.zone = columns->get(row, "AvailabilityZone");
    if (offer.sku.empty()) problems.add(row.line, "InstanceType", "required, but empty");
    if (offer.region.empty()) problems.add(row.line, "Region", "required, but empty");
    if (!accelerator_of(csv.path, row.line, "AcceleratorName", columns->get(row, "AcceleratorName"),
                        columns->get(row, "AcceleratorCount"), offer.sku, provider, 0, offer,
                        problems, report)) {
      continue;
    }
    const auto price =
        parse_price(columns->get(row, "Price"), row.line, "Price", offer.count, problems);
    const auto spot =
        parse_price(columns->get(row, "SpotPrice"), row.line, "SpotPrice", offer.count, problems);
    if (!price && !spot) {
      ++report.skipped;
      report.warnings.push_back(csv.path + ":" + std::to_string(row.line) +
                                ": Price: empty, and no SpotPrice either; row skipped");
      continue;
    }
    if (price && spot && *price > 0 && *spot > *price) {
      problems.add(row.line, "SpotPrice",
                   "spot " + format_number(*spot) + " is above the on-demand Price " +
                       format_number(*price) + " of the same instance (columns swapped?)");
    }
    if (price && *price > 0) {
      offer.term = "on_demand";
      offer.amount = *price;
      offers.push_back(offer);
    }
    if (spot && *spot > 0) {
      offer.term = "spot";
      offer.amount = *spot;
      offers.push_back(offer);
    }
  }
  return offers;
}

std::vector<Offer> read_gpuhunt(const CsvTable& csv, const std::string& provider,
                                Problems& problems, ImportReport& report) {
  std::vector<Offer> offers;
  auto columns = map_columns(
      csv, {"instance_name", "location", "price", "gpu_count", "gpu_name", "spot"}, problems);
  if (!columns) return offers;
  for (const CsvRow& row : csv.rows) {
    ++report.rows_read;
    if (row.fields.size() != csv.header.size()) {
      problems.add(row.line, "row",
                   std::to_string(row.fields.size()) + " fields, but the header has " +
                       std::to_string(csv.header.size()));
      continue;
    }
    Offer offer;
    offer.line = row.line;
    offer.sku = columns->get(row, "instance_name");
    offer.region = columns->get(row, "location");
    if (offer.sku.empty()) problems.add(row.line, "instance_name", "required, but empty");
    if (offer.region.empty()) problems.add(row.line, "location", "required, but empty");
    const std::string& spot = columns->get(row, "spot");
    std::string spot_upper;
    for (char c : spot)
      spot_upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (spot_upper != "TRUE" && spot_upper != "FALSE") {
      problems.add(row.line, "spot", in_quotes(spot) + " is not True or False");
      continue;
    }
    offer.term = spot_upper == "TRUE" ? "spot" : "on_demand";
    const std::string& memory_field = columns->get(row, "gpu_memory");
    const double memory_gb = parse_decimal(memory_field).value_or(0);
    if (!accelerator_of(csv.path, row.line, "gpu_name", columns->get(row, "gpu_name"),
                        columns->get(row, "gpu_count"), offer.sku, provider, memory_gb, offer,
                        problems, report)) {
      continue;
    }
    const auto price =
        parse_price(columns->get(row, "price"), row.line, "price", offer.count, problems);
    if (!price) {
      problems.add(row.line, "price", "required, but empty");
      continue;
    }
    if (*price <= 0) continue;
    offer.amount = *price;
    offers.push_back(offer);
  }
  // Spot above on-demand for the same instance and location.
  std::map<std::pair<std::string, std::string>, const Offer*> on_demand;
  for (const Offer& o : offers) {
    if (o.term == "on_demand") on_demand.emplace(std::make_pair(o.sku, o.region), &o);
  }
  for (const Offer& o : offers) {
    if (o.term != "spot") continue;
    auto it = on_demand.find({o.sku, o.region});
    if (it != on_demand.end() && o.amount > it->second->amount) {
      problems.add(o.line, "price",
                   "spot " + format_number(o.amount) + " is above the on-demand price " +
                       format_number(it->second->amount) + " of line " +
                       std::to_string(it->second->line) + " (same instance and location)");
    }
  }
  return offers;
}

// One offer per (sku, region, term): zones with the same price merge into their region,
// zones with different prices keep "REGION/ZONE"; the same key twice with different prices is
// a problem.
std::vector<Offer> merge_zones(std::vector<Offer> offers, std::string_view key_columns,
                               Problems& problems) {
  using Key = std::tuple<std::string, std::string, std::string>;
  std::map<Key, std::vector<Offer*>> groups;
  for (Offer& o : offers) groups[{o.sku, o.region, o.term}].push_back(&o);
  std::vector<Offer> out;
  std::set<Key> qualified;
  for (auto& [key, group] : groups) {
    // Not `group` in the lambda: clang before 16 cannot capture a structured binding.
    const Offer* first = group.front();
    const bool same = std::all_of(group.begin(), group.end(),
                                  [&](const Offer* o) { return o->amount == first->amount; });
    if (same) {
      out.push_back(*group.front());
      continue;
    }
    std::map<std::string, const Offer*> by_zone;
    for (Offer* o : group) {
      auto [it, inserted] = by_zone.emplace(o->zone, o);
      if (!inserted && it->second->amount != o->amount) {
        problems.add(o->line, std::string(key_columns),
                     "the same instance, region" + std::string(o->zone.empty() ? "" : ", zone") +
                         " and term as line " + std::to_string(it->second->line) +
                         " with another price (" + format_number(o->amount) + " vs " +
                         format_number(it->second->amount) + ")");
        continue;
      }
      if (!inserted) continue;
      Offer zoned = *o;
      if (!o->zone.empty()) zoned.region = o->region + "/" + o->zone;
      out.push_back(zoned);
    }
  }
  std::sort(out.begin(), out.end(), [](const Offer& a, const Offer& b) { return a.line < b.line; });
  return out;
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

void bind_value(SQLite::Statement& q, int index, const CellValue& value) {
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          q.bind(index);
        } else {
          q.bind(index, v);
        }
      },
      value);
}

std::string cell_text(const CellValue& value) {
  if (const auto* s = std::get_if<std::string>(&value)) return *s;
  if (const auto* d = std::get_if<double>(&value)) return format_number(*d);
  if (const auto* i = std::get_if<std::int64_t>(&value)) return std::to_string(*i);
  return "";
}

CellValue column_value(const SQLite::Column& column) {
  if (column.isNull()) return std::monostate{};
  if (column.isInteger()) return static_cast<std::int64_t>(column.getInt64());
  if (column.isFloat()) return column.getDouble();
  return column.getString();
}

bool same_value(const CellValue& stored, const CellValue& incoming) {
  auto number = [](const CellValue& v) -> std::optional<double> {
    if (const auto* d = std::get_if<double>(&v)) return *d;
    if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
    return std::nullopt;
  };
  auto a = number(stored);
  auto b = number(incoming);
  if (a && b) return *a == *b;
  return stored == incoming;
}

// Opens (creating) the user database and brings it to the current schema, in WAL mode.
std::unique_ptr<SQLite::Database> open_user_database(const std::string& db_path) {
  const fs::path parent = fs::path(db_path).parent_path();
  std::error_code ec;
  if (!parent.empty()) fs::create_directories(parent, ec);
  if (ec) throw CatalogError(db_path + ": cannot create the folder: " + ec.message());
  if (fs::exists(db_path, ec) && !fs::is_regular_file(db_path, ec)) {
    throw CatalogError(db_path + ": cannot open catalog: not a regular file");
  }
  auto db =
      std::make_unique<SQLite::Database>(db_path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
  db->setBusyTimeout(kCatalogBusyTimeoutMs);
  // Checked before anything is written: never turn someone else's database into a catalog.
  const int application_id = db->execAndGet("PRAGMA application_id").getInt();
  const int tables = db->execAndGet("SELECT count(*) FROM sqlite_master").getInt();
  if (application_id != kCatalogApplicationId && (application_id != 0 || tables != 0)) {
    throw CatalogError(db_path + ": not a gputco catalog (application_id " +
                       std::to_string(application_id) + ")");
  }
  // Persistent: every later connection, reader or writer, uses the write-ahead log.
  db->exec("PRAGMA journal_mode = WAL");
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
        db, "INSERT OR IGNORE INTO devices (" + columns + ") VALUES (" + params + ")");
    for (int i = 0; i < select.getColumnCount(); ++i) {
      bind_value(insert, i + 1, column_value(select.getColumn(i)));
    }
    insert.exec();
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
    SQLite::Transaction transaction(*db, SQLite::TransactionBehavior::IMMEDIATE);
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
    SQLite::Statement add_book(*db, "INSERT OR IGNORE INTO books (name) VALUES (?)");
    add_book.bind(1, options.book);
    add_book.exec();
    copy_devices(*db, builtin, devices);

    // Table and column names are the constants of pricing/catalog_build.cpp, never data.
    SQLite::Statement existing(
        *db, "SELECT " + column_list + " FROM " + kind.table + " WHERE " + key_match);
    SQLite::Statement insert(*db, "INSERT INTO " + std::string(kind.table) + " (book, " +
                                      column_list + ") VALUES (?1" + params + ")");
    for (const Record& r : records) {
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
                             " with " + columns[i] + " " + in_quotes(cell_text(stored)) + ", not " +
                             in_quotes(cell_text(r.values[i])) +
                             " (an observation is never overwritten: give the new figure its "
                             "own date)");
          }
        }
        if (same) ++report.unchanged;
        continue;
      }
      insert.reset();
      insert.clearBindings();
      insert.bind(1, options.book);
      for (std::size_t i = 0; i < columns.size(); ++i) {
        bind_value(insert, static_cast<int>(i) + 2, r.values[i]);
      }
      insert.exec();
      ++report.inserted;
    }
    if (!problems.items.empty()) return;  // the transaction rolls back
    fault_injection_pause();
    transaction.commit();
  } catch (const SQLite::Exception& e) {
    throw CatalogError(db_path + ": cannot import: " + e.what());
  }
}

const FileKind& kind_of(ImportFormat format) {
  if (format == ImportFormat::purchase_prices) return purchase_kind();
  if (format == ImportFormat::rental_offers) return rental_kind();
  throw std::invalid_argument("export: only purchase_prices and rental_offers are written");
}

std::string export_rows(SQLite::Database& db, ImportFormat format, const std::string& book) {
  const FileKind& kind = kind_of(format);
  const std::vector<std::string> columns = data_file_columns(kind.data_file);
  std::string column_list;
  std::string order;
  for (std::size_t i = 0; i < columns.size(); ++i) column_list += (i ? ", " : "") + columns[i];
  for (const std::string& key : kind.key) order += key + ", ";
  SQLite::Statement q(db, "SELECT " + column_list + " FROM " + kind.table +
                              " WHERE (?1 = '' OR book = ?1) ORDER BY " + order + "book");
  q.bind(1, book);
  std::string out;
  for (std::size_t i = 0; i < columns.size(); ++i) out += (i ? "," : "") + columns[i];
  out += "\n";
  while (q.executeStep()) {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (i) out += ',';
      out += csv_field(cell_text(column_value(q.getColumn(static_cast<int>(i)))));
    }
    out += "\n";
  }
  return out;
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
  Problems problems{csv_path, {}};
  // Options first: they are part of the input.
  if (options.book.empty() || options.book.find_first_of(" \t\r\n") == 0 ||
      options.book.find_last_of(" \t\r\n") == options.book.size() - 1) {
    throw ImportError({"--book: " + in_quotes(options.book) +
                       " is not a book name (not empty, no leading or trailing space)"});
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
  if (csv.header_line == 0) throw ImportError({csv_path + ":1: header: file is empty"});
  const auto format = detect_format(csv);
  if (!format) {
    throw ImportError({csv_path + ":" + std::to_string(csv.header_line) +
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
    records = read_own_format(*kind, csv_path, device_ids, options, problems, report);
  } else {
    const std::string provider =
        options.provider.empty() ? provider_from_path(csv_path) : options.provider;
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
    std::vector<Offer> offers = *format == ImportFormat::skypilot_vms
                                    ? read_skypilot(csv, provider, problems, report)
                                    : read_gpuhunt(csv, provider, problems, report);
    offers = merge_zones(
        std::move(offers),
        *format == ImportFormat::skypilot_vms ? "InstanceType+Region" : "instance_name+location",
        problems);
    records = offers_to_records(offers, provider, options, source);
  }
  if (!problems.items.empty()) throw ImportError(problems.sorted());

  write_records(db_path, *kind, records, *builtin, options, problems, report);
  if (!problems.items.empty()) throw ImportError(problems.sorted());
  return report;
}

std::string export_price_book(const std::string& db_path, ImportFormat format,
                              const std::string& book) {
  std::error_code ec;
  if (!fs::is_regular_file(db_path, ec)) {
    throw CatalogError(db_path + ": cannot open catalog: no such file");
  }
  try {
    SQLite::Database db(db_path, SQLite::OPEN_READONLY);
    db.setBusyTimeout(kCatalogBusyTimeoutMs);
    if (db.execAndGet("PRAGMA application_id").getInt() != kCatalogApplicationId) {
      throw CatalogError(db_path + ": not a gputco catalog");
    }
    if (db.execAndGet("PRAGMA user_version").getInt() < 2) {
      throw CatalogError(db_path + ": holds no price books (schema version 1)");
    }
    return export_rows(db, format, book);
  } catch (const SQLite::Exception& e) {
    throw CatalogError(db_path + ": cannot export: " + e.what());
  }
}

std::string export_builtin_prices(ImportFormat format) {
  try {
    auto db = open_builtin_database();
    return export_rows(*db, format, "");
  } catch (const SQLite::Exception& e) {
    throw CatalogError(std::string("built-in catalog: cannot export: ") + e.what());
  }
}

}  // namespace gputco
