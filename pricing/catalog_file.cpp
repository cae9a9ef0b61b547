#include "pricing/catalog_file.hpp"

#include <sqlite3.h>

#include <SQLiteCpp/SQLiteCpp.h>

#include <filesystem>

#include "pricing/catalog.hpp"
#include "pricing/catalog_schema.hpp"

namespace gputco {

namespace fs = std::filesystem;

namespace {

/// A file: URI for `path` with `query` ("immutable=1"): '%', '?' and '#' percent-encoded,
/// a relative path kept relative.
std::string file_uri(const std::string& path, const std::string& query) {
  std::string uri = "file:";
  for (const char c : path) {
    if (c == '%') {
      uri += "%25";
    } else if (c == '?') {
      uri += "%3f";
    } else if (c == '#') {
      uri += "%23";
    } else {
      uri += c;
    }
  }
  return uri + "?" + query;
}

bool is_lock(int code) {
  const int primary = code & 0xFF;
  return primary == SQLITE_BUSY || primary == SQLITE_LOCKED;
}

std::unique_ptr<SQLite::Database> open_and_probe(const std::string& name, int flags) {
  auto db = std::make_unique<SQLite::Database>(name, flags, kCatalogBusyTimeoutMs);
  // The first read takes the locks and opens the write-ahead log's -shm file.
  db->execAndGet("PRAGMA application_id");
  return db;
}

}  // namespace

void throw_catalog_file_error(const std::string& path, const std::string& doing, int sqlite_code,
                              const std::string& reason) {
  if (is_lock(sqlite_code)) {
    throw CatalogLocked(path + ": the catalog is locked by another program (waited " +
                        std::to_string(kCatalogBusyTimeoutMs / 1000) +
                        " s); try again when it has finished (an import in progress?)");
  }
  const int primary = sqlite_code & 0xFF;
  if (primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT) {
    throw CatalogFileInvalid(path + ": " + doing + ": " + reason);
  }
  throw CatalogError(path + ": " + doing + ": " + reason);
}

std::unique_ptr<SQLite::Database> open_catalog_file_read_only(const std::string& path) {
  try {
    try {
      return open_and_probe(path, SQLite::OPEN_READONLY);
    } catch (const SQLite::Exception& e) {
      if ((e.getErrorCode() & 0xFF) != SQLITE_CANTOPEN) throw;
      // Read-only media or folder: no -shm file can be made beside a WAL database.
      return open_and_probe(file_uri(path, "immutable=1"), SQLite::OPEN_READONLY | SQLITE_OPEN_URI);
    }
  } catch (const SQLite::Exception& e) {
    throw_catalog_file_error(path, "not a gputco catalog", e.getErrorCode(), e.what());
  }
}

std::unique_ptr<SQLite::Database> open_catalog_file_for_writing(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty()) fs::create_directories(parent, ec);
  if (ec) throw CatalogError(path + ": cannot create the folder: " + ec.message());
  if (fs::is_symlink(path, ec)) {
    throw CatalogError(path +
                       ": is a symbolic link; a catalog is written in place, never through "
                       "a link: give the file itself");
  }
  if (fs::exists(path, ec) && !fs::is_regular_file(path, ec)) {
    throw CatalogError(path + ": cannot open catalog: not a regular file");
  }
  try {
    auto db = std::make_unique<SQLite::Database>(
        path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE | SQLITE_OPEN_NOFOLLOW,
        kCatalogBusyTimeoutMs);
    // SQLite opens a file it may not write read-only without a word: say so now, not at the
    // first write ("attempt to write a readonly database").
    if (sqlite3_db_readonly(db->getHandle(), "main") == 1) {
      throw CatalogError(path +
                         ": the catalog is read-only (file permissions or read-only media); "
                         "nothing was written");
    }
    return db;
  } catch (const SQLite::Exception& e) {
    throw_catalog_file_error(path, "cannot open the catalog to write", e.getErrorCode(), e.what());
  }
}

}  // namespace gputco
