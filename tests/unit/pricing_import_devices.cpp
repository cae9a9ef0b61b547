// Price books: devices and models of one's own (issue 14 item 2), imported, read by id and
// alias through the layered catalog, refused with file, line and column, never replaced.
#include "pricing/catalog_import.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "pricing/catalog.hpp"
#include "tests/unit/pricing_fixtures.hpp"
#include "tests/unit/pricing_import_fixtures.hpp"

namespace gputco {
namespace {

namespace fs = std::filesystem;
using Problems = std::vector<std::string>;
using test::book_options;
using test::import_problems;
using test::write_file;

// A fresh directory for the current test (ctest runs tests as parallel processes).
fs::path test_dir() {
  return test::current_test_dir("import");
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
  const std::string devices =
      write_file(dir / "devices.csv", std::string(kDeviceHeader) + kLabCard);
  const ImportReport first = import_price_book(db, devices, book_options());
  EXPECT_EQ(first.format, ImportFormat::devices);
  EXPECT_EQ(first.inserted, 1);
  const ImportReport models = import_price_book(
      db, write_file(dir / "models.csv", std::string(kModelHeader) + kOwnModel), book_options());
  EXPECT_EQ(models.format, ImportFormat::models);
  EXPECT_EQ(models.inserted, 1);
  // Again: nothing changes.
  const ImportReport again = import_price_book(db, devices, book_options());
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
      write_file(dir / "devices.csv",
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
      import_problems(db, devices, book_options()),
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

  const std::string models = write_file(
      dir / "models.csv",
      std::string(kModelHeader) +
          // More active parameters than parameters.
          "moe,MoE,,30,40,48,2048,32,4,128,128,8,,,,,32768,151936,0,,card,2026-11-01\n"
          // A built-in model's Hugging Face id as the alias.
          "mine,Mine,meta-llama/Llama-3.1-8B,8.03,8.03,32,4096,32,8,128,,,,,,,131072,128256,0,,"
          "card,2026-11-01\n");
  EXPECT_EQ(import_problems(db, models, book_options()),
            (Problems{"models.csv:2: active_params_b: must not exceed params_b (40 > 30)",
                      "models.csv:3: hf_repo: 'meta-llama/Llama-3.1-8B' is already the built-in "
                      "model 'llama-3.1-8b' (or its alias; ids and aliases ignore case)"}));
  EXPECT_FALSE(fs::exists(db));
}

TEST(ImportDevices, aDeviceIsNeverReplacedWithOtherFigures) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  import_price_book(db, write_file(dir / "a.csv", std::string(kDeviceHeader) + kLabCard),
                    book_options());
  std::string changed = kLabCard;
  changed.replace(changed.find(",22,"), 4, ",24,");
  EXPECT_EQ(import_problems(db, write_file(dir / "b.csv", std::string(kDeviceHeader) + changed),
                            book_options()),
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
  const std::string file =
      write_file(dir / "models.csv", std::string(kModelHeader) + kOwnModel + tied);
  const ImportReport first = import_price_book(db, file, book_options());
  EXPECT_EQ(first.inserted, 2);
  const ImportReport again = import_price_book(db, file, book_options());
  EXPECT_EQ(again.inserted, 0);
  EXPECT_EQ(again.unchanged, 2);
}

}  // namespace
}  // namespace gputco
