// Price books: the layered catalog (a book over the built-in catalog): as-of lookups, which
// layer wins, lists and histories, export and import again, audits, and the findings of a
// book's odd rows.
#include "pricing/catalog_import.hpp"

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "pricing/catalog.hpp"
#include "pricing/catalog_check.hpp"
#include "pricing/catalog_export.hpp"
#include "pricing/catalog_schema.hpp"
#include "tests/unit/pricing_fixtures.hpp"
#include "tests/unit/pricing_import_fixtures.hpp"

namespace gputco {
namespace {

namespace fs = std::filesystem;
using Problems = std::vector<std::string>;
using test::book_options;
using test::kPriceHeader;
using test::kRentalHeader;
using test::read_bytes;
using test::write_file;

// A fresh directory for the current test (ctest runs tests as parallel processes).
fs::path test_dir() {
  return test::current_test_dir("import");
}

// ---- The layered catalog ---------------------------------------------------------------------

class Layered : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test_dir();
    db_ = (dir_ / "catalog.sqlite").string();
    // Built-in rtx-3090 used: 700 (2026-01-01), 850 (2026-02-01), 750 (2026-05-16).
    import_price_book(db_,
                      write_file(dir_ / "acme.csv",
                                 std::string(kPriceHeader) +
                                     "rtx-3090,used,640,USD,us,acme,2026-03-10,acme quote 17,\n"
                                     "rtx-3090,used,800,USD,us,acme,2026-06-29,acme quote 18,\n"),
                      book_options());
  }
  fs::path dir_;
  std::string db_;
};

TEST_F(Layered, asOfLookupsAtTheirBoundaries) {
  const Catalog c = Catalog::open_layered(db_);
  auto price = [&](const std::string& as_of) {
    auto p = c.latest_price("rtx-3090", "used", as_of);
    return p ? p->amount : -1.0;
  };
  EXPECT_EQ(price("2025-12-31"), -1.0);  // nothing observed yet
  EXPECT_EQ(price("2026-01-01"), 700);   // built-in, on its date
  EXPECT_EQ(price("2026-03-09"), 850);   // the day before the book's price: built-in
  EXPECT_EQ(price("2026-03-10"), 640);   // the book's price on its date
  EXPECT_EQ(price("2026-05-15"), 640);
  EXPECT_EQ(price("2026-05-16"), 750);  // a later built-in observation wins
  EXPECT_EQ(price("2026-06-28"), 750);
  EXPECT_EQ(price("2026-06-29"), 800);  // the book again, on its date
}

TEST_F(Layered, bookWinsOverBuiltinOnTheSameDateAndSaysSo) {
  // Same item, same date as the built-in 750 of 2026-05-16, dearer: the book still wins.
  import_price_book(db_,
                    write_file(dir_ / "same_day.csv",
                               std::string(kPriceHeader) +
                                   "rtx-3090,used,790,USD,us,acme,2026-05-16,acme quote 19,\n"),
                    book_options());
  const Catalog c = Catalog::open_layered(db_);
  const auto p = c.latest_price("rtx-3090", "used", "2026-05-20");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->amount, 790);
  EXPECT_EQ(p->provenance.book, "acme");
  EXPECT_EQ(p->provenance.source, "acme quote 19");
  EXPECT_EQ(p->provenance.observed_on, "2026-05-16");
  // The built-in rows are still there, and say where they come from.
  const auto builtin = Catalog::open_builtin().latest_price("rtx-3090", "used", "2026-05-20");
  ASSERT_TRUE(builtin.has_value());
  EXPECT_EQ(builtin->provenance.book, kBuiltinBook);
  EXPECT_EQ(c.books(), (std::vector<std::string>{"acme"}));
}

TEST_F(Layered, listsAndHistoriesHoldBothLayers) {
  const Catalog c = Catalog::open_layered(db_);
  int acme = 0;
  for (const auto& p : c.prices("2026-04-01")) acme += p.provenance.book == "acme";
  EXPECT_EQ(acme, 1);  // 640; the 800 of June is not observed yet
  const auto history = c.price_history("rtx-3090");
  ASSERT_GE(history.size(), 5u);
  EXPECT_EQ(history.front().provenance.observed_on, "2026-01-01");
  EXPECT_EQ(history.back().provenance.observed_on, "2026-06-29");
  EXPECT_EQ(history.back().provenance.book, "acme");
  // Devices, models and quants are the built-in ones.
  EXPECT_EQ(c.devices().size(), Catalog::open_builtin().devices().size());
  EXPECT_EQ(c.models().size(), Catalog::open_builtin().models().size());
}

TEST_F(Layered, openingNeverWritesTheFile) {
  const std::string before = read_bytes(db_);
  const auto mtime = fs::last_write_time(db_);
  {
    const Catalog c = Catalog::open_layered(db_);
    (void)c.prices("2026-12-01");
  }
  EXPECT_EQ(read_bytes(db_), before);
  EXPECT_EQ(fs::last_write_time(db_), mtime);
}

TEST_F(Layered, exportImportsAgainUnchanged) {
  // Written before price_type existed, the rows read as street prices; the export says so.
  const std::string csv = export_price_book(db_, ImportFormat::purchase_prices, "acme");
  EXPECT_EQ(csv,
            "item_id,condition,amount,currency,region,seller,observed_on,source,note,price_type\n"
            "rtx-3090,used,640,USD,us,acme,2026-03-10,acme quote 17,,street\n"
            "rtx-3090,used,800,USD,us,acme,2026-06-29,acme quote 18,,street\n");
  const ImportReport again =
      import_price_book(db_, write_file(dir_ / "export.csv", csv), book_options());
  EXPECT_EQ(again.inserted, 0);
  EXPECT_EQ(again.unchanged, 2);
  // The built-in rows export in the same format and pass the same checks.
  const std::string builtin = export_builtin_prices(ImportFormat::rental_offers);
  EXPECT_EQ(builtin.rfind(kRentalHeader, 0), 0u);
  const ImportReport all = import_price_book(db_, write_file(dir_ / "builtin.csv", builtin),
                                             book_options("copy-of-builtin", "2026-12-31"));
  EXPECT_GT(all.inserted, 50);
}

TEST_F(Layered, userDatabaseIsSoundAndConsistentOnItsOwn) {
  EXPECT_EQ(catalog_file_problems(db_), Problems{});
  EXPECT_EQ(builtin_catalog_problems(), Problems{});
  SQLite::Database d(db_, SQLite::OPEN_READONLY);
  EXPECT_EQ(d.execAndGet("PRAGMA journal_mode").getString(), "wal");
  EXPECT_EQ(d.execAndGet("PRAGMA user_version").getInt(), kCatalogSchemaVersion);
  // The referenced device row was copied, so foreign keys hold inside the file.
  EXPECT_EQ(d.execAndGet("SELECT count(*) FROM devices WHERE id = 'rtx-3090'").getInt(), 1);
}

TEST_F(Layered, auditFindsStaleBookPricesAtADate) {
  const Catalog c = Catalog::open_layered(db_);
  // 2026-06-29 + 90 days = 2026-09-27: stale from the day after (age > limit, as plans flag).
  EXPECT_EQ(c.audit("2026-09-27", 90).problems, Problems{});
  EXPECT_EQ(c.audit("2026-09-28", 90).problems,
            (Problems{"purchase price rtx-3090 used acme us (book acme, 2026-06-29): 91 days old "
                      "at 2026-09-28, stale after 90"}));
  // The built-in used RTX 4090 above new is flagged, but its row says why it is kept.
  EXPECT_EQ(c.audit("", 90).notes,
            (Problems{"reviewed: purchase price rtx-4090 used (book built-in, used market, us, "
                      "2026-06-29): used 2000 USD is above every new price of rtx-4090 within 92 "
                      "days: 1900 USD (book built-in, 2026-05-01)",
                      "reviewed: rental offer runpod 1x_RTX3090_SECURE hourly on_demand (book "
                      "built-in, global, 2025-06-07): 0.43 USD per device-hour is above the "
                      "highest purchase price 850 USD of rtx-3090 / 2190 h (3 months of hours) = "
                      "0.3881 USD (too few offers to compare with: fewer than 3 of any date)",
                      "staleness not checked: give --as-of DATE"}));
}

// The tester's rows: an RTX 3090 at 1 USD, an H100 at 9,000,000 USD, two amounts for one item,
// condition, date and source, and a used price above new. Each is imported (they are well
// formed) and each is a finding of the book.
TEST(Plausibility, outliersUsedAboveNewAndConflictsAreFound) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  import_price_book(db,
                    write_file(dir / "odd.csv", std::string(kPriceHeader) +
                                                    "rtx-3090,used,1,USD,us,ebay,2026-11-01,s1,\n"
                                                    "h100-sxm,new,9000000,USD,us,x,2026-11-01,s2,\n"
                                                    "rtx-4090,used,900,USD,us,a,2026-11-02,s3,\n"
                                                    "rtx-4090,used,500,USD,eu,b,2026-11-02,s3,\n"
                                                    "rtx-5090,used,2600,USD,us,c,2026-06-01,s4,\n"),
                    [] {
                      ImportOptions o = book_options("odd", "2026-12-01");
                      o.accept_outliers = true;  // refused otherwise (pricing_plausibility.cpp)
                      return o;
                    }());
  std::vector<std::string> found;
  for (const auto& f : Catalog::open_layered(db).price_plausibility("odd")) {
    EXPECT_FALSE(f.reviewed) << f.text;
    found.push_back(f.text);
  }
  EXPECT_EQ(
      found,
      (std::vector<std::string>{
          // h100-sxm: one other USD observation, 27,500 (data-gate.ch): 9e6 / 27500 = 327.3.
          "purchase price h100-sxm new (book odd, x, us, 2026-11-01): 9000000 USD is 327.3 "
          "x the median 27500 USD of the 1 other observation of h100-sxm in USD "
          "(plausible: 1/5 to 5 x)",
          // rtx-3090: others 700, 750, 850 (built-in): median 750; 750 / 1 = 750.
          "purchase price rtx-3090 used (book odd, ebay, us, 2026-11-01): 1 USD is 1/750 of "
          "the median 750 USD of the 3 other observations of rtx-3090 in USD (plausible: "
          "1/5 to 5 x)",
          // rtx-4090 used 500 against the built-in used prices within 183 days of
          // 2026-11-02: 2,000 (2026-06-29; 1,550 of 2026-05-01 is 185 days before):
          // 500 / 2000 = 1/4, beyond 1/3 (issue 38). 900 / 2000 = 1/2.2 passes.
          "purchase price rtx-4090 used (book odd, b, eu, 2026-11-02): 500 USD is 1/4 of the "
          "built-in catalog's reference 2000 USD (the median of its 1 used prices of rtx-4090 "
          "in USD within 183 days of it; plausible: 1/3 to 3 x)",
          // rtx-5090 used 2,600 vs new 1,999 and 2,550 (runlocalai.co, 2026-05-01, 31 days).
          "purchase price rtx-5090 used (book odd, c, us, 2026-06-01): used 2600 USD is "
          "above every new price of rtx-5090 within 92 days: 1999 USD (book built-in, "
          "2026-05-01), 2550 USD (book built-in, 2026-05-01)",
          "purchase price rtx-4090 used (book odd, 2026-11-02, source 's3'): 2 rows with "
          "different amounts: 500 USD, 900 USD (a plan takes the lowest amount of the "
          "latest date)"}));
  // The same findings make `catalog check` fail; the plan's choice on that date is the lowest.
  const Catalog c = Catalog::open_layered(db);
  // 6: with only two H100 SXM observations, the built-in 27,500 is 1/327 of the other too.
  EXPECT_EQ(c.audit("", 90).problems.size(), 6u);
  const auto used = c.latest_price("rtx-4090", "used", "2026-11-27");
  ASSERT_TRUE(used.has_value());
  EXPECT_EQ(used->amount, 500);
  // The built-in catalog alone has no unreviewed finding.
  for (const auto& f : Catalog::open_builtin().price_plausibility()) {
    EXPECT_TRUE(f.reviewed) << f.text;
  }
}

}  // namespace
}  // namespace gputco
