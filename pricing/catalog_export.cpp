#include "pricing/catalog_export.hpp"

#include <SQLiteCpp/SQLiteCpp.h>

#include <filesystem>

#include "pricing/catalog_file.hpp"
#include "pricing/catalog_schema.hpp"
#include "pricing/csv_table.hpp"
#include "pricing/embedded.hpp"
#include "pricing/price_book_files.hpp"

namespace gputco {

namespace {

std::string export_rows(SQLite::Database& db, ImportFormat format, const std::string& book) {
  const FileKind& kind = kind_of(format);
  const std::vector<std::string> columns = data_file_columns(kind.data_file);
  std::string column_list;
  std::string order;
  for (std::size_t i = 0; i < columns.size(); ++i) column_list += (i ? ", " : "") + columns[i];
  for (const std::string& key : kind.key) order += key + ", ";
  SQLite::Statement q(db, "SELECT " + column_list + " FROM " + kind.table +
                              " WHERE (?1 = '' OR book = ?1) ORDER BY " + order + "book");
  q.bind(1, book);
  std::string out;
  for (std::size_t i = 0; i < columns.size(); ++i) out += (i ? "," : "") + columns[i];
  out += "\n";
  while (q.executeStep()) {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (i) out += ',';
      // Text cells guarded against formulas (csv_text_field), numbers as they are.
      const CellValue value = column_value(q.getColumn(static_cast<int>(i)));
      out += std::holds_alternative<std::string>(value) ? csv_text_field(cell_text(value))
                                                        : csv_number_field(cell_text(value));
    }
    out += "\n";
  }
  return out;
}

}  // namespace

std::string export_price_book(const std::string& db_path, ImportFormat format,
                              const std::string& book) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(db_path, ec)) {
    throw CatalogError(db_path + ": cannot open catalog: no such file");
  }
  const auto db = open_catalog_file_read_only(db_path);
  try {
    if (db->execAndGet("PRAGMA application_id").getInt() != kCatalogApplicationId) {
      throw CatalogFileInvalid(db_path + ": not a gputco catalog");
    }
    if (db->execAndGet("PRAGMA user_version").getInt() < 2) {
      throw CatalogError(db_path + ": holds no price books (schema version 1)");
    }
    return export_rows(*db, format, book);
  } catch (const SQLite::Exception& e) {
    throw_catalog_file_error(db_path, "cannot export", e.getErrorCode(), e.what());
  }
}

std::string export_builtin_prices(ImportFormat format) {
  try {
    auto db = open_builtin_database();
    return export_rows(*db, format, "");
  } catch (const SQLite::Exception& e) {
    throw CatalogError(std::string("built-in catalog: cannot export: ") + e.what());
  }
}

}  // namespace gputco
