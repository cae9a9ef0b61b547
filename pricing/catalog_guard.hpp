// Internal to pricing/: the one place SQLite's exceptions become CatalogError, shared by the
// catalog's opening (catalog_open.cpp) and its queries (catalog.cpp).
#pragma once

#include <SQLiteCpp/Exception.h>

#include <string>

#include "pricing/catalog.hpp"

namespace gputco::catalog_detail {

// Runs `body`, turning SQLite's exceptions into CatalogError (one error type per layer).
/// Returns what `body()` returns; throws CatalogError "catalog: WHAT: SQLite's message" for a
/// SQLite::Exception, anything else `body` throws unchanged.
template <typename Body>
auto guarded(const char* what, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const SQLite::Exception& e) {
    throw CatalogError(std::string("catalog: ") + what + ": " + e.what());
  }
}

}  // namespace gputco::catalog_detail
