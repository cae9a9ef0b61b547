#include "pricing/price_book_files.hpp"

#include <SQLiteCpp/SQLiteCpp.h>

#include <stdexcept>
#include <type_traits>
#include <variant>

#include "pricing/catalog_table.hpp"

namespace gputco {

const FileKind& purchase_kind() {
  static const FileKind kind{ImportFormat::purchase_prices,
                             "purchase_prices.csv",
                             "price_observations",
                             {"item_id", "condition", "seller", "region", "observed_on"}};
  return kind;
}

const FileKind& rental_kind() {
  static const FileKind kind{ImportFormat::rental_offers,
                             "rental_offers.csv",
                             "rental_offers",
                             {"provider", "sku", "billing", "term", "region", "observed_on"}};
  return kind;
}

const FileKind& kind_of(ImportFormat format) {
  if (format == ImportFormat::purchase_prices) return purchase_kind();
  if (format == ImportFormat::rental_offers) return rental_kind();
  throw std::invalid_argument("export: only purchase_prices and rental_offers are written");
}

std::string cell_text(const CellValue& value) {
  if (const auto* s = std::get_if<std::string>(&value)) return *s;
  if (const auto* d = std::get_if<double>(&value)) return catalog_table::format_number(*d);
  if (const auto* i = std::get_if<std::int64_t>(&value)) return std::to_string(*i);
  return "";
}

CellValue column_value(const SQLite::Column& column) {
  if (column.isNull()) return std::monostate{};
  if (column.isInteger()) return static_cast<std::int64_t>(column.getInt64());
  if (column.isFloat()) return column.getDouble();
  return column.getString();
}

}  // namespace gputco
