// The CSV -> SQLite builder: every validation rule, with the FILE:LINE messages it gives.
#include "pricing/catalog_build.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/unit/pricing_fixtures.hpp"

namespace gputco {
namespace {

using test::fixture_data;
using test::problems_in;
using Problems = std::vector<std::string>;

TEST(CatalogBuild, goodFixtureHasNoProblems) {
  EXPECT_EQ(problems_in(fixture_data("good", "")), Problems{});
}

TEST(CatalogBuild, numbersMustBePlainDecimalsInRange) {
  const std::string decimal =
      " is not a plain decimal number (digits, a dot for decimals, "
      "nothing else)";
  EXPECT_EQ(problems_in(fixture_data("numbers", "bad/numbers")),
            (Problems{
                "purchase_prices.csv:2: amount: '1,5'" + decimal,
                "purchase_prices.csv:3: amount: '1e3'" + decimal,
                "purchase_prices.csv:4: amount: leading or trailing whitespace in ' 700'",
                "purchase_prices.csv:5: amount: 'abc'" + decimal,
                "purchase_prices.csv:6: amount: must be greater than 0, got -5",
                "purchase_prices.csv:7: amount: must be greater than 0, got 0",
                "purchase_prices.csv:8: amount: 'inf'" + decimal,
                "rental_offers.csv:2: devices_per_instance: '1.5' is not a whole number",
                "rental_offers.csv:3: devices_per_instance: must be greater than 0, got 0",
                "rental_offers.csv:4: setup_fee: must be 0 or more, got -1",
            }));
}

TEST(CatalogBuild, datesMustBeRealCalendarDates) {
  EXPECT_EQ(problems_in(fixture_data("dates", "bad/dates")),
            (Problems{
                "tariffs.csv:2: observed_on: '2026-02-30' is not a date YYYY-MM-DD",
                "tariffs.csv:3: observed_on: '2026-1-05' is not a date YYYY-MM-DD",
                "tariffs.csv:4: observed_on: '20260105' is not a date YYYY-MM-DD",
                "tariffs.csv:5: observed_on: '2025-02-29' is not a date YYYY-MM-DD",
                "tariffs.csv:7: observed_on: '05/01/2026' is not a date YYYY-MM-DD",
            }));
}

TEST(CatalogBuild, isIsoDateChecksTheCalendar) {
  EXPECT_TRUE(is_iso_date("2024-02-29"));
  EXPECT_TRUE(is_iso_date("2026-12-31"));
  EXPECT_FALSE(is_iso_date("2026-02-29"));
  EXPECT_FALSE(is_iso_date("2026-13-01"));
  EXPECT_FALSE(is_iso_date("2026-00-10"));
  EXPECT_FALSE(is_iso_date("2026-01-00"));
  EXPECT_FALSE(is_iso_date("2026-01-1"));
  EXPECT_FALSE(is_iso_date("2026/01/01"));
  EXPECT_FALSE(is_iso_date("2026-01-01 "));
  EXPECT_FALSE(is_iso_date(""));
}

TEST(CatalogBuild, enumerationsMustBeKnown) {
  EXPECT_EQ(problems_in(fixture_data("enums", "bad/enums")),
            (Problems{
                "quants.csv:2: kind: 'Mix' is not one of float, block, mix, group",
                "purchase_prices.csv:2: condition: 'mint' is not one of new, used, refurbished",
                "rental_offers.csv:2: billing: 'daily' is not one of hourly, monthly",
                "rental_offers.csv:3: term: 'weekly' is not one of on_demand, spot, reserved_1y, "
                "reserved_3y",
                "rental_offers.csv:4: billing: spot offers are billed hourly",
            }));
}

TEST(CatalogBuild, requiredFieldsAndFieldCounts) {
  EXPECT_EQ(problems_in(fixture_data("required", "bad/required")),
            (Problems{
                "purchase_prices.csv:2: source: required, but empty",
                "purchase_prices.csv:3: item_id: required, but empty",
                "purchase_prices.csv:4: row: 8 fields, but the header has 9",
                "purchase_prices.csv:5: row: 10 fields, but the header has 9",
            }));
}

TEST(CatalogBuild, headerMustHaveExactlyTheDocumentedColumns) {
  EXPECT_EQ(problems_in(fixture_data("header", "bad/header")),
            (Problems{
                "tariffs.csv:1: currency: missing column",
                "tariffs.csv:1: valid_from: unknown column",
            }));
}

TEST(CatalogBuild, keysAppearOnce) {
  EXPECT_EQ(problems_in(fixture_data("duplicates", "bad/duplicates")),
            (Problems{
                "quants.csv:4: quant: duplicate key (Q4_K_M), first on line 2 (ids ignore case)",
                "tariffs.csv:4: id+observed_on: duplicate key (nl-business, 2026-01-01), first on "
                "line 2",
                "fx_rates.csv:3: base+quote+observed_on: duplicate key (EUR, USD, 2026-01-02), "
                "first on line 2",
                "fx_rates.csv:4: quote: must differ from base",
            }));
}

TEST(CatalogBuild, spotAndReservedRatesNotAboveOnDemand) {
  // Line 6 (2.90 per device, below the dearest on-demand 3.00), lines 7-8 (no on-demand
  // offer of the same region and date) and line 10 (a 3-year term at 16.00 / 8 = 2.00 per
  // device, below its sku's 20.00 / 8 = 2.50) are allowed.
  EXPECT_EQ(problems_in(fixture_data("spot", "bad/spot")),
            (Problems{
                "rental_offers.csv:3: amount: spot rate 3.1 USD per device-hour is above the "
                "on-demand rate 3 of line 2 (same provider, device, region, date)",
                "rental_offers.csv:5: amount: spot rate 3.2 USD per device-hour is above the "
                "on-demand rate 3 of line 2 (same provider, device, region, date)",
                "rental_offers.csv:9: amount: reserved_1y rate 3.05 USD per device-hour is above "
                "the on-demand rate 3 of line 2 (same provider, device, region, date; a "
                "commitment sells below on-demand)",
            }));
}

TEST(CatalogBuild, referencesNameKnownDevicesAndCurrencies) {
  const std::string currency =
      " is not a known currency code (ISO 4217, table currencies of "
      "pricing/schema.sql)";
  EXPECT_EQ(problems_in(fixture_data("references", "bad/references")),
            (Problems{
                "purchase_prices.csv:2: item_id: unknown device 'rtx-9999' (not an id of "
                "devices.csv)",
                "purchase_prices.csv:3: currency: 'usd'" + currency,
                "purchase_prices.csv:4: currency: 'XYZ'" + currency,
                "rental_offers.csv:2: device_id: unknown device 'H100-SXM' (not an id of "
                "devices.csv)",
            }));
}

TEST(CatalogBuild, modelFiguresAreConsistent) {
  EXPECT_EQ(problems_in(fixture_data("models", "bad/models")),
            (Problems{
                "models.csv:2: active_params_b: must not exceed params_b (31 > 30)",
                "models.csv:3: experts_active: needs experts and must not exceed it",
                "models.csv:4: swa_layers: must not exceed layers",
                "models.csv:5: kv_heads: required, but empty (only MLA models, with "
                "mla_kv_lora_rank, omit it)",
            }));
}

TEST(CatalogBuild, malformedCsvIsReportedWithItsLine) {
  EXPECT_EQ(problems_in(fixture_data("syntax", "bad/syntax")),
            (Problems{
                "rental_offers.csv:3: csv: malformed CSV: quoted field not closed before the "
                "end of the file",
            }));
}

TEST(CatalogBuild, strayCsvFileIsReported) {
  EXPECT_EQ(problems_in(fixture_data("stray", "bad/stray_file")),
            (Problems{
                "prices.csv:0: file: not a catalog table (expected one of devices.csv, "
                "models.csv, quants.csv, purchase_prices.csv, rental_offers.csv, tariffs.csv, "
                "fx_rates.csv, systems.csv, system_prices.csv, resale_curves.csv, "
                "api_prices.csv, grid_carbon.csv)",
            }));
}

TEST(CatalogBuild, requiredFileMissingOptionalFileAbsent) {
  const auto dir = fixture_data("missing", "");
  std::filesystem::remove(dir / "devices.csv");
  std::filesystem::remove(dir / "tariffs.csv");  // optional: no problem
  EXPECT_EQ(problems_in(dir), (Problems{
                                  "devices.csv:0: file: missing (required)",
                                  "purchase_prices.csv:2: item_id: unknown device 'rtx-3090' "
                                  "(not an id of devices.csv)",
                                  "purchase_prices.csv:3: item_id: unknown device 'rtx-3090' "
                                  "(not an id of devices.csv)",
                                  "purchase_prices.csv:4: item_id: unknown device 'rtx-3090' "
                                  "(not an id of devices.csv)",
                                  "purchase_prices.csv:5: item_id: unknown device 'rtx-3090' "
                                  "(not an id of devices.csv)",
                                  "purchase_prices.csv:6: item_id: unknown device 'rtx-3090' "
                                  "(not an id of devices.csv)",
                                  "purchase_prices.csv:7: item_id: unknown device 'h100-sxm' "
                                  "(not an id of devices.csv)",
                                  "rental_offers.csv:2: device_id: unknown device 'h100-sxm' "
                                  "(not an id of devices.csv)",
                                  "rental_offers.csv:3: device_id: unknown device 'h100-sxm' "
                                  "(not an id of devices.csv)",
                                  "rental_offers.csv:4: device_id: unknown device 'h100-sxm' "
                                  "(not an id of devices.csv)",
                                  "rental_offers.csv:5: device_id: unknown device 'h100-sxm' "
                                  "(not an id of devices.csv)",
                                  "rental_offers.csv:6: device_id: unknown device 'rtx-3090' "
                                  "(not an id of devices.csv)",
                                  "rental_offers.csv:7: device_id: unknown device 'rtx-3090' "
                                  "(not an id of devices.csv)",
                                  "rental_offers.csv:8: device_id: unknown device 'rtx-3090' "
                                  "(not an id of devices.csv)",
                              }));
}

TEST(CatalogBuild, badDataWritesNothingAndListsEveryProblem) {
  const auto dir = fixture_data("nothing_written", "bad/numbers");
  const auto db = dir.parent_path() / "out.sqlite";
  try {
    build_catalog(dir.string(), db.string());
    FAIL() << "expected CatalogBuildError";
  } catch (const CatalogBuildError& e) {
    EXPECT_EQ(e.problems().size(), 10u);
    EXPECT_NE(std::string(e.what()).find("10 problems in the catalog data"), std::string::npos);
  }
  EXPECT_FALSE(std::filesystem::exists(db));
  EXPECT_FALSE(std::filesystem::exists(db.string() + ".tmp"));
}

TEST(CatalogBuild, failedBuildKeepsThePreviousFile) {
  const auto dir = fixture_data("keeps_previous", "bad/spot");
  const auto db = dir.parent_path() / "out.sqlite";
  { std::ofstream(db) << "previous"; }
  EXPECT_THROW(build_catalog(dir.string(), db.string()), CatalogBuildError);
  std::ifstream in(db);
  std::string content;
  in >> content;
  EXPECT_EQ(content, "previous");
}

TEST(CatalogBuild, sameDataGivesTheSameBytes) {
  const auto dir = fixture_data("deterministic", "");
  const auto a = dir.parent_path() / "a.sqlite";
  const auto b = dir.parent_path() / "b.sqlite";
  build_catalog(dir.string(), a.string());
  build_catalog(dir.string(), b.string());
  auto read = [](const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  EXPECT_EQ(read(a), read(b));
}

TEST(CatalogBuild, missingDirectoryThrows) {
  EXPECT_THROW(check_catalog_data("/nonexistent/gputco/data"), CatalogError);
}

}  // namespace
}  // namespace gputco
