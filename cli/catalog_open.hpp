// Opening the catalog the user asked for: the built-in one, with the user's price books
// (a user database) layered over it.
#pragma once

#include <string>

#include "pricing/catalog.hpp"

namespace gputco::cli {

/// Where the user database of price books lives by default:
/// $XDG_DATA_HOME/gputco/catalog.sqlite when XDG_DATA_HOME is an absolute path, else
/// $HOME/.local/share/gputco/catalog.sqlite; "" when neither variable is usable.
std::string default_user_catalog_path();

/// The user database a command works on: `path` (from --catalog) when given, else the default.
/// Throws UsageError when neither exists (no HOME).
std::string user_catalog_path(const std::string& path);

/// The catalog plans, fits and lists read, only ever read (never written):
///  - `path` empty: the built-in catalog, with the default user database layered over it when
///    that file exists;
///  - `path` given (--catalog DB): the built-in catalog with the user database DB layered over
///    it; DB must exist and be a gputco catalog.
/// Throws UsageError (exit 2) when a --catalog file is missing or not a catalog, CatalogError
/// (exit 1) when the default user database exists but cannot be read.
Catalog open_catalog(const std::string& path);

}  // namespace gputco::cli
