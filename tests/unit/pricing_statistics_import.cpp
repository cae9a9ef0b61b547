// Tariffs and exchange rates from the files the statistics offices publish (issue 38): Eurostat's
// nrg_pc_205 SDMX-TSV, EIA's retail-sales CSV and the ECB's eurofxref XML, read as published
// (tests/data/catalog/import/{eurostat,eia,ecb}, their README says what each value is), layered
// over the built-in catalog, refused with the line named when wrong.
#include <gtest/gtest.h>

#include <filesystem>

#include "pricing/catalog.hpp"
#include "pricing/catalog_import.hpp"
#include "tests/support/paths.hpp"
#include "tests/unit/pricing_fixtures.hpp"
#include "tests/unit/pricing_import_fixtures.hpp"

namespace gputco {
namespace {

namespace fs = std::filesystem;
using Problems = std::vector<std::string>;
using test::write_file;

fs::path test_dir() {
  return test::current_test_dir("statistics");
}

ImportOptions options(const std::string& observed_on = "2025-06-25") {
  ImportOptions o;
  o.as_of = "2026-12-05";
  o.observed_on = observed_on;
  o.allow_skipped = true;
  return o;
}

std::string fixture(const std::string& name) {
  return test::source_path("tests/data/catalog/import/" + name);
}

TEST(EurostatTsv, latestSemesterOfTheBandPerCountry) {
  const std::string db = (test_dir() / "catalog.sqlite").string();
  const ImportReport report =
      import_price_book(db, fixture("eurostat/estat_nrg_pc_205.tsv"), options());
  EXPECT_EQ(report.format, ImportFormat::eurostat_tsv);
  EXPECT_EQ(report.rows_read, 9);
  EXPECT_EQ(report.inserted, 5);      // DE, EL, EU27_2020, NL, NO
  EXPECT_EQ(report.skipped, 1);       // Malta: confidential in both semesters
  EXPECT_EQ(report.not_selected, 3);  // I_TAX, band ID, national currency
  const Catalog c = Catalog::open_layered(db);
  // NL 2024-S2, band IC, excl. VAT: 0.1983 EUR (over the built-in row of the same figure:
  // the imported one is observed later, on the file's date).
  const auto nl = c.tariff("nl-business", "2026-12-05");
  ASSERT_TRUE(nl.has_value());
  EXPECT_DOUBLE_EQ(nl->amount_per_kwh, 0.1983);
  EXPECT_EQ(nl->currency, "EUR");
  EXPECT_EQ(nl->provenance.observed_on, "2025-06-25");
  EXPECT_NE(nl->note.find("band MWH500-1999 (nrg_cons), X_VAT (tax); semester 2024-S2 average"),
            std::string::npos)
      << nl->note;
  // Greece is EL in Eurostat's codes, gr in ISO 3166; its flag p is said.
  const auto gr = c.tariff("gr-business", "2026-12-05");
  ASSERT_TRUE(gr.has_value());
  EXPECT_DOUBLE_EQ(gr->amount_per_kwh, 0.2005);
  EXPECT_NE(gr->note.find("Eurostat flag p: provisional"), std::string::npos) << gr->note;
  EXPECT_DOUBLE_EQ(c.tariff("eu-business", "2026-12-05")->amount_per_kwh, 0.1899);
  // Norway has no 2024-S2 value: its latest, 2024-S1.
  const auto no = c.tariff("no-business", "2026-12-05");
  ASSERT_TRUE(no.has_value());
  EXPECT_DOUBLE_EQ(no->amount_per_kwh, 0.0712);
  EXPECT_NE(no->note.find("semester 2024-S1"), std::string::npos);
  // The same file again: nothing changes.
  EXPECT_EQ(import_price_book(db, fixture("eurostat/estat_nrg_pc_205.tsv"), options()).unchanged,
            5);
}

TEST(EurostatTsv, aPeriodAskedForAndWhatIsRefused) {
  const fs::path dir = test_dir();
  ImportOptions o = options();
  o.period = "2024-S1";
  const std::string db = (dir / "catalog.sqlite").string();
  const ImportReport report = import_price_book(db, fixture("eurostat/estat_nrg_pc_205.tsv"), o);
  EXPECT_EQ(report.inserted, 5);
  EXPECT_DOUBLE_EQ(Catalog::open_layered(db).tariff("de-business", "2026-12-05")->amount_per_kwh,
                   0.2460);
  // Without the date of the file: refused. A gas file: refused at its line. A MWh slip too.
  ImportOptions undated = options("");
  EXPECT_EQ(test::import_problems((dir / "a.sqlite").string(),
                                  fixture("eurostat/estat_nrg_pc_205.tsv"), undated),
            (Problems{"--observed-on: required for eurostat_tsv files, whose figures carry no "
                      "date of publication (the date the file was published or downloaded)"}));
  const std::string header = "freq,siec,nrg_cons,unit,tax,currency,geo\\TIME_PERIOD\t2024-S2 \n";
  const std::string bad =
      write_file(dir / "bad.tsv", header + "S,G3000,MWH500-1999,KWH,X_VAT,EUR,NL\t0.06 \n" +
                                      "S,E7000,MWH500-1999,KWH,X_VAT,EUR,DE\t235.9 \n" +
                                      "S,E7000,MWH500-1999,KWH,X_VAT,EUR,FR\tabc \n");
  EXPECT_EQ(test::import_problems((dir / "b.sqlite").string(), bad, options()),
            (Problems{"bad.tsv:2: siec: 'G3000' is not electricity (E7000): import nrg_pc_205, "
                      "not a gas price file",
                      "bad.tsv:3: 2024-S2: 235.9 per kWh is above 2 (ten times the dearest "
                      "business tariffs of 2022-2024): a price per MWh read per kWh?",
                      "bad.tsv:4: 2024-S2: 'abc' is not a price per kWh"}));
  EXPECT_FALSE(fs::exists(dir / "b.sqlite"));
}

TEST(EiaCsv, latestMonthOfTheSectorPerState) {
  const std::string db = (test_dir() / "catalog.sqlite").string();
  const ImportReport report = import_price_book(db, fixture("eia/retail_sales.csv"), options());
  EXPECT_EQ(report.format, ImportFormat::eia_csv);
  EXPECT_EQ(report.rows_read, 10);
  EXPECT_EQ(report.inserted, 4);      // CT, IL, NY, PA of 2025-04
  EXPECT_EQ(report.skipped, 1);       // Maine: no price
  EXPECT_EQ(report.not_selected, 1);  // Connecticut's residential row
  const Catalog c = Catalog::open_layered(db);
  // EIA table 5.6.A, April 2025, commercial: NY 19.14 cents/kWh = 0.1914 USD.
  const auto ny = c.tariff("us-ny-commercial", "2026-12-05");
  ASSERT_TRUE(ny.has_value());
  EXPECT_DOUBLE_EQ(ny->amount_per_kwh, 0.1914);
  EXPECT_EQ(ny->currency, "USD");
  EXPECT_EQ(ny->region, "us-ny");
  EXPECT_NE(ny->note.find("New York, commercial sector, average price for 2025-04"),
            std::string::npos)
      << ny->note;
  EXPECT_DOUBLE_EQ(c.tariff("us-pa-commercial", "2026-12-05")->amount_per_kwh, 0.1199);
}

TEST(EcbXml, everyDayAndCurrencyWithItsOwnDate) {
  const std::string db = (test_dir() / "catalog.sqlite").string();
  ImportOptions o = options("");  // the ECB's file dates its rates
  const ImportReport report = import_price_book(db, fixture("ecb/eurofxref-hist.xml"), o);
  EXPECT_EQ(report.format, ImportFormat::ecb_xml);
  EXPECT_EQ(report.rows_read, 8);
  EXPECT_EQ(report.inserted, 7);
  EXPECT_EQ(report.skipped, 1);  // the kuna, withdrawn in 2023
  const Catalog c = Catalog::open_layered(db);
  const auto usd = c.fx_rate("EUR", "USD", "2025-12-31");
  ASSERT_TRUE(usd.has_value());
  EXPECT_DOUBLE_EQ(usd->rate, 1.0411);
  EXPECT_EQ(usd->provenance.observed_on, "2025-02-28");
  // --since keeps the later days only.
  o.since = "2026-01-01";
  const std::string only_may = (test_dir() / "may.sqlite").string();
  EXPECT_EQ(import_price_book(only_may, fixture("ecb/eurofxref-hist.xml"), o).inserted, 2);
}

TEST(EcbXml, aDayInTheFutureAndAnotherFileAreRefused) {
  const fs::path dir = test_dir();
  const std::string future =
      write_file(dir / "daily.xml",
                 "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gesmes:Envelope "
                 "xmlns=\"http://www.ecb.int/vocabulary/2002-08-01/eurofxref\">\n<Cube>\n<Cube "
                 "time='2027-01-04'>\n<Cube currency='USD' rate='1.1'/>\n</Cube>\n</Cube>\n"
                 "</gesmes:Envelope>\n");
  EXPECT_EQ(test::import_problems((dir / "c.sqlite").string(), future, options("")),
            (Problems{"daily.xml:4: time: 2027-01-04 is after the import date 2026-12-05 "
                      "(--as-of, default today): a rate cannot be observed in the future"}));
  // Skipped rows refuse the file unless allowed, as SkyPilot's do.
  ImportOptions strict = options("");
  strict.allow_skipped = false;
  EXPECT_THROW(
      import_price_book((dir / "d.sqlite").string(), fixture("ecb/eurofxref-hist.xml"), strict),
      ImportIncomplete);
}

}  // namespace
}  // namespace gputco
