// Opening the catalog the user asked for: the built-in one, or --catalog FILE.
#pragma once

#include <string>

#include "pricing/catalog.hpp"

namespace gputco::cli {

/// The built-in catalog when `path` is empty, else the database file at `path` (read-only).
/// Throws CatalogError.
Catalog open_catalog(const std::string& path);

}  // namespace gputco::cli
