// Price books: schema versions, an older user catalog read in memory and migrated on import.
#include "pricing/catalog_import.hpp"

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "pricing/catalog.hpp"
#include "pricing/catalog_schema.hpp"
#include "tests/unit/pricing_fixtures.hpp"
#include "tests/unit/pricing_import_fixtures.hpp"

namespace gputco {
namespace {

namespace fs = std::filesystem;
using test::book_options;
using test::kPriceHeader;
using test::read_bytes;
using test::write_file;

// A fresh directory for the current test (ctest runs tests as parallel processes).
fs::path test_dir() {
  return test::current_test_dir("import");
}

// ---- Schema versions -------------------------------------------------------------------------

TEST(Migration, versionOneFileIsReadInMemoryAndMigratedOnImport) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "v1.sqlite").string();
  {
    SQLite::Database d(db, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    d.exec(std::string(catalog_schema_sql()));  // version 1 only
    d.exec(
        "INSERT INTO devices VALUES ('rtx-3090', 'GeForce RTX 3090', 'nvidia', 'consumer', 24, "
        "'GDDR6X', 936, 350, NULL, NULL, '', 'fixture', '2026-01-01');"
        "INSERT INTO price_observations (item_id, condition, amount, currency, region, seller, "
        "observed_on, source) VALUES ('rtx-3090', 'used', 555, 'USD', 'us', 'v1 seller', "
        "'2026-04-01', 'v1 fixture')");
  }
  const std::string before = read_bytes(db);
  const Catalog file = Catalog::open_file(db);
  EXPECT_EQ(file.schema_version(), kCatalogSchemaVersion);
  const auto p = file.latest_price("rtx-3090", "used", "2026-04-01");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->amount, 555);
  EXPECT_EQ(p->provenance.book, kBuiltinBook);  // rows of version 1 had no book
  EXPECT_EQ(read_bytes(db), before);            // read in memory: the file is untouched

  import_price_book(db,
                    write_file(dir / "b.csv", std::string(kPriceHeader) +
                                                  "rtx-3090,used,640,USD,us,acme,2026-03-10,q,\n"),
                    book_options());
  SQLite::Database d(db, SQLite::OPEN_READONLY);
  EXPECT_EQ(d.execAndGet("PRAGMA user_version").getInt(), kCatalogSchemaVersion);
  EXPECT_EQ(d.execAndGet("SELECT count(*) FROM price_observations").getInt(), 2);
  EXPECT_EQ(d.execAndGet("SELECT count(*) FROM books").getInt(), 2);  // built-in, acme
}

TEST(Migration, versionThreeDevicesGainComputePeaksAsUnknown) {
  // A user catalog written by a version that knew no FP8/FP4 peaks (schema version 3).
  const fs::path dir = test_dir();
  const std::string db = (dir / "v3.sqlite").string();
  {
    SQLite::Database d(db, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    d.exec(std::string(catalog_schema_sql()));
    for (int version = 2; version <= 3; ++version) {
      d.exec(std::string(catalog_migration_sql(version)));
      d.exec("PRAGMA user_version = " + std::to_string(version));
    }
    d.exec(
        "INSERT INTO devices VALUES ('my-card', 'My card', 'nvidia', 'datacenter', 80, 'HBM3', "
        "3000, 700, 900, NULL, '', 'fixture', '2026-01-01')");
  }
  const std::string before = read_bytes(db);
  const Catalog file = Catalog::open_file(db);
  const auto mine = file.device("my-card");
  ASSERT_TRUE(mine.has_value());
  EXPECT_EQ(mine->fp16_tflops, 900);
  EXPECT_EQ(mine->fp8_tflops, 0);  // unknown, never invented
  EXPECT_EQ(mine->fp4_tflops, 0);
  EXPECT_EQ(read_bytes(db), before);  // read in memory: the file is untouched
  // Layered over the built-in catalog, the built-in devices carry their peaks.
  const Catalog layered = Catalog::open_layered(db);
  EXPECT_EQ(layered.device("my-card")->fp8_tflops, 0);
  EXPECT_EQ(layered.device("h100-sxm")->fp8_tflops, 1979);
  EXPECT_EQ(layered.device("b200-180gb")->fp4_tflops, 9000);
  EXPECT_EQ(layered.device("a100-80gb-sxm")->fp8_tflops, 0);  // Ampere: no FP8 tensor cores
}

}  // namespace
}  // namespace gputco
