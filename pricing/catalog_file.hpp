// Opening a catalog file on disk (a user database of price books): read-only where the media
// or the permissions allow nothing else, written only in place (never through a link), and a
// lock told apart from a file that is not a catalog.
#pragma once

#include <memory>
#include <string>

namespace SQLite {
class Database;
}

namespace gputco {

/// Opens the existing catalog file `path` for reading, never writing to it or beside it when
/// it cannot: first as an ordinary read-only connection (which reads the write-ahead log of a
/// writer in progress); when that cannot open the log's shared-memory file beside the
/// database (read-only media, a folder the user cannot write: SQLITE_CANTOPEN), again with
/// SQLite's immutable=1 (no locks, no -shm file: the file is taken as it is). Waits up to
/// kCatalogBusyTimeoutMs for another program's lock. The first page is read before returning,
/// so these failures surface here. Throws CatalogLocked when still locked after the wait,
/// CatalogError "PATH: not a gputco catalog: ..." when SQLite cannot read it as a database,
/// CatalogError naming the reason otherwise.
std::unique_ptr<SQLite::Database> open_catalog_file_read_only(const std::string& path);

/// Opens (creating it, and its folder, when missing) the catalog file `path` to write: never
/// through a symbolic link (SQLITE_OPEN_NOFOLLOW), never a directory or a special file, and
/// refused clearly when it can only be read (permissions, read-only media): "PATH: the catalog
/// is read-only (...); nothing was written". Waits up to kCatalogBusyTimeoutMs for locks.
/// Throws CatalogError, CatalogLocked.
std::unique_ptr<SQLite::Database> open_catalog_file_for_writing(const std::string& path);

/// The CatalogError for an SQLite failure on the catalog file `path` while `doing` ("cannot
/// import"): CatalogLocked "PATH: the catalog is locked by another program (waited 10 s); try
/// again when it has finished" for SQLITE_BUSY and SQLITE_LOCKED; CatalogFileInvalid "PATH:
/// DOING: REASON" for SQLITE_NOTADB and SQLITE_CORRUPT (the file is not a readable database);
/// else CatalogError "PATH: DOING: REASON".
[[noreturn]] void throw_catalog_file_error(const std::string& path, const std::string& doing,
                                           int sqlite_code, const std::string& reason);

}  // namespace gputco
