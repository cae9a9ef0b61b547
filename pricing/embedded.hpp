// Files compiled into the binary at build time by pricing/embed.cmake: the catalog schema and
// its migrations (in the builder library) and the built-in catalog database (in gputco_pricing).
#pragma once

#include <cstddef>
#include <memory>

namespace SQLite {
class Database;
}

namespace gputco::embedded {

/// pricing/schema.sql, as bytes (not NUL-terminated).
extern const unsigned char schema_sql[];
extern const std::size_t schema_sql_size;

/// pricing/migrations/0002_books_systems_resale.sql (schema version 1 -> 2).
extern const unsigned char migration_0002_sql[];
extern const std::size_t migration_0002_sql_size;

/// pricing/migrations/0003_api_prices_grid_carbon.sql (schema version 2 -> 3).
extern const unsigned char migration_0003_sql[];
extern const std::size_t migration_0003_sql_size;

/// pricing/migrations/0004_price_type_host_resale.sql (schema version 3 -> 4).
extern const unsigned char migration_0004_sql[];
extern const std::size_t migration_0004_sql_size;

/// pricing/migrations/0005_device_compute_peaks.sql (schema version 4 -> 5).
extern const unsigned char migration_0005_sql[];
extern const std::size_t migration_0005_sql_size;

/// pricing/migrations/0006_model_files.sql (schema version 5 -> 6).
extern const unsigned char migration_0006_sql[];
extern const std::size_t migration_0006_sql_size;

/// pricing/migrations/0007_all_iso_4217_currencies.sql (schema version 6 -> 7).
extern const unsigned char migration_0007_sql[];
extern const std::size_t migration_0007_sql_size;

/// pricing/migrations/0008_system_interconnect.sql (schema version 7 -> 8).
extern const unsigned char migration_0008_sql[];
extern const std::size_t migration_0008_sql_size;
/// pricing/migrations/0009_serving_runs.sql (schema version 8 -> 9).
extern const unsigned char migration_0009_sql[];
extern const std::size_t migration_0009_sql_size;

/// catalog.sqlite built from pricing/data/*.csv by gputco-catalog-build.
extern const unsigned char catalog_sqlite[];
extern const std::size_t catalog_sqlite_size;

}  // namespace gputco::embedded

namespace gputco {

/// Opens the built-in catalog as a read-only in-memory database (sqlite3_deserialize with
/// SQLITE_DESERIALIZE_READONLY over a private copy of the embedded bytes): nothing is read
/// from disk, and any write fails with SQLite::Exception (SQLITE_READONLY).
/// Throws CatalogError if SQLite rejects the image.
std::unique_ptr<SQLite::Database> open_builtin_database();

/// Attaches a private in-memory copy of the built-in catalog to `db` as the schema "builtin"
/// (call it outside a transaction: SQLite refuses ATTACH inside one), read-only unless
/// `writable`: a writer connection needs it writable, since BEGIN IMMEDIATE locks every
/// attached database (nothing writes to it). With create_layered_views, a writer connection to
/// a user database reads the same layered views as Catalog::open_layered. Throws CatalogError,
/// or SQLite::Exception.
void attach_builtin_catalog(SQLite::Database& db, bool writable = false);

/// Creates the TEMP views layered_<table> (pricing/catalog.cpp) over the schemas "builtin"
/// (layer 0) and "main" (layer 1) of `db`: TEMP objects, never written to either database.
/// Throws SQLite::Exception.
void create_layered_views(SQLite::Database& db);

}  // namespace gputco
