// Opening the catalog the user asked for: the built-in one, with the user's price books
// (a user database) layered over it.
#pragma once

#include <string>
#include <vector>

#include "pricing/catalog.hpp"
#include "reports/atomic_file.hpp"
#include "reports/json_stamp.hpp"

namespace gputco::cli {

/// Where the user database of price books lives by default:
/// $XDG_DATA_HOME/gputco/catalog.sqlite when XDG_DATA_HOME is an absolute path, else
/// $HOME/.local/share/gputco/catalog.sqlite; "" when neither variable is usable.
std::string default_user_catalog_path();

/// The help text of --catalog DB for the commands that read the catalog.
inline constexpr const char* kCatalogOptionHelp =
    "user catalog (price books) to layer over the built-in one, read-only (default: the "
    "config file's [catalog] path, else the XDG one if it exists)";

/// The user database the run works on by default: the config file's [catalog] path when set,
/// else default_user_catalog_path().
std::string configured_user_catalog_path();

/// The user database a command works on: `path` (from --catalog) when given, else the config
/// file's [catalog] path, else the default. Throws UsageError when none exists (no HOME).
std::string user_catalog_path(const std::string& path);

/// The catalog plans, fits and lists read, only ever read (never written):
///  - `path` empty: the built-in catalog with the config file's [catalog] path layered over
///    it (which must be a catalog: ScenarioError naming the config file otherwise), else with
///    the default user database when that file exists;
///  - `path` given (--catalog DB): the built-in catalog with the user database DB layered over
///    it; DB must exist and be a gputco catalog.
/// Throws UsageError (exit 2) when a --catalog file is missing or not a catalog, CatalogError
/// (exit 1) when the default user database exists but cannot be read, CatalogLocked (exit 1)
/// when either is locked by another program past the busy timeout.
Catalog open_catalog(const std::string& path);

/// The stamp of the JSON outputs that read `catalog`: its schema version and date.
JsonStamp json_stamp(const Catalog& catalog);
/// The catalog files a command reads, as inputs that no output may replace
/// (check_output_path): the --catalog file when given, else the default user database when
/// it exists; none for the built-in catalog alone.
std::vector<CommandInput> catalog_inputs(const std::string& path);

/// Checks the user database `db` before an import writes to it: it must not be a symbolic
/// link (a database is written in place, never through a link: name the file itself), nor a
/// directory, FIFO or device, nor the file being imported (`import_file`). Throws
/// UsageError (exit 2) or OutputRefused (exit 2). A missing `db` is fine: the import creates
/// it.
void check_catalog_destination(const std::string& db, const std::string& import_file);

}  // namespace gputco::cli
