// The catalog's data files as the builder reads them: each file's columns (name, type, range,
// choices, the value of a column added by a migration in a file written before it), its key
// and whether it is required, mirroring pricing/schema.sql and its migrations; and the
// currencies a price may name. Internal to pricing/: the catalog builder and the import share
// it.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "pricing/catalog_table.hpp"

namespace gputco::catalog_table {

/// Every data file of pricing/data/ (devices.csv, models.csv, ..., the price files), in the
/// order the builder reads and inserts them (a table's references come before it). Built
/// once; throws nothing.
const std::vector<TableSpec>& table_specs();

/// The ISO 4217 codes the catalog's schema knows (its currencies table after every
/// migration: 0007 added all of ISO 4217), read from an in-memory database with that schema.
/// Throws SQLite::Exception only if SQLite itself fails.
std::set<std::string, std::less<>> known_currencies();

}  // namespace gputco::catalog_table
