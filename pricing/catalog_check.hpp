// Physical checks of a catalog database file: SQLite's integrity and foreign-key checks.
// The logical checks (spot above on-demand, price floor, stale rows) are Catalog::audit.
#pragma once

#include <string>
#include <vector>

namespace gputco {

/// Runs PRAGMA integrity_check and PRAGMA foreign_key_check on the catalog database file at
/// `path`, opened read-only. Returns one line per problem ("PATH: integrity: ...",
/// "PATH: foreign key: TABLE row N: no PARENT row it refers to"), empty when the file is sound.
/// Throws CatalogError when the file cannot be opened at all.
std::vector<std::string> catalog_file_problems(const std::string& path);

/// The same checks on the built-in catalog image (a build defect if any fails).
std::vector<std::string> builtin_catalog_problems();

}  // namespace gputco
