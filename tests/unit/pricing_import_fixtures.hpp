// Helpers shared by the price-book import tests (pricing_import*.cpp, pricing_held_out.cpp,
// pricing_statistics_import.cpp): the headers of our own price files, a fresh directory per
// test, files written and read byte for byte, the options of a plain import.
#pragma once

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "pricing/catalog_import.hpp"
#include "tests/unit/pricing_fixtures.hpp"

namespace gputco::test {

/// The header lines of our own price files (pricing/data/README.md).
inline constexpr const char* kPriceHeader =
    "item_id,condition,amount,currency,region,seller,observed_on,source,note\n";
inline constexpr const char* kRentalHeader =
    "provider,sku,device_id,devices_per_instance,billing,term,amount,setup_fee,currency,region,"
    "observed_on,source,note\n";

/// A fresh directory for the running test, "PREFIX.Suite.test" under work_dir (ctest runs
/// tests as parallel processes: each has its own).
inline std::filesystem::path current_test_dir(const std::string& prefix) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return work_dir(prefix + "." + info->test_suite_name() + "." + info->name());
}

/// Writes `content` to `path` byte for byte, creating its folders; returns the path.
inline std::string write_file(const std::filesystem::path& path, const std::string& content) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << content;
  return path.string();
}

/// The bytes of the file at `path` ("" when it cannot be read).
inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The options of an import of the book `book` at the date `as_of`.
inline ImportOptions book_options(const std::string& book = "acme",
                                  const std::string& as_of = "2026-12-01") {
  ImportOptions o;
  o.book = book;
  o.as_of = as_of;
  return o;
}

/// The rows of `table` in the database at `db`.
inline int count_rows(const std::string& db, const std::string& table) {
  SQLite::Database d(db, SQLite::OPEN_READONLY);
  return d.execAndGet("SELECT count(*) FROM " + table).getInt();
}

}  // namespace gputco::test
