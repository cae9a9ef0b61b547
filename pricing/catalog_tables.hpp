// The catalog's data files and their columns (pricing/data/README.md), as the builder and the
// importer check them. Internal to pricing/; mirrors pricing/schema.sql and its migrations.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace gputco::catalog_tables {

enum class Type { text, decimal, integer, date, choice, currency };
enum class Range { any, positive, non_negative };

/// One column of a data file.
struct Column {
  std::string_view name;
  Type type = Type::text;
  bool optional = false;  ///< empty allowed: '' for text, NULL for numbers
  Range range = Range::any;
  std::vector<std::string_view> choices = {};
  /// A column added by a later schema version: a file whose header lacks it (older data, an
  /// older export) reads this value in every row; nullopt: the column is required.
  std::optional<std::string_view> when_absent = std::nullopt;
};

/// One data file and the table it fills.
struct TableSpec {
  std::string_view file;   ///< in the data directory
  std::string_view table;  ///< in the database
  bool required = false;
  std::vector<Column> columns;
  std::vector<std::string_view> key;  ///< columns that identify a row; each key once
  /// The key is an id compared ignoring case (devices, models, quants, systems): "H100" and
  /// "h100" are the same row.
  bool key_ignores_case = false;
};

/// Every data file, in build order: devices, models, quants, then the observations.
const std::vector<TableSpec>& table_specs();

}  // namespace gputco::catalog_tables
