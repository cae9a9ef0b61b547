// The user's measured serving runs in the user catalog (migration 0009, `gputco calibrate`):
// stored in one transaction with their file's name and SHA-256 as their source, importing a
// file again storing nothing new; listed by Catalog::serving_runs; removed by id or by file.
#pragma once

#include <string>
#include <vector>

#include "engine/serving/serving_run.hpp"
#include "pricing/catalog_import.hpp"

namespace gputco {

/// What storing runs did.
struct ServingRunsStored {
  int inserted = 0;                      ///< runs new to the catalog
  int unchanged = 0;                     ///< runs of this file already stored with the same figures
  std::vector<MeasuredServingRun> runs;  ///< every run given, with its catalog id ("run-N")
};

/// Stores `runs` (of one or more files: scenarios/benchmark_runs.hpp) in the user database at
/// `db_path`, creating it (and its folder) with the current schema, or migrating it, as
/// `gputco catalog import` does; `imported_on` (YYYY-MM-DD) dates the rows. A run whose file
/// (SHA-256) and index are stored already counts as unchanged when its resolved figures are the
/// same, and is a problem when they differ (the same file imported with other flags: remove the
/// stored runs first). One IMMEDIATE transaction: any problem throws ImportError listing them
/// all ("FILE (run N): field: stored ..., now ...") and nothing is written; CatalogError when
/// the database cannot be written.
ServingRunsStored store_serving_runs(const std::string& db_path,
                                     const std::vector<MeasuredServingRun>& runs,
                                     const std::string& imported_on);

/// Removes runs from the user database at `db_path`: each selector an id ("run-12" or "12"),
/// a stored file's name, or the first 8 or more hex digits of its SHA-256 (every run of that
/// file). Returns the runs removed, in id order. Throws ImportError naming each selector that
/// matches no run (nothing is removed then), CatalogError when the database cannot be read or
/// written (a missing database: "no runs stored").
std::vector<MeasuredServingRun> remove_serving_runs(const std::string& db_path,
                                                    const std::vector<std::string>& selectors);

}  // namespace gputco
