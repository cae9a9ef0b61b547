// Price books: importing our own price files, every rejection rule with its line and nothing
// written, idempotence, a key given twice, bad options. The other concepts of an import are in
// pricing_import_*.cpp (devices and models, the layered catalog, public catalog formats, schema
// versions, concurrency and durability).
#include "pricing/catalog_import.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/paths.hpp"
#include "tests/unit/pricing_fixtures.hpp"
#include "tests/unit/pricing_import_fixtures.hpp"

namespace gputco {
namespace {

namespace fs = std::filesystem;
using Problems = std::vector<std::string>;
using test::book_options;
using test::count_rows;
using test::import_problems;
using test::kPriceHeader;
using test::kRentalHeader;
using test::read_bytes;
using test::write_file;

// A fresh directory for the current test (ctest runs tests as parallel processes).
fs::path test_dir() {
  return test::current_test_dir("import");
}

// ---- Each rejection rule, with its line, and nothing written ---------------------------------

struct RejectCase {
  const char* name;
  std::string content;
  Problems expected;
};

class ImportRejects : public ::testing::TestWithParam<RejectCase> {};

TEST_P(ImportRejects, wholeFileWithEveryProblemAndItsLine) {
  const fs::path dir = test_dir();
  const std::string file = write_file(dir / "book.csv", GetParam().content);
  const std::string db = (dir / "user" / "catalog.sqlite").string();
  EXPECT_EQ(import_problems(db, file, book_options()), GetParam().expected);
  EXPECT_FALSE(fs::exists(db)) << "a rejected import must not even create the database";
}

INSTANTIATE_TEST_SUITE_P(
    Rules, ImportRejects,
    ::testing::Values(
        RejectCase{"unknownDevice",
                   std::string(kPriceHeader) + "rtx-3090,used,640,USD,us,acme,2026-03-10,quote,\n"
                                               "rtx-9999,new,999,USD,us,acme,2026-03-10,quote,\n",
                   {"book.csv:3: item_id: unknown device 'rtx-9999' (not a device of the "
                    "built-in catalog: gputco catalog list gpus)"}},
        RejectCase{"zeroNegativeAndNonNumericPrices",
                   std::string(kPriceHeader) +
                       "rtx-3090,used,0,USD,us,acme,2026-03-10,quote,\n"
                       "rtx-3090,used,-5,USD,us,acme2,2026-03-10,quote,\n"
                       "rtx-3090,used,\"1,200\",USD,us,acme3,2026-03-10,quote,\n"
                       "rtx-3090,used,0.01,USD,us,acme4,2026-03-10,quote,\n",
                   {"book.csv:2: amount: must be greater than 0, got 0",
                    "book.csv:3: amount: must be greater than 0, got -5",
                    "book.csv:4: amount: '1,200' is not a plain decimal number (digits, a dot for "
                    "decimals, nothing else)",
                    "book.csv:5: amount: 0.01 per device is at or below the floor 0.01 (the "
                    "typical value of a parsing bug)"}},
        RejectCase{"badAndFutureDates",
                   std::string(kPriceHeader) + "rtx-3090,used,640,USD,us,acme,2026-02-30,quote,\n"
                                               "rtx-3090,used,640,USD,us,acme,10.03.2026,quote,\n"
                                               "rtx-3090,used,640,USD,us,acme,2026-12-02,quote,\n",
                   {"book.csv:2: observed_on: '2026-02-30' is not a date YYYY-MM-DD",
                    "book.csv:3: observed_on: '10.03.2026' is not a date YYYY-MM-DD",
                    "book.csv:4: observed_on: 2026-12-02 is after the import date 2026-12-01 "
                    "(--as-of, default today): a price cannot be observed in the future"}},
        RejectCase{"unknownCurrency",
                   std::string(kPriceHeader) + "rtx-3090,used,640,US$,us,acme,2026-03-10,quote,\n",
                   {"book.csv:2: currency: 'US$' is not a known currency code (ISO 4217, table "
                    "currencies of pricing/schema.sql)"}},
        RejectCase{"spotAboveOnDemand",
                   std::string(kRentalHeader) +
                       "cloudy,h100x1,h100-sxm,1,hourly,on_demand,2.00,0,USD,us,2026-03-01,page,\n"
                       "cloudy,h100x1,h100-sxm,1,hourly,spot,2.50,0,USD,us,2026-03-01,page,\n",
                   {"book.csv:3: amount: spot rate 2.5 USD per device-hour is above the on-demand "
                    "rate 2 of line 2 (same provider, device, region, date)"}},
        RejectCase{"duplicateKey",
                   std::string(kPriceHeader) + "rtx-3090,used,640,USD,us,acme,2026-03-10,quote,\n"
                                               "rtx-3090,used,650,USD,us,acme,2026-03-10,quote,\n",
                   {"book.csv:3: item_id+condition+seller+region+observed_on: duplicate key "
                    "(rtx-3090, used, acme, us, 2026-03-10), first on line 2"}},
        RejectCase{"missingColumn",
                   "item_id,condition,amount,region,seller,observed_on,source,note\n"
                   "rtx-3090,used,640,us,acme,2026-03-10,quote,\n",
                   {"book.csv:1: currency: missing column"}},
        RejectCase{"unknownHeader",
                   "a,b\n1,2\n",
                   {"book.csv:1: header: not a file this program imports: expected the columns "
                    "of purchase_prices.csv, rental_offers.csv, devices.csv or models.csv "
                    "(pricing/data/README.md), a SkyPilot vms.csv (InstanceType, "
                    "AcceleratorName, AcceleratorCount, Region, Price, SpotPrice), a gpuhunt "
                    "CSV (instance_name, location, price, gpu_count, gpu_name, spot), an EIA "
                    "retail-sales CSV (period, stateid, sectorid, price), a Eurostat nrg_pc_205 "
                    "TSV or an ECB reference rates XML"}}),
    [](const ::testing::TestParamInfo<RejectCase>& case_info) { return case_info.param.name; });

TEST(Import, rejectedFileLeavesAnExistingDatabaseByteForByte) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  const std::string good =
      write_file(dir / "good.csv", std::string(kPriceHeader) +
                                       "rtx-3090,used,640,USD,us,acme,2026-03-10,"
                                       "quote,\n");
  import_price_book(db, good, book_options());
  const std::string before = read_bytes(db);
  // One good row first, then a bad one: the good row must not land either.
  const std::string bad =
      write_file(dir / "bad.csv", std::string(kPriceHeader) +
                                      "rtx-4090,new,1700,USD,us,acme,2026-05-01,q,\n"
                                      "rtx-4090,new,-1,USD,us,acme,2026-05-02,q,\n");
  EXPECT_THROW(import_price_book(db, bad, book_options()), ImportError);
  EXPECT_EQ(read_bytes(db), before);
  EXPECT_EQ(count_rows(db, "price_observations"), 1);
}

TEST(Import, futureIsRelativeToTheGivenDateOnly) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  const std::string file =
      write_file(dir / "book.csv", std::string(kPriceHeader) +
                                       "rtx-3090,used,640,USD,us,acme,2026-06-02,"
                                       "quote,\n");
  EXPECT_EQ(import_problems(db, file, book_options("acme", "2026-06-01")),
            (Problems{"book.csv:2: observed_on: 2026-06-02 is after the import date 2026-06-01 "
                      "(--as-of, default today): a price cannot be observed in the future"}));
  EXPECT_EQ(import_problems(db, file, book_options("acme", "2026-06-02")), Problems{});
}

TEST(Import, sameFileTwiceChangesNothing) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  const std::string file = write_file(
      dir / "book.csv", std::string(kRentalHeader) +
                            "cloudy,h100x8,h100-sxm,8,hourly,on_demand,20,0,USD,us,2026-03-01,"
                            "page,\"per 8, negotiated\"\n"
                            "cloudy,h100x8,h100-sxm,8,hourly,spot,12.5,0,USD,us,2026-03-01,"
                            "page,\n");
  const ImportReport first = import_price_book(db, file, book_options());
  EXPECT_EQ(first.format, ImportFormat::rental_offers);
  EXPECT_EQ(first.inserted, 2);
  const ImportReport second = import_price_book(db, file, book_options());
  EXPECT_EQ(second.inserted, 0);
  EXPECT_EQ(second.unchanged, 2);
  EXPECT_EQ(count_rows(db, "rental_offers"), 2);
  // The same rows under another book are other observations.
  EXPECT_EQ(import_price_book(db, file, book_options("other")).inserted, 2);
  EXPECT_EQ(count_rows(db, "rental_offers"), 4);
}

TEST(Import, anObservationIsNeverOverwritten) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  import_price_book(
      db,
      write_file(dir / "a.csv",
                 std::string(kPriceHeader) + "rtx-3090,used,640,USD,us,acme,2026-03-10,quote,\n"),
      book_options());
  const std::string changed =
      write_file(dir / "b.csv",
                 std::string(kPriceHeader) + "rtx-3090,used,600,USD,us,acme,2026-03-10,quote,\n");
  EXPECT_EQ(import_problems(db, changed, book_options()),
            (Problems{"b.csv:2: amount: the book 'acme' already holds this price with amount "
                      "'640', not '600' (an observation is never overwritten: give the new figure "
                      "its own date)"}));
  EXPECT_EQ(count_rows(db, "price_observations"), 1);
}

// Rows are written as they are read (issue 20: flat memory), so a key given twice is found
// in the book: twice in the file is still a duplicate when its first line matched a row that
// was already there, not two unchanged rows; and the book's conflicts are only reported for a
// file without problems of its own, as when every row was checked before the first was written.
TEST(Import, keyTwiceInTheFileIsADuplicateEvenWhenTheBookHasIt) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  import_price_book(
      db,
      write_file(dir / "a.csv",
                 std::string(kPriceHeader) + "rtx-3090,used,640,USD,us,acme,2026-03-10,quote,\n"),
      book_options());
  const std::string twice =
      write_file(dir / "b.csv", std::string(kPriceHeader) +
                                    "rtx-3090,used,640,USD,us,acme,2026-03-10,quote,\n"
                                    "rtx-4090,new,1700,USD,us,acme,2026-03-10,quote,\n"
                                    "rtx-3090,used,640,USD,us,acme,2026-03-10,quote,\n"
                                    "rtx-4090,new,1650,USD,us,acme,2026-03-10,quote,\n");
  EXPECT_EQ(import_problems(db, twice, book_options()),
            (Problems{"b.csv:4: item_id+condition+seller+region+observed_on: duplicate key "
                      "(rtx-3090, used, acme, us, 2026-03-10), first on line 2",
                      "b.csv:5: item_id+condition+seller+region+observed_on: duplicate key "
                      "(rtx-4090, new, acme, us, 2026-03-10), first on line 3"}));
  // Line 2 conflicts with the book (600, not 640), line 3 has a bad date: the file's own
  // problem alone is reported.
  const std::string both =
      write_file(dir / "c.csv", std::string(kPriceHeader) +
                                    "rtx-3090,used,600,USD,us,acme,2026-03-10,quote,\n"
                                    "rtx-4090,new,1700,USD,us,acme,2026-13-10,quote,\n");
  EXPECT_EQ(import_problems(db, both, book_options()),
            (Problems{"c.csv:3: observed_on: '2026-13-10' is not a date YYYY-MM-DD"}));
  EXPECT_EQ(count_rows(db, "price_observations"), 1);
}

// A bad file is bad input (exit 2, every problem listed) even where the catalog cannot be
// created: the rows are still all checked.
TEST(Import, badRowsAreReportedWhereTheCatalogCannotBeWritten) {
  const fs::path dir = test_dir();
  write_file(dir / "not-a-folder", "a file\n");
  const std::string db = (dir / "not-a-folder" / "catalog.sqlite").string();
  const std::string file =
      write_file(dir / "b.csv", std::string(kPriceHeader) +
                                    "rtx-3090,used,640,USD,us,acme,2026-03-10,quote,\n"
                                    "rtx-3090,used,-1,USD,us,acme,2026-03-11,quote,\n");
  EXPECT_EQ(import_problems(db, file, book_options()),
            (Problems{"b.csv:3: amount: must be greater than 0, got -1"}));
  const std::string good = write_file(dir / "g.csv", std::string(kPriceHeader) +
                                                         "rtx-3090,used,640,USD,us,acme,2026-03-10,"
                                                         "quote,\n");
  EXPECT_THROW(import_price_book(db, good, book_options()), CatalogError);
}

TEST(Import, badOptionsAreInput) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  const std::string file = write_file(dir / "b.csv", std::string(kPriceHeader));
  EXPECT_EQ(import_problems(db, file, book_options("built-in")),
            (Problems{"--book: 'built-in' is the built-in catalog's book"}));
  EXPECT_EQ(import_problems(db, file, book_options(" acme")),
            (Problems{"--book: ' acme' is not a book name (not empty, no leading or trailing "
                      "space)"}));
  const std::string vms = test::source_path("tests/data/catalog/import/skypilot/lambda/vms.csv");
  EXPECT_EQ(import_problems(db, vms, book_options()),
            (Problems{"--observed-on: required for skypilot_vms files, which carry no dates (the "
                      "date their prices were read)"}));
  EXPECT_FALSE(fs::exists(db));
}

}  // namespace
}  // namespace gputco
