// Opening a catalog: the built-in one (embedded bytes, deserialized into memory), a file
// (checked to be a gputco catalog of this or an older schema, migrated in memory when older),
// or a user database layered over the built-in one (TEMP views that read every layer); and the
// facts of the catalog as a whole (its data date, its schema version).
#include <sqlite3.h>

#include <SQLiteCpp/Backup.h>
#include <SQLiteCpp/SQLiteCpp.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "pricing/catalog.hpp"
#include "pricing/catalog_file.hpp"
#include "pricing/catalog_guard.hpp"
#include "pricing/catalog_memo.hpp"
#include "pricing/catalog_schema.hpp"
#include "pricing/embedded.hpp"

namespace gputco {

namespace {

using catalog_detail::guarded;

// Tables a file must hold to be read as a catalog.
constexpr const char* kRequiredTables[] = {"meta",          "currencies", "devices",
                                           "models",        "quants",     "price_observations",
                                           "rental_offers", "tariffs",    "fx_rates"};
// Tables migrations/0002 added.
constexpr const char* kTablesOfVersion2[] = {"books", "systems", "system_prices", "resale_curves"};
// Tables migrations/0003 added.
constexpr const char* kTablesOfVersion3[] = {"api_prices", "grid_carbon"};

// ---- Layers ----------------------------------------------------------------------------------

// Schema names of the databases a catalog reads, lowest precedence first: {"main"} for one
// database, {"builtin", "main"} for the built-in catalog with a user database over it. They
// are the constants below, never data, so they may be spliced into SQL.
constexpr const char* kMainSchema = "main";
constexpr const char* kBuiltinSchema = "builtin";

// Reference tables: the first layer that has an id wins.
struct ReferenceTable {
  const char* table;
  const char* key;
};
constexpr ReferenceTable kReferenceTables[] = {
    {"devices", "id"}, {"models", "id"}, {"quants", "quant"}, {"systems", "id"}, {"books", "name"}};

// Observation tables: read together, each row with its layer (0 lowest) and book.
struct ObservationTable {
  const char* table;
  bool has_book;  // else every row counts as the built-in book's
};
constexpr ObservationTable kObservationTables[] = {
    {"price_observations", true}, {"rental_offers", true}, {"system_prices", true},
    {"tariffs", false},           {"fx_rates", false},     {"resale_curves", false},
    {"api_prices", false},        {"grid_carbon", false}};

// Creates the TEMP views layered_<table> every query reads (temp objects never touch the
// databases themselves, so this works over read-only ones).
void create_layer_views(SQLite::Database& db, const std::vector<std::string>& layers) {
  for (const auto& [table, key] : kReferenceTables) {
    std::string sql = std::string("CREATE TEMP VIEW layered_") + table + " AS ";
    std::string seen;
    for (const std::string& layer : layers) {
      if (!seen.empty()) sql += " UNION ALL ";
      sql += "SELECT * FROM " + layer + "." + table;
      if (!seen.empty()) sql += " WHERE " + std::string(key) + " NOT IN (" + seen + ")";
      seen += (seen.empty() ? "" : " UNION ") + std::string("SELECT ") + key + " FROM " + layer +
              "." + table;
    }
    db.exec(sql);
  }
  // The user's measured serving runs (migration 0009) are the top layer's alone: only a user
  // database holds any.
  db.exec("CREATE TEMP VIEW layered_serving_runs AS SELECT * FROM " + layers.back() +
          ".serving_runs");
  for (const auto& [table, has_book] : kObservationTables) {
    std::string sql = std::string("CREATE TEMP VIEW layered_") + table + " AS ";
    for (std::size_t i = 0; i < layers.size(); ++i) {
      if (i > 0) sql += " UNION ALL ";
      sql += "SELECT *, " + std::to_string(i) + " AS layer";
      if (!has_book) sql += std::string(", '") + kBuiltinBook + "' AS book";
      sql += " FROM " + layers[i] + "." + table;
    }
    db.exec(sql);
  }
}

// Checks that `db` holds a gputco catalog this code can read; returns what is wrong, or "".
std::string catalog_problem(SQLite::Database& db) {
  const int application_id = db.execAndGet("PRAGMA application_id").getInt();
  if (application_id != kCatalogApplicationId) {
    return "not a gputco catalog (application_id " + std::to_string(application_id) + ")";
  }
  const int version = db.execAndGet("PRAGMA user_version").getInt();
  if (version < 1) return "not a gputco catalog (schema version " + std::to_string(version) + ")";
  if (version > kCatalogSchemaVersion) {
    return "catalog schema version " + std::to_string(version) +
           " is newer than this program reads (" + std::to_string(kCatalogSchemaVersion) + ")";
  }
  SQLite::Statement has_table(db,
                              "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                              "name = ?");
  std::vector<const char*> required(std::begin(kRequiredTables), std::end(kRequiredTables));
  if (version >= 2)
    required.insert(required.end(), std::begin(kTablesOfVersion2), std::end(kTablesOfVersion2));
  if (version >= 3)
    required.insert(required.end(), std::begin(kTablesOfVersion3), std::end(kTablesOfVersion3));
  for (const char* table : required) {
    has_table.bind(1, table);
    has_table.executeStep();
    const bool present = has_table.getColumn(0).getInt() == 1;
    has_table.reset();
    if (!present) return std::string("not a gputco catalog (no table ") + table + ")";
  }
  return {};
}

// Loads the embedded built-in catalog into the (empty, in-memory) database `schema` of `db`,
// read-only unless `writable` (a private in-memory copy either way: a writer connection's
// BEGIN IMMEDIATE locks every attached database, which a read-only one refuses). `schema` is
// one of the constants above.
void deserialize_builtin(SQLite::Database& db, const char* schema, bool writable = false) {
  // SQLite frees the copy on close; the embedded bytes stay untouched in read-only memory.
  const auto size = static_cast<sqlite3_int64>(embedded::catalog_sqlite_size);
  auto* image = static_cast<unsigned char*>(sqlite3_malloc64(embedded::catalog_sqlite_size));
  if (image == nullptr) throw CatalogError("built-in catalog: out of memory");
  std::memcpy(image, embedded::catalog_sqlite, embedded::catalog_sqlite_size);
  const int rc =
      sqlite3_deserialize(db.getHandle(), schema, image, size, size,
                          writable ? SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE
                                   : SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY);
  if (rc != SQLITE_OK) {
    throw CatalogError(std::string("built-in catalog: cannot load: ") + sqlite3_errstr(rc));
  }
}

// Opens the file at `path` read-only (catalog_file.hpp: read-only media and folders too) and
// checks that it is a gputco catalog this code can read (of this or an older schema
// version). Throws CatalogError naming `path`, CatalogLocked when another program holds it.
std::unique_ptr<SQLite::Database> open_checked_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    throw CatalogError(path + ": cannot open catalog: no such file");
  }
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw CatalogError(path + ": cannot open catalog: not a regular file");
  }
  auto db = open_catalog_file_read_only(path);
  try {
    if (auto problem = catalog_problem(*db); !problem.empty()) {
      throw CatalogFileInvalid(path + ": " + problem);
    }
    return db;
  } catch (const SQLite::Exception& e) {
    throw_catalog_file_error(path, "not a gputco catalog", e.getErrorCode(), e.what());
  }
}

// A private in-memory copy of the catalog file `path`, migrated to the current schema.
std::unique_ptr<SQLite::Database> copy_into_memory(const std::string& path) {
  auto file = open_checked_file(path);
  try {
    auto copy = std::make_unique<SQLite::Database>(":memory:", SQLite::OPEN_READWRITE);
    SQLite::Backup backup(*copy, "main", *file, "main");
    backup.executeStep(-1);  // all pages, in one read transaction: a consistent snapshot
    migrate_catalog(*copy);
    return copy;
  } catch (const SQLite::Exception& e) {
    throw_catalog_file_error(path, "cannot read the catalog", e.getErrorCode(), e.what());
  }
}

}  // namespace

std::unique_ptr<SQLite::Database> open_builtin_database() {
  auto db = std::make_unique<SQLite::Database>(":memory:", SQLite::OPEN_READWRITE);
  deserialize_builtin(*db, kMainSchema);
  return db;
}

void attach_builtin_catalog(SQLite::Database& db, bool writable) {
  db.exec(std::string("ATTACH DATABASE ':memory:' AS ") + kBuiltinSchema);
  deserialize_builtin(db, kBuiltinSchema, writable);
}

void create_layered_views(SQLite::Database& db) {
  create_layer_views(db, {kBuiltinSchema, kMainSchema});
}

Catalog::Catalog(std::unique_ptr<SQLite::Database> db)
    : db_(std::move(db)), memo_(std::make_unique<Memo>()) {}

Catalog::Catalog(Catalog&&) noexcept = default;
Catalog& Catalog::operator=(Catalog&&) noexcept = default;
Catalog::~Catalog() = default;

Catalog Catalog::open_builtin() {
  return guarded("opening the built-in catalog", [] {
    auto db = open_builtin_database();
    if (auto problem = catalog_problem(*db); !problem.empty()) {
      throw CatalogError("built-in catalog: " + problem);
    }
    create_layer_views(*db, {kMainSchema});
    return Catalog(std::move(db));
  });
}

Catalog Catalog::open_file(const std::string& path) {
  auto db = open_checked_file(path);
  return guarded("opening a catalog file", [&] {
    if (db->execAndGet("PRAGMA user_version").getInt() < kCatalogSchemaVersion) {
      db = copy_into_memory(path);
    }
    create_layer_views(*db, {kMainSchema});
    return Catalog(std::move(db));
  });
}

Catalog Catalog::open_layered(const std::string& user_db_path) {
  auto db = copy_into_memory(user_db_path);
  return guarded("opening the layered catalog", [&] {
    attach_builtin_catalog(*db);
    create_layered_views(*db);
    return Catalog(std::move(db));
  });
}

std::string Catalog::data_date() const {
  return guarded("reading the catalog's date", [&] {
    std::string sql = "SELECT coalesce(max(d), '') FROM (";
    bool first = true;
    for (const auto& [table, has_book] : kObservationTables) {
      if (!first) sql += " UNION ALL ";
      first = false;
      sql += std::string("SELECT max(observed_on) AS d FROM layered_") + table;
    }
    return db_->execAndGet(sql + ")").getString();
  });
}

int Catalog::schema_version() const {
  return guarded("reading the schema version",
                 [&] { return db_->execAndGet("PRAGMA user_version").getInt(); });
}

}  // namespace gputco
