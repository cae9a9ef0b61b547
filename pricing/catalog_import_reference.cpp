// Devices and models of the user's own (pricing/catalog_import_steps.hpp import_reference_rows):
// checked as the built-in devices.csv and models.csv are, never a built-in id or alias (the
// built-in layer would win: README "catalog"), never replacing a row of the database with other
// figures. A small file, read whole.
#include <SQLiteCpp/SQLiteCpp.h>

#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "pricing/catalog_build.hpp"
#include "pricing/catalog_file.hpp"
#include "pricing/catalog_import_steps.hpp"
#include "pricing/catalog_table.hpp"
#include "pricing/visible_text.hpp"

namespace gputco::import_detail {

void import_reference_rows(const std::string& db_path, ImportFormat format, CsvTable& csv,
                           const std::string& as_of, SQLite::Database& builtin, Problems& problems,
                           ImportReport& report) {
  const bool devices = format == ImportFormat::devices;
  const std::string file_name = devices ? "devices.csv" : "models.csv";
  const std::string table = devices ? "devices" : "models";  // constants, never data
  const std::string noun = devices ? "device" : "model";
  const CheckedTable checked = check_reference_file(file_name, csv, problems.items);
  report.rows_read = static_cast<int>(checked.rows.size());
  const auto id_column = static_cast<std::size_t>(column_index(checked.columns, "id"));
  const int repo_column = devices ? -1 : column_index(checked.columns, "hf_repo");
  const auto text_of = [](const CheckedRow& row, std::size_t column) -> std::string {
    const auto* text = std::get_if<std::string>(&row.values[column]);
    return text != nullptr ? *text : std::string();
  };
  SQLite::Statement builtin_id(builtin, "SELECT id FROM " + table +
                                            " WHERE id = ?1 COLLATE NOCASE" +
                                            (devices ? std::string()
                                                     : " OR (hf_repo <> '' AND hf_repo = ?1 "
                                                       "COLLATE NOCASE)"));
  const auto observed_column =
      static_cast<std::size_t>(column_index(checked.columns, "observed_on"));
  for (const CheckedRow& row : checked.rows) {
    if (const std::string date = text_of(row, observed_column); !date.empty() && date > as_of) {
      problems.add(row.line, "observed_on",
                   date + " is after the import date " + as_of +
                       " (--as-of, default today): a figure cannot be read in the future");
    }
    const std::string id = text_of(row, id_column);
    if (id.empty()) continue;  // its problem is reported
    builtin_id.reset();
    builtin_id.bind(1, id);
    if (builtin_id.executeStep()) {
      problems.add(row.line, "id",
                   in_quotes(id) + " is the " + noun + " " +
                       in_quotes(builtin_id.getColumn(0).getString()) +
                       " of the built-in catalog (ids and aliases ignore case), which a plan "
                       "would take: give yours another id");
    }
    if (repo_column < 0) continue;
    const std::string repo = text_of(row, static_cast<std::size_t>(repo_column));
    if (repo.empty()) continue;
    builtin_id.reset();
    builtin_id.bind(1, repo);
    if (builtin_id.executeStep()) {
      problems.add(row.line, "hf_repo",
                   in_quotes(repo) + " is already the built-in model " +
                       in_quotes(builtin_id.getColumn(0).getString()) +
                       " (or its alias; ids and aliases ignore case)");
    }
  }
  if (!problems.items.empty()) return;

  std::unique_ptr<SQLite::Database> db;  // outlives the transaction, which rolls back on it
  std::optional<SQLite::Transaction> transaction;
  db = open_for_import(db_path, transaction);
  try {
    std::string column_list;
    std::string params;
    for (std::size_t i = 0; i < checked.columns.size(); ++i) {
      column_list += (i ? ", " : "") + checked.columns[i];
      params += (i ? ", ?" : "?") + std::to_string(i + 1);
    }
    SQLite::Statement existing(
        *db, "SELECT " + column_list + " FROM main." + table + " WHERE id = ?1 COLLATE NOCASE");
    SQLite::Statement insert(
        *db, "INSERT INTO main." + table + " (" + column_list + ") VALUES (" + params + ")");
    // A Hugging Face id that another model of the database holds (the index ignores case).
    std::optional<SQLite::Statement> alias;
    if (!devices) {
      alias.emplace(*db,
                    "SELECT id FROM main.models WHERE hf_repo <> '' AND lower(hf_repo) = "
                    "lower(?1) AND id <> ?2 COLLATE NOCASE");
    }
    for (const CheckedRow& row : checked.rows) {
      const std::string id = text_of(row, id_column);
      existing.reset();
      existing.bind(1, id);
      if (existing.executeStep()) {
        const std::string stored_id = existing.getColumn(0).getString();
        if (stored_id != id) {
          problems.add(row.line, "id",
                       in_quotes(id) + " is the " + noun + " " + in_quotes(stored_id) +
                           " of this catalog already (ids ignore case)");
          continue;
        }
        bool same = true;
        for (std::size_t i = 0; i < checked.columns.size() && same; ++i) {
          const CellValue stored = column_value(existing.getColumn(static_cast<int>(i)));
          if (!same_value(stored, row.values[i])) {
            same = false;
            problems.add(row.line, checked.columns[i],
                         "the catalog already holds " + noun + " " + in_quotes(id) + " with " +
                             checked.columns[i] + " " + in_quotes(visible_text(cell_text(stored))) +
                             ", not " + in_quotes(visible_text(cell_text(row.values[i]))) + " (a " +
                             noun + " is never replaced: give the changed one another id)");
          }
        }
        if (same) ++report.unchanged;
        continue;
      }
      if (alias && repo_column >= 0) {
        const std::string repo = text_of(row, static_cast<std::size_t>(repo_column));
        if (!repo.empty()) {
          alias->reset();
          alias->bind(1, repo);
          alias->bind(2, id);
          if (alias->executeStep()) {
            problems.add(row.line, "hf_repo",
                         in_quotes(repo) + " is already the alias of model " +
                             in_quotes(alias->getColumn(0).getString()) +
                             " of this catalog (aliases ignore case)");
            continue;
          }
        }
      }
      insert.reset();
      insert.clearBindings();
      for (std::size_t i = 0; i < checked.columns.size(); ++i) {
        bind_value(insert, static_cast<int>(i) + 1, row.values[i]);
      }
      insert.exec();
      ++report.inserted;
    }
    if (!problems.items.empty()) return;  // rolls back
    fault_injection_pause();
    transaction->commit();
  } catch (const SQLite::Exception& e) {
    transaction.reset();
    throw_catalog_file_error(db_path, "cannot import", e.getErrorCode(), e.what());
  }
}

}  // namespace gputco::import_detail
