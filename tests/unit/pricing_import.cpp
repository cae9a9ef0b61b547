// Price books: importing (every rejection rule, idempotence, public catalog formats), the
// layered catalog's as-of lookups, export, migration of an older file, concurrent imports and
// an import killed inside its transaction.
#include "pricing/catalog_import.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>
#include <utility>

#include "pricing/accelerator_names.hpp"
#include "pricing/catalog.hpp"
#include "pricing/catalog_check.hpp"
#include "pricing/catalog_export.hpp"
#include "pricing/catalog_schema.hpp"
#include "tests/support/paths.hpp"
#include "tests/unit/pricing_fixtures.hpp"

namespace gputco {
namespace {

namespace fs = std::filesystem;
using Problems = std::vector<std::string>;

constexpr const char* kPriceHeader =
    "item_id,condition,amount,currency,region,seller,observed_on,source,note\n";
constexpr const char* kRentalHeader =
    "provider,sku,device_id,devices_per_instance,billing,term,amount,setup_fee,currency,region,"
    "observed_on,source,note\n";

// A fresh directory for the current test (ctest runs tests as parallel processes).
fs::path test_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return test::work_dir(std::string("import.") + info->test_suite_name() + "." + info->name());
}

std::string write(const fs::path& path, const std::string& content) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << content;
  return path.string();
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

ImportOptions options(const std::string& book = "acme", const std::string& as_of = "2026-12-01") {
  ImportOptions o;
  o.book = book;
  o.as_of = as_of;
  return o;
}

using test::import_problems;

int count_rows(const std::string& db, const std::string& table) {
  SQLite::Database d(db, SQLite::OPEN_READONLY);
  return d.execAndGet("SELECT count(*) FROM " + table).getInt();
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
  const std::string file = write(dir / "book.csv", GetParam().content);
  const std::string db = (dir / "user" / "catalog.sqlite").string();
  EXPECT_EQ(import_problems(db, file, options()), GetParam().expected);
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
  const std::string good = write(dir / "good.csv", std::string(kPriceHeader) +
                                                       "rtx-3090,used,640,USD,us,acme,2026-03-10,"
                                                       "quote,\n");
  import_price_book(db, good, options());
  const std::string before = read_bytes(db);
  // One good row first, then a bad one: the good row must not land either.
  const std::string bad = write(dir / "bad.csv", std::string(kPriceHeader) +
                                                     "rtx-4090,new,1700,USD,us,acme,2026-05-01,q,\n"
                                                     "rtx-4090,new,-1,USD,us,acme,2026-05-02,q,\n");
  EXPECT_THROW(import_price_book(db, bad, options()), ImportError);
  EXPECT_EQ(read_bytes(db), before);
  EXPECT_EQ(count_rows(db, "price_observations"), 1);
}

TEST(Import, futureIsRelativeToTheGivenDateOnly) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  const std::string file = write(dir / "book.csv", std::string(kPriceHeader) +
                                                       "rtx-3090,used,640,USD,us,acme,2026-06-02,"
                                                       "quote,\n");
  EXPECT_EQ(import_problems(db, file, options("acme", "2026-06-01")),
            (Problems{"book.csv:2: observed_on: 2026-06-02 is after the import date 2026-06-01 "
                      "(--as-of, default today): a price cannot be observed in the future"}));
  EXPECT_EQ(import_problems(db, file, options("acme", "2026-06-02")), Problems{});
}

TEST(Import, sameFileTwiceChangesNothing) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  const std::string file = write(
      dir / "book.csv", std::string(kRentalHeader) +
                            "cloudy,h100x8,h100-sxm,8,hourly,on_demand,20,0,USD,us,2026-03-01,"
                            "page,\"per 8, negotiated\"\n"
                            "cloudy,h100x8,h100-sxm,8,hourly,spot,12.5,0,USD,us,2026-03-01,"
                            "page,\n");
  const ImportReport first = import_price_book(db, file, options());
  EXPECT_EQ(first.format, ImportFormat::rental_offers);
  EXPECT_EQ(first.inserted, 2);
  const ImportReport second = import_price_book(db, file, options());
  EXPECT_EQ(second.inserted, 0);
  EXPECT_EQ(second.unchanged, 2);
  EXPECT_EQ(count_rows(db, "rental_offers"), 2);
  // The same rows under another book are other observations.
  EXPECT_EQ(import_price_book(db, file, options("other")).inserted, 2);
  EXPECT_EQ(count_rows(db, "rental_offers"), 4);
}

TEST(Import, anObservationIsNeverOverwritten) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  import_price_book(db,
                    write(dir / "a.csv", std::string(kPriceHeader) +
                                             "rtx-3090,used,640,USD,us,acme,2026-03-10,quote,\n"),
                    options());
  const std::string changed =
      write(dir / "b.csv",
            std::string(kPriceHeader) + "rtx-3090,used,600,USD,us,acme,2026-03-10,quote,\n");
  EXPECT_EQ(import_problems(db, changed, options()),
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
  import_price_book(db,
                    write(dir / "a.csv", std::string(kPriceHeader) +
                                             "rtx-3090,used,640,USD,us,acme,2026-03-10,quote,\n"),
                    options());
  const std::string twice =
      write(dir / "b.csv", std::string(kPriceHeader) +
                               "rtx-3090,used,640,USD,us,acme,2026-03-10,quote,\n"
                               "rtx-4090,new,1700,USD,us,acme,2026-03-10,quote,\n"
                               "rtx-3090,used,640,USD,us,acme,2026-03-10,quote,\n"
                               "rtx-4090,new,1650,USD,us,acme,2026-03-10,quote,\n");
  EXPECT_EQ(import_problems(db, twice, options()),
            (Problems{"b.csv:4: item_id+condition+seller+region+observed_on: duplicate key "
                      "(rtx-3090, used, acme, us, 2026-03-10), first on line 2",
                      "b.csv:5: item_id+condition+seller+region+observed_on: duplicate key "
                      "(rtx-4090, new, acme, us, 2026-03-10), first on line 3"}));
  // Line 2 conflicts with the book (600, not 640), line 3 has a bad date: the file's own
  // problem alone is reported.
  const std::string both =
      write(dir / "c.csv", std::string(kPriceHeader) +
                               "rtx-3090,used,600,USD,us,acme,2026-03-10,quote,\n"
                               "rtx-4090,new,1700,USD,us,acme,2026-13-10,quote,\n");
  EXPECT_EQ(import_problems(db, both, options()),
            (Problems{"c.csv:3: observed_on: '2026-13-10' is not a date YYYY-MM-DD"}));
  EXPECT_EQ(count_rows(db, "price_observations"), 1);
}

// A bad file is bad input (exit 2, every problem listed) even where the catalog cannot be
// created: the rows are still all checked.
TEST(Import, badRowsAreReportedWhereTheCatalogCannotBeWritten) {
  const fs::path dir = test_dir();
  write(dir / "not-a-folder", "a file\n");
  const std::string db = (dir / "not-a-folder" / "catalog.sqlite").string();
  const std::string file =
      write(dir / "b.csv", std::string(kPriceHeader) +
                               "rtx-3090,used,640,USD,us,acme,2026-03-10,quote,\n"
                               "rtx-3090,used,-1,USD,us,acme,2026-03-11,quote,\n");
  EXPECT_EQ(import_problems(db, file, options()),
            (Problems{"b.csv:3: amount: must be greater than 0, got -1"}));
  const std::string good = write(dir / "g.csv", std::string(kPriceHeader) +
                                                    "rtx-3090,used,640,USD,us,acme,2026-03-10,"
                                                    "quote,\n");
  EXPECT_THROW(import_price_book(db, good, options()), CatalogError);
}

TEST(Import, badOptionsAreInput) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  const std::string file = write(dir / "b.csv", std::string(kPriceHeader));
  EXPECT_EQ(import_problems(db, file, options("built-in")),
            (Problems{"--book: 'built-in' is the built-in catalog's book"}));
  EXPECT_EQ(import_problems(db, file, options(" acme")),
            (Problems{"--book: ' acme' is not a book name (not empty, no leading or trailing "
                      "space)"}));
  const std::string vms = test::source_path("tests/data/catalog/import/skypilot/lambda/vms.csv");
  EXPECT_EQ(import_problems(db, vms, options()),
            (Problems{"--observed-on: required for skypilot_vms files, which carry no dates (the "
                      "date their prices were read)"}));
  EXPECT_FALSE(fs::exists(db));
}

// ---- Devices and models of one's own (issue 14 item 2) --------------------------------------

constexpr const char* kDeviceHeader =
    "id,name,vendor,kind,memory_gb,memory_type,bandwidth_gbps,board_power_w,fp16_tflops,"
    "fp8_tflops,fp4_tflops,nvlink_gbps,note,source,observed_on\n";
// models.csv's columns before migration 0006 added hf_repo, head_dim_v...: they read as empty.
constexpr const char* kModelHeader =
    "id,name,hf_repo,params_b,active_params_b,layers,hidden,heads,kv_heads,head_dim,experts,"
    "experts_active,swa_window,swa_layers,mla_kv_lora_rank,mla_rope_dim,max_context,vocab_size,"
    "tied_embeddings,note,source,observed_on\n";
// An RTX 2080 Ti with 22 GB fitted (a common modification): the built-in rtx-2080-ti's figures
// (pricing/data/devices.csv line 60) but the memory.
constexpr const char* kLabCard =
    "lab-2080ti-22g,RTX 2080 Ti 22GB (modded),nvidia,consumer,22,GDDR6,616,250,53.8,,,,"
    "memory doubled by a repair shop,our lab's card (rtx-2080-ti figures of devices.csv),"
    "2026-11-01\n";
// Llama 3.1 8B's row of pricing/data/models.csv under another id: a fine-tune.
constexpr const char* kOwnModel =
    "acme-llama-8b,Acme Llama 8B (fine-tune),acme/llama-8b-support,8.03,8.03,32,4096,32,8,128,,,,"
    ",,,131072,128256,0,our fine-tune of Llama 3.1 8B,config.json of our checkpoint,"
    "2026-11-01\n";

TEST(ImportDevices, ownDeviceAndModelAreReadByIdAndAliasThroughTheLayeredCatalog) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  const std::string devices = write(dir / "devices.csv", std::string(kDeviceHeader) + kLabCard);
  const ImportReport first = import_price_book(db, devices, options());
  EXPECT_EQ(first.format, ImportFormat::devices);
  EXPECT_EQ(first.inserted, 1);
  const ImportReport models = import_price_book(
      db, write(dir / "models.csv", std::string(kModelHeader) + kOwnModel), options());
  EXPECT_EQ(models.format, ImportFormat::models);
  EXPECT_EQ(models.inserted, 1);
  // Again: nothing changes.
  const ImportReport again = import_price_book(db, devices, options());
  EXPECT_EQ(again.inserted, 0);
  EXPECT_EQ(again.unchanged, 1);

  const Catalog catalog = Catalog::open_layered(db);
  const auto card = catalog.device("LAB-2080TI-22G");  // ids ignore case
  ASSERT_TRUE(card.has_value());
  EXPECT_EQ(card->id, "lab-2080ti-22g");
  EXPECT_DOUBLE_EQ(card->memory_nameplate_gb, 22);
  EXPECT_DOUBLE_EQ(card->bandwidth_gbps, 616);
  EXPECT_DOUBLE_EQ(card->board_power_w, 250);
  EXPECT_DOUBLE_EQ(card->fp16_tflops, 53.8);
  const auto model = catalog.model("acme/llama-8b-support");  // the alias
  ASSERT_TRUE(model.has_value());
  EXPECT_EQ(model->layers, 32);
  EXPECT_EQ(model->kv_heads, 8);
}

TEST(ImportDevices, badRowsNameTheFileLineAndColumnAndNothingIsWritten) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  const std::string devices =
      write(dir / "devices.csv",
            std::string(kDeviceHeader) +
                // 24000 GB: a figure typed in MB.
                "big,Big,nvidia,consumer,24000,GDDR6X,936,350,,,,,,spec sheet,2026-11-01\n"
                // No source, no date.
                "nosrc,No source,nvidia,consumer,24,GDDR6X,936,350,,,,,,,\n"
                // A built-in id in other letters.
                "H100-SXM,H100,nvidia,datacenter,80,HBM3,3350,700,,,,,,spec sheet,2026-11-01\n"
                // Twice, ignoring case.
                "card,Card,amd,consumer,16,GDDR6,512,250,,,,,,spec sheet,2026-11-01\n"
                "Card,Card,amd,consumer,16,GDDR6,512,250,,,,,,spec sheet,2026-11-01\n"
                // 0 W and a vendor we do not know.
                "zero,Zero,via,consumer,16,GDDR6,512,0,,,,,,spec sheet,2026-11-01\n"
                // An id with a space (no scenario key or command line could name it) and a
                // date after the import's (--as-of 2026-12-01).
                "my gpu,Mine,nvidia,consumer,24,GDDR6X,936,350,,,,,,spec sheet,2099-01-01\n");
  EXPECT_EQ(
      import_problems(db, devices, options()),
      (Problems{"devices.csv:2: memory_gb: must be at most 16384 GB (beyond any device: a unit "
                "slip?), got 24000",
                "devices.csv:3: source: required, but empty",
                "devices.csv:3: observed_on: required, but empty",
                "devices.csv:4: id: 'H100-SXM' is the device 'h100-sxm' of the built-in catalog "
                "(ids and aliases ignore case), which a plan would take: give yours another id",
                "devices.csv:6: id: duplicate key (Card), first on line 5 (ids ignore case)",
                "devices.csv:7: vendor: 'via' is not one of nvidia, amd, intel, apple",
                "devices.csv:7: board_power_w: must be greater than 0, got 0",
                "devices.csv:8: id: 'my gpu' is not an id: ASCII letters, digits, '.', '_' and "
                "'-', starting with a letter or digit (no spaces), e.g. my-gpu-24gb",
                "devices.csv:8: observed_on: 2099-01-01 is after the import date 2026-12-01 "
                "(--as-of, default today): a figure cannot be read in the future"}));
  EXPECT_FALSE(fs::exists(db));

  const std::string models = write(
      dir / "models.csv",
      std::string(kModelHeader) +
          // More active parameters than parameters.
          "moe,MoE,,30,40,48,2048,32,4,128,128,8,,,,,32768,151936,0,,card,2026-11-01\n"
          // A built-in model's Hugging Face id as the alias.
          "mine,Mine,meta-llama/Llama-3.1-8B,8.03,8.03,32,4096,32,8,128,,,,,,,131072,128256,0,,"
          "card,2026-11-01\n");
  EXPECT_EQ(import_problems(db, models, options()),
            (Problems{"models.csv:2: active_params_b: must not exceed params_b (40 > 30)",
                      "models.csv:3: hf_repo: 'meta-llama/Llama-3.1-8B' is already the built-in "
                      "model 'llama-3.1-8b' (or its alias; ids and aliases ignore case)"}));
  EXPECT_FALSE(fs::exists(db));
}

TEST(ImportDevices, aDeviceIsNeverReplacedWithOtherFigures) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  import_price_book(db, write(dir / "a.csv", std::string(kDeviceHeader) + kLabCard), options());
  std::string changed = kLabCard;
  changed.replace(changed.find(",22,"), 4, ",24,");
  EXPECT_EQ(
      import_problems(db, write(dir / "b.csv", std::string(kDeviceHeader) + changed), options()),
      (Problems{"b.csv:2: memory_gb: the catalog already holds device 'lab-2080ti-22g' "
                "with memory_gb '22', not '24' (a device is never replaced: give the "
                "changed one another id)"}));
}

// The same model file again is unchanged, its tied_embeddings (a 0/1 choice read as text,
// stored as an integer) included: re-importing it once said "with tied_embeddings '1', not '1'".
TEST(ImportDevices, theSameModelFileAgainIsUnchanged) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  std::string tied = kOwnModel;
  tied.replace(tied.find(",acme/llama-8b-support,"), 23, ",acme/llama-8b-tied,");
  tied.replace(tied.find("acme-llama-8b,"), 14, "acme-tied-8b,");
  tied.replace(tied.find(",128256,0,"), 10, ",128256,1,");
  const std::string file = write(dir / "models.csv", std::string(kModelHeader) + kOwnModel + tied);
  const ImportReport first = import_price_book(db, file, options());
  EXPECT_EQ(first.inserted, 2);
  const ImportReport again = import_price_book(db, file, options());
  EXPECT_EQ(again.inserted, 0);
  EXPECT_EQ(again.unchanged, 2);
}

// ---- The layered catalog ---------------------------------------------------------------------

class Layered : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test_dir();
    db_ = (dir_ / "catalog.sqlite").string();
    // Built-in rtx-3090 used: 700 (2026-01-01), 850 (2026-02-01), 750 (2026-05-16).
    import_price_book(
        db_,
        write(dir_ / "acme.csv", std::string(kPriceHeader) +
                                     "rtx-3090,used,640,USD,us,acme,2026-03-10,acme quote 17,\n"
                                     "rtx-3090,used,800,USD,us,acme,2026-06-29,acme quote 18,\n"),
        options());
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
  import_price_book(
      db_,
      write(dir_ / "same_day.csv", std::string(kPriceHeader) +
                                       "rtx-3090,used,790,USD,us,acme,2026-05-16,acme quote 19,\n"),
      options());
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
  const ImportReport again = import_price_book(db_, write(dir_ / "export.csv", csv), options());
  EXPECT_EQ(again.inserted, 0);
  EXPECT_EQ(again.unchanged, 2);
  // The built-in rows export in the same format and pass the same checks.
  const std::string builtin = export_builtin_prices(ImportFormat::rental_offers);
  EXPECT_EQ(builtin.rfind(kRentalHeader, 0), 0u);
  const ImportReport all = import_price_book(db_, write(dir_ / "builtin.csv", builtin),
                                             options("copy-of-builtin", "2026-12-31"));
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
                    write(dir / "odd.csv", std::string(kPriceHeader) +
                                               "rtx-3090,used,1,USD,us,ebay,2026-11-01,s1,\n"
                                               "h100-sxm,new,9000000,USD,us,x,2026-11-01,s2,\n"
                                               "rtx-4090,used,900,USD,us,a,2026-11-02,s3,\n"
                                               "rtx-4090,used,500,USD,eu,b,2026-11-02,s3,\n"
                                               "rtx-5090,used,2600,USD,us,c,2026-06-01,s4,\n"),
                    [] {
                      ImportOptions o = options("odd", "2026-12-01");
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

// ---- Public catalog formats ------------------------------------------------------------------

std::vector<RentalOffer> book_offers(const std::string& db, const std::string& device) {
  std::vector<RentalOffer> out;
  for (const auto& r : Catalog::open_layered(db).rental_history(device)) {
    if (r.provenance.book != kBuiltinBook) out.push_back(r);
  }
  return out;
}

TEST(ImportSkyPilot, lambdaVmsPerDevicePricesAndUnmappedRowsListed) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  ImportOptions o = options();
  o.observed_on = "2025-06-07";
  const std::string vms = test::source_path("tests/data/catalog/import/skypilot/lambda/vms.csv");
  const ImportReport report = import_price_book(db, vms, o);
  EXPECT_EQ(report.format, ImportFormat::skypilot_vms);
  EXPECT_EQ(report.rows_read, 5);
  // h100 pcie in two regions, a100 x8, a10 (skipped before issue 38: the name table had no
  // A10, the catalog does), a6000
  EXPECT_EQ(report.inserted, 5);
  EXPECT_EQ(report.skipped, 0);
  EXPECT_TRUE(report.warnings.empty());
  const auto a10 = book_offers(db, "a10");
  ASSERT_EQ(a10.size(), 1u);
  EXPECT_DOUBLE_EQ(a10[0].amount_per_device(), 0.75);

  const auto a100 = book_offers(db, "a100-80gb-sxm");
  ASSERT_EQ(a100.size(), 1u);
  EXPECT_EQ(a100[0].provider, "lambda");  // from the folder of vms.csv
  EXPECT_EQ(a100[0].sku, "gpu_8x_a100_80gb_sxm4");
  EXPECT_EQ(a100[0].devices_per_instance, 8);
  EXPECT_DOUBLE_EQ(a100[0].amount_per_device(), 1.79);
  EXPECT_EQ(a100[0].currency, "USD");
  EXPECT_EQ(a100[0].provenance.source, "SkyPilot catalog vms.csv lambda/vms.csv");
  EXPECT_EQ(a100[0].provenance.observed_on, "2025-06-07");
  const auto h100 = book_offers(db, "h100-pcie");
  ASSERT_EQ(h100.size(), 2u);  // different regions stay apart
  EXPECT_EQ(h100[0].region, "us-east-1");
  EXPECT_EQ(h100[1].region, "us-west-1");
  EXPECT_DOUBLE_EQ(h100[0].amount_per_device(), 2.49);
  EXPECT_EQ(book_offers(db, "rtx-a6000").size(), 1u);
  // Again: nothing changes.
  EXPECT_EQ(import_price_book(db, vms, o).inserted, 0);
}

TEST(ImportSkyPilot, runpodZonesMergeSpotIsKeptCpuRowsSkipped) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  ImportOptions o = options();
  o.observed_on = "2025-06-07";
  const std::string vms = test::source_path("tests/data/catalog/import/skypilot/runpod/vms.csv");
  const ImportReport report = import_price_book(db, vms, o);
  EXPECT_EQ(report.skipped, 0);
  EXPECT_EQ(report.without_accelerator, 1);  // the CPU row: counted, not a skipped offer
  EXPECT_TRUE(report.warnings.empty());
  const auto sxm = book_offers(db, "h100-sxm");
  // 1x in CA (two zones, same prices: one row each term) and 2x in US.
  ASSERT_EQ(sxm.size(), 4u);
  for (const auto& r : sxm) {
    // 2x: 5.98 and 5.38 per instance, the same per device as 1x.
    EXPECT_DOUBLE_EQ(r.amount_per_device(), r.term == "spot" ? 2.69 : 2.99)
        << r.sku << " " << r.term;
  }
  EXPECT_EQ(sxm[0].region, "CA");
  const auto rtx = book_offers(db, "rtx-4090");
  ASSERT_EQ(rtx.size(), 2u);
  for (const auto& r : rtx) {
    EXPECT_DOUBLE_EQ(r.amount_per_device(), r.term == "spot" ? 0.34 : 0.69);
  }
  const auto pcie = book_offers(db, "h100-pcie");  // RunPod's plain H100 is the PCIe card
  ASSERT_EQ(pcie.size(), 1u);
  EXPECT_NE(pcie[0].provenance.source.find("runpod/vms.csv"), std::string::npos);
  const auto l4 = book_offers(db, "l4");  // zones with different prices stay apart
  ASSERT_EQ(l4.size(), 2u);
  EXPECT_EQ(l4[0].region, "US/US-GA-1");
  EXPECT_EQ(l4[1].region, "US/US-TX-1");
}

TEST(ImportSkyPilot, spotAboveOnDemandAndZeroPriceRejectTheFile) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  ImportOptions o = options();
  o.observed_on = "2025-06-07";
  o.provider = "runpod";
  const std::string vms = test::source_path("tests/data/catalog/import/skypilot/bad_spot/vms.csv");
  EXPECT_EQ(import_problems(db, vms, o),
            (Problems{"vms.csv:3: SpotPrice: spot 3.44 is above the on-demand Price 1.72 of the "
                      "same instance (columns swapped?)",
                      "vms.csv:4: Price: must be greater than 0, got 0"}));
  EXPECT_FALSE(fs::exists(db));
}

TEST(ImportGpuhunt, runpodCatalogPerDevicePrices) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  ImportOptions o = options();
  o.observed_on = "2026-05-01";
  const std::string csv = test::source_path("tests/data/catalog/import/gpuhunt/runpod.csv");
  const ImportReport report = import_price_book(db, csv, o);
  EXPECT_EQ(report.format, ImportFormat::gpuhunt);
  EXPECT_EQ(report.rows_read, 6);
  EXPECT_EQ(report.inserted, 5);  // MI250X was skipped before issue 38; the catalog has it
  EXPECT_EQ(report.skipped, 0);
  EXPECT_EQ(report.without_accelerator, 1);  // the CPU row
  EXPECT_TRUE(report.warnings.empty());
  EXPECT_EQ(book_offers(db, "mi250x").size(), 1u);
  const auto a100 = book_offers(db, "a100-80gb-pcie");  // 80 GB, 'PCIe' in the name
  ASSERT_EQ(a100.size(), 2u);
  EXPECT_EQ(a100[0].provider, "runpod");  // from the file name
  EXPECT_EQ(a100[0].term, "on_demand");
  EXPECT_DOUBLE_EQ(a100[0].amount, 1.64);
  EXPECT_EQ(a100[1].term, "spot");
  EXPECT_DOUBLE_EQ(a100[1].amount, 1.19);
  const auto rtx = book_offers(db, "rtx-4090");
  ASSERT_EQ(rtx.size(), 1u);
  EXPECT_EQ(rtx[0].devices_per_instance, 8);
  EXPECT_DOUBLE_EQ(rtx[0].amount_per_device(), 0.69);
  ASSERT_EQ(book_offers(db, "h100-sxm").size(), 1u);  // "H100 80GB HBM3" is the SXM card
}

TEST(ImportGpuhunt, spotAboveOnDemandNamesBothLines) {
  const fs::path dir = test_dir();
  const std::string file =
      write(dir / "runpod.csv",
            "instance_name,location,price,cpu,memory,gpu_count,gpu_name,gpu_memory,spot\n"
            "NVIDIA L4,US-TX-1,0.44,12,50,1,L4,24.0,False\n"
            "NVIDIA L4,US-TX-1,0.50,12,50,1,L4,24.0,True\n"
            "NVIDIA L4,US-TX-1,0.40,12,50,1,L4,24.0,maybe\n");
  ImportOptions o = options();
  o.observed_on = "2026-05-01";
  EXPECT_EQ(import_problems((dir / "c.sqlite").string(), file, o),
            (Problems{"runpod.csv:3: price: spot 0.5 is above the on-demand price 0.44 of line 2 "
                      "(same instance and location)",
                      "runpod.csv:4: spot: 'maybe' is not True or False"}));
}

// The accelerator names of the built-in catalog's devices.
AcceleratorNames builtin_names() {
  std::vector<DeviceNaming> devices;
  for (const Device& d : Catalog::open_builtin().devices()) devices.push_back({d.id, d.name});
  return AcceleratorNames(devices);
}

TEST(AcceleratorNames, publicNamesMapToCatalogDevices) {
  const AcceleratorNames names = builtin_names();
  auto id = [&](const char* name, const char* sku = "", const char* provider = "",
                double memory = 0) {
    auto m = names.map(name, sku, provider, memory);
    return m ? m->device_id : std::string("-");
  };
  EXPECT_EQ(id("RTX4090"), "rtx-4090");
  EXPECT_EQ(id("NVIDIA GeForce RTX 4090"), "rtx-4090");
  EXPECT_EQ(id("rtx 3090"), "rtx-3090");
  EXPECT_EQ(id("L40S"), "l40s");
  EXPECT_EQ(id("L4"), "l4");
  EXPECT_EQ(id("A100"), "a100-40gb-sxm");
  EXPECT_EQ(id("A100", "", "", 80), "a100-80gb-sxm");
  EXPECT_EQ(id("A100-80GB"), "a100-80gb-sxm");
  EXPECT_EQ(id("A100-80GB", "1x_A100-80GB_SECURE", "runpod"), "a100-80gb-pcie");
  EXPECT_EQ(id("H100", "p5.48xlarge", "aws"), "h100-sxm");
  EXPECT_EQ(id("H100", "gpu_1x_h100_pcie", "lambda"), "h100-pcie");
  EXPECT_EQ(id("H100", "1x_H100_SECURE", "runpod"), "h100-pcie");
  EXPECT_EQ(id("H100-SXM"), "h100-sxm");
  EXPECT_EQ(id("RTX6000-Ada"), "rtx-6000-ada");
  EXPECT_EQ(id("A6000"), "rtx-a6000");
  EXPECT_EQ(id("MI300X"), "mi300x");
  EXPECT_EQ(id("RTX4060TI", "", "", 8), "-");  // the catalog has the 16 GB card only
  EXPECT_EQ(id("RTX4060TI", "", "", 16), "rtx-4060-ti-16gb");
  // The names issue 38 found lost, now derived from the catalog's device names.
  EXPECT_EQ(id("A10"), "a10");
  EXPECT_EQ(id("A10G"), "a10g");
  EXPECT_EQ(id("A40"), "a40");
  EXPECT_EQ(id("A30"), "a30");
  EXPECT_EQ(id("L40"), "l40");
  EXPECT_EQ(id("H100-NVL"), "h100-nvl");
  EXPECT_EQ(id("MI250X"), "mi250x");
  EXPECT_EQ(id("AMD Instinct MI250X"), "mi250x");
  EXPECT_EQ(id("RTX4070"), "rtx-4070");
  EXPECT_EQ(id("V100"), "v100-sxm2-16gb");  // AWS p3 and GCP: the SXM2 card
  EXPECT_EQ(id("V100-32GB"), "v100-sxm2-32gb");
  EXPECT_EQ(id("V100", "Standard_NC6s_v3 PCIe"), "v100-pcie-16gb");
  EXPECT_EQ(id("P40"), "tesla-p40");
  EXPECT_EQ(id("Tesla P100 16GB"), "p100");
  EXPECT_EQ(id("B200"), "b200");
  EXPECT_EQ(id("B200", "", "", 180), "b200-180gb");
  EXPECT_EQ(id("H200"), "h200-sxm");
  EXPECT_EQ(id("H200", "gpu_1x_h200_nvl"), "h200-nvl");
  EXPECT_EQ(id("RTX3080"), "rtx-3080-10gb");
  EXPECT_EQ(id("RTX3080", "", "", 12), "rtx-3080-12gb");
  EXPECT_EQ(id("A4000"), "rtx-a4000");
  EXPECT_EQ(id("RTX PRO 6000"), "rtx-pro-6000-blackwell");
  EXPECT_EQ(id("RTX PRO 4000 Blackwell"), "rtx-pro-4000-blackwell");
  // Names for several devices are not guessed: Lambda's RTX6000 is the Turing Quadro card,
  // which the catalog lacks (not the RTX 6000 Ada).
  EXPECT_EQ(id("RTX6000"), "-");
  EXPECT_EQ(id("K80"), "-");
  EXPECT_EQ(id("tpu-v4-8"), "-");
  EXPECT_EQ(id(""), "-");
}

// Issue 38's measured goal: a SkyPilot file with a row for every catalog device imports them
// all (before it, rows for A40, A10G, A10, V100, L40, A30, H100 NVL, MI250X and RTX 4070 were
// skipped as "not a catalog device" and the import exited 0).
TEST(ImportSkyPilot, aRowForEveryCatalogDeviceImportsThemAll) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  ImportOptions o = options();
  o.observed_on = "2026-11-20";
  o.provider = "fixture";
  o.accept_outliers = true;  // placeholder prices: the file tests names
  const std::string vms =
      test::source_path("tests/data/catalog/import/skypilot/every_device/vms.csv");
  const ImportReport report = import_price_book(db, vms, o);  // allow_skipped is false
  const auto devices = Catalog::open_builtin().devices();
  EXPECT_EQ(report.rows_read, static_cast<int>(devices.size()));
  EXPECT_EQ(report.inserted, static_cast<int>(devices.size()));
  EXPECT_EQ(report.skipped, 0);
  std::map<std::string, int> offers;
  SQLite::Database d(db, SQLite::OPEN_READONLY);
  SQLite::Statement q(d, "SELECT device_id, count(*) FROM rental_offers GROUP BY device_id");
  while (q.executeStep()) offers[q.getColumn(0).getString()] = q.getColumn(1).getInt();
  for (const Device& device : devices) EXPECT_EQ(offers[device.id], 1) << device.id;
}

TEST(ImportSkyPilot, rowsThatCannotBeImportedRefuseTheFileEachNamed) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  ImportOptions o = options();
  o.observed_on = "2026-11-20";
  const std::string vms = test::source_path("tests/data/catalog/import/skypilot/unmapped/vms.csv");
  try {
    import_price_book(db, vms, o);
    ADD_FAILURE() << "expected ImportIncomplete";
  } catch (const ImportIncomplete& e) {
    EXPECT_EQ(e.skipped(), 4);
    EXPECT_EQ(e.summary(),
              (Problems{vms + ":3, 4: AcceleratorName: 'K80': not a catalog device (gputco "
                              "catalog list gpus; a devices.csv import adds one) (2 rows)",
                        vms + ":5: AcceleratorCount: '0.5': a share of a device, which the "
                              "catalog does not price (1 row)",
                        vms + ":6: Price: empty, and no SpotPrice either (1 row)"}));
  }
  EXPECT_FALSE(fs::exists(db));  // nothing written, not even created
  o.allow_skipped = true;
  const ImportReport report = import_price_book(db, vms, o);
  EXPECT_EQ(report.rows_read, 6);
  EXPECT_EQ(report.inserted, 1);  // the H100
  EXPECT_EQ(report.skipped, 4);
  EXPECT_EQ(report.without_accelerator, 1);  // c5.large
  EXPECT_EQ(skipped_summary(report, "vms.csv").size(), 3u);
}

// A withdrawn currency of the ECB's whole history is on thousands of lines: the summary lists
// the first 20 runs of lines and counts the rest.
TEST(SkippedSummary, listsTwentyRunsOfLinesThenCountsTheRest) {
  ImportReport report;
  // Lines 2, 4, 6, ..., 60: 30 lines, no two adjacent, so 30 runs of one line each.
  for (int line = 2; line <= 60; line += 2) {
    report.skipped_rows.push_back({line, "currency", "HRK", "withdrawn"});
  }
  // Runs 1-20 are lines 2..40; the 10 lines 42..60 are counted.
  std::string listed;
  for (int line = 2; line <= 40; line += 2) {
    listed += (listed.empty() ? "" : ", ") + std::to_string(line);
  }
  EXPECT_EQ(skipped_summary(report, "hist.xml"),
            (Problems{"hist.xml:" + listed +
                      " and 10 more lines: currency: 'HRK': withdrawn (30 rows)"}));
}

TEST(AcceleratorNames, everyBuiltinDeviceIsKnownByItsIdAndName) {
  const AcceleratorNames names = builtin_names();
  for (const Device& d : Catalog::open_builtin().devices()) {
    for (const std::string& spelling : {d.id, d.name}) {
      const auto m = names.map(spelling, "", "", d.memory_nameplate_gb);
      ASSERT_TRUE(m.has_value()) << spelling;
      EXPECT_EQ(m->device_id, d.id) << spelling;
    }
  }
}

TEST(AcceleratorNames, aNameTwoDevicesDeriveIsDropped) {
  // "V100 SXM2" (memory left off) is both cards' name: neither gets it.
  const AcceleratorNames names({{"v100-sxm2-16gb", "Tesla V100 SXM2 16GB"},
                                {"v100-sxm2-32gb", "Tesla V100 SXM2 32GB"},
                                {"a40", "A40"}});
  EXPECT_FALSE(names.map("V100-SXM2", "", "", 0).has_value());
  EXPECT_EQ(names.map("V100 SXM2 32GB", "", "", 0)->device_id, "v100-sxm2-32gb");
  EXPECT_EQ(names.map("NVIDIA A40", "", "", 0)->device_id, "a40");
  // An odd name maps only when the catalog has its device.
  EXPECT_FALSE(names.map("A6000", "", "", 0).has_value());
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
                    write(dir / "b.csv", std::string(kPriceHeader) +
                                             "rtx-3090,used,640,USD,us,acme,2026-03-10,q,\n"),
                    options());
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

TEST(Builtin, systemsAndResaleCurvesAreDatedLookups) {
  const Catalog c = Catalog::open_builtin();
  const auto dgx = c.system("dgx-h100");
  ASSERT_TRUE(dgx.has_value());
  EXPECT_EQ(dgx->device_id, "h100-sxm");
  EXPECT_EQ(dgx->device_count, 8);
  EXPECT_EQ(dgx->host_power_w, 4600);
  EXPECT_FALSE(c.latest_system_price("hgx-h100-8x-ib", "new", "2024-07-31").has_value());
  const auto node = c.latest_system_price("hgx-h100-8x-ib", "new", "2024-08-01");
  ASSERT_TRUE(node.has_value());
  EXPECT_TRUE(node->includes_devices);
  EXPECT_EQ(node->amount, 313500);
  // The GPU Lease Rate Index points are dated 2026-01-08; before that only the definition.
  EXPECT_EQ(c.resale_curve("datacenter", "new", "2026-01-07").size(), 1u);
  const auto curve = c.resale_curve("datacenter", "new", "2026-01-08");
  ASSERT_EQ(curve.size(), 5u);
  EXPECT_EQ(curve.front().age_months, 0);
  EXPECT_EQ(curve.front().fraction, 1);
  EXPECT_EQ(curve.back().age_months, 48);
  EXPECT_EQ(curve.back().fraction, 0.175);  // GLRI H100 year 4: midpoint of 15-20 %
  EXPECT_EQ(c.resale_curve("consumer", "new", "2026-06-04").size(), 5u);
  EXPECT_TRUE(c.resale_curve("datacenter", "new", "2025-12-31").empty());
  // The host class: half after a year, halving yearly (icex.co.uk, 2019).
  const auto host = c.resale_curve("host", "new", "2026-11-27");
  ASSERT_EQ(host.size(), 4u);
  EXPECT_EQ(host.back().age_months, 36);
  EXPECT_EQ(host.back().fraction, 0.125);  // 0.5 x 0.5 x 0.5
  // No workstation or unified curve: plans fall back to the lowest of the other classes.
  EXPECT_TRUE(c.resale_curve("workstation", "new", "2026-11-27").empty());
  EXPECT_TRUE(c.resale_curve("unified", "used", "2026-11-27").empty());
}

// Every built-in resale curve starts at 1, never rises with age and stays within 0..1 (a curve
// above 1 would promise a profit on hardware; the data must show a shortage for that).
TEST(Builtin, resaleCurvesAreMonotoneAndSourced) {
  const Catalog c = Catalog::open_builtin();
  int curves = 0;
  for (const char* cls : {"consumer", "workstation", "datacenter", "unified"}) {
    for (const char* condition : {"new", "used", "refurbished"}) {
      const auto curve = c.resale_curve(cls, condition, "2026-11-29");
      if (curve.empty()) continue;
      ++curves;
      EXPECT_EQ(curve.front().age_months, 0) << cls << " " << condition;
      EXPECT_EQ(curve.front().fraction, 1) << cls << " " << condition;
      EXPECT_GE(curve.size(), 3u) << cls << " " << condition << ": a curve needs points past 0";
      for (size_t i = 1; i < curve.size(); ++i) {
        EXPECT_LE(curve[i].fraction, curve[i - 1].fraction)
            << cls << " " << condition << " at " << curve[i].age_months << " months";
        EXPECT_GT(curve[i].fraction, 0) << cls << " " << condition;
        EXPECT_FALSE(curve[i].provenance.source.empty());
        EXPECT_EQ(curve[i].provenance.source.find("example value"), std::string::npos)
            << cls << " " << condition << " at " << curve[i].age_months << " months";
      }
    }
  }
  EXPECT_EQ(curves, 4);  // consumer and datacenter, new and used
}

// Apple machines: board_power_w is the whole machine's published maximum (Apple's power
// consumption and thermal output pages), filled where a configuration matches the chip.
TEST(Builtin, applePowerIsTheWholeMachinesPublishedMaximum) {
  const Catalog c = Catalog::open_builtin();
  const std::pair<const char*, double> published[] = {
      {"m1-max-32c", 115},    // Mac Studio (2022), M1 Max 32-core GPU: Apple Support 102027
      {"m2-ultra-76c", 295},  // Mac Studio (2023), M2 Ultra 76-core GPU: Apple Support 102027
      {"m2-10c", 50},         // Mac mini (2023), M2
      {"m4-10c", 65},         // Mac mini (2024), M4
      {"m4-pro-20c", 140},    // Mac mini (2024), M4 Pro 20-core GPU, full spec
  };
  for (const auto& [id, watts] : published) {
    const auto d = c.device(id);
    ASSERT_TRUE(d.has_value()) << id;
    EXPECT_EQ(d->board_power_w, watts) << id;
  }
}

// ---- Concurrency and durability --------------------------------------------------------------

// Runs `body` in a child process; returns its pid. The child exits with body()'s value.
template <typename Body>
pid_t spawn(Body body) {
  const pid_t pid = fork();
  if (pid == 0) {
    int code = 3;
    try {
      code = body();
    } catch (...) {
      code = 4;
    }
    _exit(code);
  }
  return pid;
}

int wait_for(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string generated_prices(int rows, const std::string& seller) {
  std::string csv = kPriceHeader;
  for (int i = 0; i < rows; ++i) {
    csv += "rtx-3090,used," + std::to_string(500 + i % 400) + ",USD,us," + seller + "-" +
           std::to_string(i) + ",2026-03-10,generated,\n";
  }
  return csv;
}

TEST(Concurrency, twoImportsAtOnceBothLand) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "user" / "catalog.sqlite").string();  // not there yet
  const std::string a = write(dir / "a.csv", generated_prices(2000, "a"));
  const std::string b = write(dir / "b.csv", generated_prices(2000, "b"));
  const pid_t first = spawn([&] {
    setenv("GPUTCO_FAULT_IMPORT_SLEEP_MS", "800", 1);  // hold the write lock a while
    return import_price_book(db, a, options("a")).inserted == 2000 ? 0 : 1;
  });
  const pid_t second =
      spawn([&] { return import_price_book(db, b, options("b")).inserted == 2000 ? 0 : 1; });
  EXPECT_EQ(wait_for(first), 0);
  EXPECT_EQ(wait_for(second), 0);
  EXPECT_EQ(count_rows(db, "price_observations"), 4000);
  EXPECT_EQ(catalog_file_problems(db), Problems{});
}

TEST(Durability, importKilledInsideItsTransactionLeavesTheDatabaseAsItWas) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  import_price_book(db, write(dir / "small.csv", generated_prices(10, "first")), options());
  const std::string big = write(dir / "big.csv", generated_prices(20000, "big"));
  const std::string marker = (dir / "inside").string();
  const pid_t child = spawn([&] {
    setenv("GPUTCO_FAULT_IMPORT_SLEEP_MS", "60000", 1);
    setenv("GPUTCO_FAULT_IMPORT_MARKER", marker.c_str(), 1);
    import_price_book(db, big, options());
    return 0;
  });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!fs::exists(marker) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(fs::exists(marker)) << "the import never reached its transaction";
  kill(child, SIGKILL);
  EXPECT_EQ(wait_for(child), 128 + SIGKILL);
  EXPECT_EQ(catalog_file_problems(db), Problems{});
  EXPECT_EQ(count_rows(db, "price_observations"), 10);
  // And the database takes the same import afterwards.
  EXPECT_EQ(import_price_book(db, big, options()).inserted, 20000);
}

}  // namespace
}  // namespace gputco
