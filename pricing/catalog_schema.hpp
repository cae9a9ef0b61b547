// The catalog schema and its migrations: pricing/schema.sql (version 1) followed by
// pricing/migrations/NNNN_*.sql, each raising PRAGMA user_version by one.
#pragma once

#include <string_view>

namespace SQLite {
class Database;
}

namespace gputco {

/// Schema version of the catalogs this code builds and reads (PRAGMA user_version).
inline constexpr int kCatalogSchemaVersion = 9;
/// PRAGMA application_id of a gputco catalog: 0x47505443, "GPTC".
inline constexpr int kCatalogApplicationId = 0x47505443;
/// How long a connection to a catalog file waits for another process's lock (an import in
/// progress) before it fails with SQLITE_BUSY, in milliseconds.
inline constexpr int kCatalogBusyTimeoutMs = 10000;

/// pricing/schema.sql: the version 1 schema, compiled into the library.
std::string_view catalog_schema_sql();

/// The SQL that takes a catalog from `to_version` - 1 to `to_version` (2 .. current).
/// Throws std::out_of_range for any other version.
std::string_view catalog_migration_sql(int to_version);

/// Creates the current schema in the main database of `db`, which must be empty: schema.sql,
/// then every migration, in one transaction (or in the caller's, when `in_transaction`).
/// Throws SQLite::Exception on failure (nothing is created then).
void create_catalog_schema(SQLite::Database& db, bool in_transaction = false);

/// Brings the main database of `db` from its PRAGMA user_version (1 .. current) to the
/// current version, one migration after the other, in one transaction (nothing changes when a
/// migration fails). Does nothing at the current version. The caller holds the write lock when
/// other connections may write (e.g. inside BEGIN IMMEDIATE: pass `in_transaction` = true,
/// and no transaction of its own is opened). Throws SQLite::Exception on failure.
void migrate_catalog(SQLite::Database& db, bool in_transaction = false);

}  // namespace gputco
