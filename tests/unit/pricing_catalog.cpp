// Catalog queries over the good fixture (tests/data/catalog/good), and the built-in catalog.
#include "pricing/catalog.hpp"

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "pricing/csv_table.hpp"
#include "pricing/embedded.hpp"
#include "tests/unit/pricing_fixtures.hpp"

namespace gputco {
namespace {

// The good fixture, built once per test in a directory of its own: ctest runs tests as
// parallel processes, which must not share files.
std::string fixture_catalog_for_current_test() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return test::good_catalog_file(std::string(info->test_suite_name()) + "." + info->name());
}

class CatalogTest : public ::testing::Test {
 protected:
  Catalog catalog_ = Catalog::open_file(fixture_catalog_for_current_test());
};

std::vector<std::string> ids(const std::vector<Device>& v) {
  std::vector<std::string> out;
  for (const auto& d : v) out.push_back(d.id);
  return out;
}

std::string describe(const RentalOffer& r) {
  return r.provider + "/" + r.sku + "/" + r.billing + "/" + r.term + "/" + r.region + "@" +
         r.provenance.observed_on;
}

std::vector<std::string> describe(const std::vector<RentalOffer>& offers) {
  std::vector<std::string> out;
  for (const auto& r : offers) out.push_back(describe(r));
  return out;
}

TEST_F(CatalogTest, devicesMapColumnsToHardwareStructs) {
  EXPECT_EQ(ids(catalog_.devices()),
            (std::vector<std::string>{"h100-sxm", "m2-ultra-76c", "rtx-3090"}));
  const auto h100 = catalog_.device("h100-sxm");
  ASSERT_TRUE(h100.has_value());
  EXPECT_EQ(h100->name, "H100 SXM5 80GB");
  EXPECT_EQ(h100->vendor, Vendor::nvidia);
  EXPECT_EQ(h100->kind, DeviceKind::datacenter);
  EXPECT_EQ(h100->memory_nameplate_gb, 80);
  EXPECT_EQ(h100->memory_type, "HBM3");
  EXPECT_EQ(h100->bandwidth_gbps, 3350);
  EXPECT_EQ(h100->board_power_w, 700);
  EXPECT_EQ(h100->fp16_tflops, 989.5);
  EXPECT_EQ(h100->fp8_tflops, 1979);
  EXPECT_EQ(h100->fp4_tflops, 0);  // empty in the CSV: no FP4 tensor cores
  EXPECT_EQ(h100->nvlink_gbps, 900);
  const auto mac = catalog_.device("m2-ultra-76c");
  ASSERT_TRUE(mac.has_value());
  EXPECT_EQ(mac->vendor, Vendor::apple);
  EXPECT_EQ(mac->kind, DeviceKind::unified);
  EXPECT_EQ(mac->board_power_w, 0);  // empty in the CSV
  EXPECT_EQ(mac->fp16_tflops, 0);
  EXPECT_EQ(mac->fp8_tflops, 0);
  EXPECT_EQ(mac->nvlink_gbps, 0);
  EXPECT_EQ(catalog_.device("RTX-3090")->id, "rtx-3090");  // ids ignore case
}

TEST_F(CatalogTest, modelsAndQuantsMapColumns) {
  const auto models = catalog_.models();
  ASSERT_EQ(models.size(), 2u);
  EXPECT_EQ(models[0].id, "deepseek-v3");
  const auto ds = catalog_.model("deepseek-v3");
  ASSERT_TRUE(ds.has_value());
  EXPECT_EQ(ds->params_b, 671);
  EXPECT_EQ(ds->active_params_b, 37);
  EXPECT_EQ(ds->layers, 61);
  EXPECT_EQ(ds->kv_heads, 0);
  EXPECT_EQ(ds->head_dim, 0);
  EXPECT_EQ(ds->experts, 256);
  EXPECT_EQ(ds->experts_active, 8);
  EXPECT_EQ(ds->mla_kv_lora_rank, 512);
  EXPECT_EQ(ds->mla_rope_dim, 64);
  EXPECT_EQ(ds->max_context, 163840);
  EXPECT_TRUE(ds->is_mla());
  const auto llama = catalog_.model("llama-3.1-8b");
  ASSERT_TRUE(llama.has_value());
  EXPECT_EQ(llama->kv_heads, 8);
  EXPECT_EQ(llama->head_dim, 128);
  EXPECT_FALSE(llama->is_moe());
  EXPECT_FALSE(catalog_.model("llama-4").has_value());

  const auto quants = catalog_.quants();
  ASSERT_EQ(quants.size(), 2u);
  EXPECT_EQ(quants[0].id, "F16");
  EXPECT_EQ(quants[1].id, "Q4_K_M");
  EXPECT_EQ(quants[1].bits_per_weight, 4.89);
  EXPECT_EQ(quants[1].kind, "mix");
  EXPECT_EQ(catalog_.quant("q4_k_m")->id, "Q4_K_M");  // ids ignore case
}

TEST_F(CatalogTest, latestPriceAsOfObservationBoundaries) {
  EXPECT_FALSE(catalog_.latest_price("rtx-3090", "used", "2026-01-09").has_value());
  auto on = catalog_.latest_price("rtx-3090", "used", "2026-01-10");
  ASSERT_TRUE(on.has_value());
  EXPECT_EQ(on->amount, 800);
  EXPECT_EQ(on->provenance.observed_on, "2026-01-10");
  EXPECT_EQ(on->provenance.source, "fixture: listing");
  EXPECT_EQ(catalog_.latest_price("rtx-3090", "used", "2026-01-11")->amount, 800);
  EXPECT_EQ(catalog_.latest_price("rtx-3090", "used", "2026-03-09")->amount, 800);
  EXPECT_EQ(catalog_.latest_price("rtx-3090", "used", "2026-05-31")->amount, 700);
  EXPECT_EQ(catalog_.latest_price("rtx-3090", "used", "2026-06-01")->amount, 650);
  EXPECT_EQ(catalog_.latest_price("rtx-3090", "used", "2030-01-01")->amount, 650);
  EXPECT_EQ(catalog_.latest_price("rtx-3090", "new", "2026-06-01")->amount, 1500);
  EXPECT_FALSE(catalog_.latest_price("rtx-3090", "refurbished", "2026-06-01").has_value());
  EXPECT_FALSE(catalog_.latest_price("rtx-4090", "new", "2026-06-01").has_value());
}

TEST_F(CatalogTest, latestPriceTakesLowestAmountOnTheLatestDate) {
  const auto p = catalog_.latest_price("rtx-3090", "used", "2026-03-10");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->amount, 700);  // 750 EUR from another seller on the same date
  EXPECT_EQ(p->currency, "USD");
  EXPECT_EQ(p->seller, "ebay");
  EXPECT_EQ(p->region, "us");
  EXPECT_EQ(p->item_id, "rtx-3090");
  EXPECT_EQ(p->condition, "used");
}

TEST_F(CatalogTest, pricesAreLatestPerItemConditionSellerRegion) {
  const auto prices = catalog_.prices("2026-03-10");
  std::vector<std::string> got;
  for (const auto& p : prices) {
    got.push_back(p.item_id + "/" + p.condition + "/" + p.region + "/" + p.seller + "=" +
                  std::to_string(static_cast<int>(p.amount)) + "@" + p.provenance.observed_on);
  }
  EXPECT_EQ(got, (std::vector<std::string>{
                     "h100-sxm/new/us/dealer=30000@2026-02-01",
                     "rtx-3090/new/us/nvidia=1500@2026-01-10",
                     "rtx-3090/used/eu/kleinanzeigen=750@2026-03-10",
                     "rtx-3090/used/us/ebay=700@2026-03-10",
                 }));
  EXPECT_TRUE(catalog_.prices("2026-01-09").empty());
  EXPECT_EQ(catalog_.prices("2026-01-10").size(), 2u);
}

TEST_F(CatalogTest, rentalOffersLatestPerKeyOrderedByPerDeviceAmount) {
  EXPECT_TRUE(catalog_.rental_offers("2025-12-31").empty());
  const auto offers = catalog_.rental_offers("2026-03-31");
  EXPECT_EQ(describe(offers), (std::vector<std::string>{
                                  "cheap/3090/hourly/on_demand/us@2026-02-01",
                                  "cheap/3090/hourly/spot/us@2026-02-01",
                                  "cloudy/h100x1/hourly/spot/us-east@2026-01-01",
                                  "cloudy/h100x8/hourly/on_demand/us-east@2026-01-01",
                                  "cloudy/h100x1/hourly/on_demand/us-east@2026-01-01",
                                  "hoster/rtx3090-box/monthly/on_demand/eu@2026-02-01",
                              }));
  const RentalOffer& box = offers.back();
  EXPECT_EQ(box.devices_per_instance, 2);
  EXPECT_EQ(box.amount, 300);
  EXPECT_EQ(box.amount_per_device(), 150);
  EXPECT_EQ(box.setup_fee, 99);
  EXPECT_EQ(box.currency, "EUR");
  EXPECT_EQ(box.device_id, "rtx-3090");
}

TEST_F(CatalogTest, rentalOffersAsOfBoundaryAndFilters) {
  auto h100_on_demand = [&](const std::string& as_of) {
    std::vector<double> out;
    for (const auto& r : catalog_.rental_offers(as_of, "h100-sxm", "", "on_demand")) {
      out.push_back(r.amount_per_device());
    }
    return out;
  };
  EXPECT_EQ(h100_on_demand("2026-03-31"), (std::vector<double>{2.5, 3.0}));
  EXPECT_EQ(h100_on_demand("2026-04-01"), (std::vector<double>{2.5, 2.8}));  // price cut
  EXPECT_EQ(h100_on_demand("2026-04-02"), (std::vector<double>{2.5, 2.8}));
  EXPECT_EQ(describe(catalog_.rental_offers("2026-04-01", "", "monthly")),
            (std::vector<std::string>{"hoster/rtx3090-box/monthly/on_demand/eu@2026-02-01"}));
  EXPECT_EQ(describe(catalog_.rental_offers("2026-04-01", "rtx-3090", "hourly", "spot")),
            (std::vector<std::string>{"cheap/3090/hourly/spot/us@2026-02-01"}));
  EXPECT_TRUE(catalog_.rental_offers("2026-04-01", "m2-ultra-76c").empty());
}

TEST_F(CatalogTest, tariffAsOfBoundaries) {
  EXPECT_FALSE(catalog_.tariff("nl-business", "2025-12-31").has_value());
  EXPECT_EQ(catalog_.tariff("nl-business", "2026-01-01")->amount_per_kwh, 0.25);
  EXPECT_EQ(catalog_.tariff("nl-business", "2026-06-30")->amount_per_kwh, 0.25);
  const auto july = catalog_.tariff("nl-business", "2026-07-01");
  ASSERT_TRUE(july.has_value());
  EXPECT_EQ(july->amount_per_kwh, 0.22);
  EXPECT_EQ(july->currency, "EUR");
  EXPECT_EQ(july->region, "nl");
  EXPECT_EQ(july->note, "excl. VAT");
  EXPECT_EQ(july->provenance.observed_on, "2026-07-01");
  EXPECT_FALSE(catalog_.tariff("de-business", "2026-07-01").has_value());

  const auto feb = catalog_.tariffs("2026-02-01");
  ASSERT_EQ(feb.size(), 1u);
  EXPECT_EQ(feb[0].id, "nl-business");
  const auto later = catalog_.tariffs("2026-07-02");
  ASSERT_EQ(later.size(), 2u);
  EXPECT_EQ(later[0].id, "nl-business");
  EXPECT_EQ(later[0].amount_per_kwh, 0.22);
  EXPECT_EQ(later[1].id, "us-tx-commercial");
}

TEST_F(CatalogTest, fxRateDirectInvertedAndIdentity) {
  const auto direct = catalog_.fx_rate("EUR", "USD", "2026-01-02");
  ASSERT_TRUE(direct.has_value());
  EXPECT_EQ(direct->base, "EUR");
  EXPECT_EQ(direct->quote, "USD");
  EXPECT_EQ(direct->rate, 1.08);
  EXPECT_EQ(direct->provenance.source, "fixture: ECB reference rate");

  const auto inverted = catalog_.fx_rate("USD", "EUR", "2026-04-30");
  ASSERT_TRUE(inverted.has_value());
  EXPECT_EQ(inverted->base, "USD");
  EXPECT_EQ(inverted->quote, "EUR");
  EXPECT_DOUBLE_EQ(inverted->rate, 1 / 1.08);
  EXPECT_EQ(inverted->provenance.observed_on, "2026-01-02");
  EXPECT_EQ(inverted->provenance.source, "fixture: ECB reference rate (inverted from EUR/USD)");

  // From 2026-05-01 the USD/EUR row is the later observation, in either direction.
  EXPECT_EQ(catalog_.fx_rate("USD", "EUR", "2026-05-01")->rate, 0.90);
  EXPECT_DOUBLE_EQ(catalog_.fx_rate("EUR", "USD", "2026-05-01")->rate, 1 / 0.90);
  EXPECT_EQ(catalog_.fx_rate("EUR", "USD", "2026-04-30")->rate, 1.08);

  EXPECT_FALSE(catalog_.fx_rate("EUR", "USD", "2026-01-01").has_value());
  EXPECT_FALSE(catalog_.fx_rate("EUR", "GBP", "2026-06-01").has_value());  // no cross rates
  const auto same = catalog_.fx_rate("CHF", "CHF", "2026-06-01");
  ASSERT_TRUE(same.has_value());
  EXPECT_EQ(same->rate, 1.0);
}

TEST_F(CatalogTest, asOfMustBeIsoDate) {
  EXPECT_THROW(catalog_.latest_price("rtx-3090", "used", "2026-1-10"), CatalogError);
  EXPECT_THROW(catalog_.prices("10.01.2026"), CatalogError);
  EXPECT_THROW(catalog_.rental_offers(""), CatalogError);
  EXPECT_THROW(catalog_.tariff("nl-business", "2026-02-30"), CatalogError);
  EXPECT_THROW(catalog_.tariffs("today"), CatalogError);
  EXPECT_THROW(catalog_.fx_rate("EUR", "USD", "2026"), CatalogError);
}

TEST_F(CatalogTest, schemaVersionIsNine) {
  // 0009_serving_runs.sql: the user's measured serving runs (issue #36).
  EXPECT_EQ(catalog_.schema_version(), 9);
}

TEST(Catalog, openFileRejectsMissingFile) {
  try {
    Catalog::open_file("/nonexistent/gputco/catalog.sqlite");
    FAIL() << "expected CatalogError";
  } catch (const CatalogError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/gputco/catalog.sqlite: cannot open catalog: no such file");
  }
}

TEST(Catalog, openFileRejectsDirectory) {
  const auto dir = test::work_dir("directory").string();
  try {
    Catalog::open_file(dir);
    FAIL() << "expected CatalogError";
  } catch (const CatalogError& e) {
    EXPECT_EQ(std::string(e.what()), dir + ": cannot open catalog: not a regular file");
  }
}

TEST(Catalog, openFileRejectsNonDatabaseFile) {
  const auto path = (test::work_dir("not_a_db") / "notes.sqlite").string();
  { std::ofstream(path) << "id,name\nthis is a CSV, not a database\n"; }
  try {
    Catalog::open_file(path);
    FAIL() << "expected CatalogError";
  } catch (const CatalogError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": not a gputco catalog: file is not a database");
  }
}

TEST(Catalog, openFileRejectsOtherSqliteDatabase) {
  const auto path = (test::work_dir("other_db") / "other.sqlite").string();
  {
    SQLite::Database db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec("CREATE TABLE devices (id TEXT); PRAGMA user_version = 1");
  }
  try {
    Catalog::open_file(path);
    FAIL() << "expected CatalogError";
  } catch (const CatalogError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": not a gputco catalog (application_id 0)");
  }
}

TEST(Catalog, openFileRejectsNewerSchema) {
  const auto path = test::good_catalog_file("newer_schema");
  {
    SQLite::Database db(path, SQLite::OPEN_READWRITE);
    db.exec("PRAGMA user_version = 10");
  }
  try {
    Catalog::open_file(path);
    FAIL() << "expected CatalogError";
  } catch (const CatalogError& e) {
    EXPECT_EQ(std::string(e.what()),
              path + ": catalog schema version 10 is newer than this program reads (9)");
  }
}

TEST(Catalog, openFileIsReadOnly) {
  const auto path = test::good_catalog_file("read_only_file");
  Catalog catalog = Catalog::open_file(path);
  EXPECT_EQ(catalog.devices().size(), 3u);
  // The file is untouched by reading: a second open sees the same catalog.
  EXPECT_EQ(Catalog::open_file(path).devices().size(), 3u);
}

// Ids of the first column of a CSV file of pricing/data, read independently of the catalog.
std::set<std::string> csv_ids(const std::string& file) {
  std::set<std::string> out;
  for (const auto& row : read_csv_file(test::source_path("pricing/data/" + file)).rows) {
    out.insert(row.fields.at(0));
  }
  return out;
}

std::size_t csv_rows(const std::string& file) {
  const std::string path = test::source_path("pricing/data/" + file);
  if (!std::filesystem::exists(path)) return 0;
  return read_csv_file(path).rows.size();
}

TEST(Catalog, builtinHoldsEveryDeviceModelAndQuantOfPricingData) {
  const Catalog catalog = Catalog::open_builtin();
  EXPECT_EQ(catalog.schema_version(), kCatalogSchemaVersion);
  std::set<std::string> devices;
  for (const auto& d : catalog.devices()) devices.insert(d.id);
  std::set<std::string> models;
  for (const auto& m : catalog.models()) models.insert(m.id);
  std::set<std::string> quants;
  for (const auto& q : catalog.quants()) quants.insert(q.id);
  EXPECT_EQ(devices, csv_ids("devices.csv"));
  EXPECT_EQ(models, csv_ids("models.csv"));
  EXPECT_EQ(quants, csv_ids("quants.csv"));
  EXPECT_EQ(catalog.devices().size(), csv_rows("devices.csv"));
  EXPECT_EQ(catalog.models().size(), csv_rows("models.csv"));
  EXPECT_EQ(catalog.quants().size(), csv_rows("quants.csv"));
}

TEST(Catalog, builtinHoldsEveryObservationOfPricingData) {
  auto db = open_builtin_database();
  auto count = [&](const char* table) {
    return static_cast<std::size_t>(
        db->execAndGet(std::string("SELECT count(*) FROM ") + table).getInt64());
  };
  EXPECT_EQ(count("price_observations"), csv_rows("purchase_prices.csv"));
  EXPECT_EQ(count("rental_offers"), csv_rows("rental_offers.csv"));
  EXPECT_EQ(count("tariffs"), csv_rows("tariffs.csv"));
  EXPECT_EQ(count("fx_rates"), csv_rows("fx_rates.csv"));
  EXPECT_EQ(count("systems"), csv_rows("systems.csv"));
  EXPECT_EQ(count("system_prices"), csv_rows("system_prices.csv"));
  EXPECT_EQ(count("resale_curves"), csv_rows("resale_curves.csv"));
  // Every built-in row is in the built-in book.
  EXPECT_EQ(
      db->execAndGet("SELECT count(*) FROM price_observations WHERE book <> 'built-in'").getInt(),
      0);
}

TEST(Catalog, builtinIsReadOnly) {
  auto db = open_builtin_database();
  EXPECT_THROW(db->exec("DELETE FROM devices"), SQLite::Exception);
  EXPECT_THROW(db->exec("INSERT INTO currencies (code, name) VALUES ('XAU', 'gold')"),
               SQLite::Exception);
  EXPECT_THROW(db->exec("PRAGMA user_version = 9"), SQLite::Exception);
  EXPECT_EQ(db->execAndGet("SELECT count(*) FROM currencies WHERE code = 'XAU'").getInt(), 0);
  EXPECT_EQ(db->execAndGet("PRAGMA user_version").getInt(), kCatalogSchemaVersion);
  // The catalog built from it is unchanged.
  EXPECT_EQ(Catalog::open_builtin().devices().size(), csv_rows("devices.csv"));
}

TEST(Catalog, builtinKnowsEveryActiveIso4217CurrencyAndTheEcbRatesOfADay) {
  // Migration 0007: ISO 4217 List One without funds, metals and test codes, 155 codes.
  auto db = open_builtin_database();
  EXPECT_EQ(db->execAndGet("SELECT count(*) FROM currencies").getInt(), 155);
  EXPECT_EQ(db->execAndGet("SELECT name FROM currencies WHERE code = 'BRL'").getString(),
            "Brazilian Real");
  EXPECT_EQ(db->execAndGet("SELECT name FROM currencies WHERE code = 'USD'").getString(),
            "United States dollar");  // kept from schema version 1 (INSERT OR IGNORE)
  // The ECB's reference rates of 2025-02-28 (eurofxref, reproduced at
  // https://eurodripusa.net/?p=3470): 1 EUR = 6.0712 BRL, 1 EUR = 156.96 JPY.
  const Catalog catalog = Catalog::open_builtin();
  const auto brl = catalog.fx_rate("EUR", "BRL", "2026-05-27");
  ASSERT_TRUE(brl.has_value());
  EXPECT_EQ(brl->rate, 6.0712);
  EXPECT_EQ(brl->provenance.observed_on, "2025-02-28");
  EXPECT_NE(brl->provenance.source.find("ECB euro foreign exchange reference rates"),
            std::string::npos);
  // Inverted: 1 JPY = 1 / 156.96 = 0.006371050... EUR.
  EXPECT_DOUBLE_EQ(catalog.fx_rate("JPY", "EUR", "2026-05-27")->rate, 1 / 156.96);
  // The later EUR/USD row wins over the 2025 one: 1.1637 on 2026-05-27.
  EXPECT_EQ(catalog.fx_rate("EUR", "USD", "2026-05-27")->rate, 1.1637);
  EXPECT_EQ(catalog.fx_rate("EUR", "USD", "2025-03-01")->rate, 1.0411);
}

TEST(Catalog, builtinDoesNotNeedTheSourceTree) {
  // The image is compiled in: it is a complete SQLite file of its own.
  ASSERT_GT(embedded::catalog_sqlite_size, 100u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(embedded::catalog_sqlite), 15),
            "SQLite format 3");
}

TEST(Catalog, modelByHuggingFaceRepositoryMatchesTheSourceAndItsTunings) {
  const Catalog catalog = Catalog::open_builtin();
  // llama-3.1-8b's source names meta-llama/Llama-3.1-8B; the Instruct tuning is the same
  // architecture. Case does not matter; an unknown repository is nullopt.
  EXPECT_EQ(catalog.model_by_repo("meta-llama/Llama-3.1-8B")->id, "llama-3.1-8b");
  EXPECT_EQ(catalog.model_by_repo("meta-llama/Llama-3.1-8B-Instruct")->id, "llama-3.1-8b");
  EXPECT_EQ(catalog.model_by_repo("META-LLAMA/llama-3.3-70b-instruct")->id, "llama-3.3-70b");
  EXPECT_EQ(catalog.model_by_repo("Qwen/Qwen3-235B-A22B")->id, "qwen3-235b-a22b");
  EXPECT_FALSE(catalog.model_by_repo("meta-llama/Llama-3.1-8B-Base").has_value());
  EXPECT_FALSE(catalog.model_by_repo("nobody/nothing").has_value());
}

}  // namespace
}  // namespace gputco
