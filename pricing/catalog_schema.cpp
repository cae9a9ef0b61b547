#include "pricing/catalog_schema.hpp"

#include <SQLiteCpp/SQLiteCpp.h>

#include <stdexcept>
#include <string>

#include "pricing/embedded.hpp"

namespace gputco {

namespace {

std::string_view bytes(const unsigned char* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

void apply_migrations(SQLite::Database& db, int from_version) {
  for (int version = from_version + 1; version <= kCatalogSchemaVersion; ++version) {
    db.exec(std::string(catalog_migration_sql(version)));
    // Version numbers are constants of this file, never data.
    db.exec("PRAGMA user_version = " + std::to_string(version));
  }
}

}  // namespace

std::string_view catalog_schema_sql() {
  return bytes(embedded::schema_sql, embedded::schema_sql_size);
}

std::string_view catalog_migration_sql(int to_version) {
  switch (to_version) {
    case 2:
      return bytes(embedded::migration_0002_sql, embedded::migration_0002_sql_size);
    case 3:
      return bytes(embedded::migration_0003_sql, embedded::migration_0003_sql_size);
    case 4:
      return bytes(embedded::migration_0004_sql, embedded::migration_0004_sql_size);
    case 5:
      return bytes(embedded::migration_0005_sql, embedded::migration_0005_sql_size);
    case 6:
      return bytes(embedded::migration_0006_sql, embedded::migration_0006_sql_size);
    case 7:
      return bytes(embedded::migration_0007_sql, embedded::migration_0007_sql_size);
    case 8:
      return bytes(embedded::migration_0008_sql, embedded::migration_0008_sql_size);
    case 9:
      return bytes(embedded::migration_0009_sql, embedded::migration_0009_sql_size);
    default:
      throw std::out_of_range("no catalog migration to version " + std::to_string(to_version));
  }
}

void create_catalog_schema(SQLite::Database& db, bool in_transaction) {
  if (in_transaction) {
    db.exec(std::string(catalog_schema_sql()));
    apply_migrations(db, 1);
    return;
  }
  // schema.sql sets PRAGMA foreign_keys, which is a no-op inside a transaction: set it first.
  db.exec("PRAGMA foreign_keys = ON");
  SQLite::Transaction transaction(db);
  db.exec(std::string(catalog_schema_sql()));
  apply_migrations(db, 1);
  transaction.commit();
}

void migrate_catalog(SQLite::Database& db, bool in_transaction) {
  const int version = db.execAndGet("PRAGMA user_version").getInt();
  if (version >= kCatalogSchemaVersion) return;
  if (in_transaction) {
    apply_migrations(db, version);
    return;
  }
  SQLite::Transaction transaction(db);
  apply_migrations(db, version);
  transaction.commit();
}

}  // namespace gputco
