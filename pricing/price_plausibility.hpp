// Plausibility of purchase prices and rental offers, read from the layered views of a catalog
// connection (layered_price_observations, layered_rental_offers: see pricing/catalog.cpp).
// Catalog::price_plausibility, Catalog::rental_plausibility and Catalog::audit call these on
// the catalog's connection; an import calls them on its writer connection, inside its
// transaction, to refuse the new rows that fail (pricing/catalog_import.cpp).
//
// Every check is O(n log n) in the rows: they are streamed in key order (SQLite sorts), one
// group (an item in one currency, a device and term in one currency) in memory at a time, as
// small records; the text of a finding is read back for the rows that have one.
#pragma once

#include <string>
#include <vector>

#include "pricing/catalog.hpp"

namespace SQLite {
class Database;
}

namespace gputco {

/// Catalog::price_plausibility on the layered views of `db`. Throws SQLite::Exception.
std::vector<Catalog::PriceFinding> purchase_plausibility(SQLite::Database& db,
                                                         const std::string& book);

/// Catalog::rental_plausibility on the layered views of `db`. Throws SQLite::Exception.
std::vector<Catalog::PriceFinding> rental_plausibility(SQLite::Database& db,
                                                       const std::string& book);

/// Spot and reserved (reserved_1y, reserved_3y) rates above the on-demand rate of the same
/// provider, device, region, date, billing and currency (the same sku's on-demand rate when
/// published, else the dearest), every layer, one line each, ordered by provider, sku, region,
/// date, book. Throws SQLite::Exception.
std::vector<std::string> discounted_above_on_demand(SQLite::Database& db);

}  // namespace gputco
