// gputco catalog import/list/show/export/check and the layered catalog, through the binary.
// Every test gets its own XDG_DATA_HOME: nothing reads or writes the real user catalog.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPriceHeader =
    "item_id,condition,amount,currency,region,seller,observed_on,source,note\n";
constexpr const char* kPriceHeaderTyped =
    "item_id,condition,amount,currency,region,seller,observed_on,source,note,price_type\n";

class CatalogCli : public ::testing::Test {
 protected:
  test::TempDir home_;
  test::TempDir work_;
  std::string db() const { return home_.path() + "/gputco/catalog.sqlite"; }
  test::RunResult gputco(const std::vector<std::string>& args, test::Environment extra = {}) const {
    extra.emplace_back("XDG_DATA_HOME", home_.path());
    return test::run(test::gputco_exe(), args, work_.path(), extra);
  }
  std::string file(const std::string& name, const std::string& content) const {
    test::write_file(work_.file(name), content);
    return work_.file(name);
  }
  // With the price_type column (an export writes it), so that an export reads back equal.
  std::string acme_book() const {
    return file("acme.csv", std::string(kPriceHeaderTyped) +
                                "rtx-3090,used,640,USD,us,acme,2026-11-20,acme quote 17,,street\n"
                                "rtx-4090,new,1700,USD,us,acme,2026-05-01,acme quote 18,,street\n");
  }
};

TEST_F(CatalogCli, badFileIsRejectedWholeWithEveryProblemAndExitTwo) {
  const std::string bad = file("bad.csv", std::string(kPriceHeader) +
                                              "rtx-3090,used,640,USD,us,acme,2026-03-10,q,\n"
                                              "rtx-9999,used,640,USD,us,acme,2026-03-10,q,\n"
                                              "rtx-3090,used,-1,USD,us,b,2026-03-10,q,\n"
                                              "rtx-3090,used,640,XXX,us,c,2026-13-01,q,\n");
  const auto result = gputco({"catalog", "import", bad, "--as-of", "2026-12-01"});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_EQ(result.err,
            bad +
                ":3: item_id: unknown device 'rtx-9999' (not a device of the built-in catalog: "
                "gputco catalog list gpus)\n" +
                bad + ":4: amount: must be greater than 0, got -1\n" + bad +
                ":5: currency: 'XXX' is not a known currency code (ISO 4217, table currencies "
                "of pricing/schema.sql)\n" +
                bad + ":5: observed_on: '2026-13-01' is not a date YYYY-MM-DD\n" +
                "gputco: 4 problems in " + bad + "; nothing imported\n");
  EXPECT_EQ(result.out, "");
  EXPECT_FALSE(fs::exists(db()));
}

TEST_F(CatalogCli, aDirectoryToImportIsRejectedNamingItWithExitTwo) {
  // Named like a CSV file: the reader must not fail inside the stream (exit 1, a message
  // naming neither the file nor the problem).
  const std::string folder = work_.file("prices.csv");
  fs::create_directory(folder);
  const auto result = gputco({"catalog", "import", folder, "--as-of", "2026-12-01"});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_EQ(result.err, folder + ": this is a directory, not a CSV file\ngputco: 1 problem in " +
                            folder + "; nothing imported\n");
  EXPECT_FALSE(fs::exists(db()));
}

// Implausible but well-formed prices are refused, the line named (issue 17); with
// --accept-outliers they are imported with a warning each and make `catalog check` fail; the
// built-in used RTX 4090 above new is a reviewed note, not a problem.
TEST_F(CatalogCli, implausiblePricesAreRefusedOrAcceptedAndFailTheCheck) {
  const auto clean = gputco({"catalog", "check"});
  EXPECT_EQ(clean.exit_code, 0) << clean.out;
  EXPECT_NE(clean.out.find("note: reviewed: purchase price rtx-4090 used (book built-in, used "
                           "market, us, 2026-06-29): used 2000 USD is above every new price"),
            std::string::npos)
      << clean.out;
  const std::string odd = file("odd.csv", std::string(kPriceHeader) +
                                              "rtx-3090,used,1,USD,us,ebay,2026-11-01,s1,\n"
                                              "rtx-4090,used,900,USD,us,a,2026-11-02,s3,\n"
                                              "rtx-4090,used,700,USD,eu,b,2026-11-02,s3,\n");
  const auto refused = gputco({"catalog", "import", odd, "--book", "odd", "--as-of", "2026-11-29"});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  // Built-in used RTX 3090: 700, 850, 750: median 750.
  EXPECT_EQ(refused.err,
            odd +
                ":2: amount: purchase price rtx-3090 used (book odd, ebay, us, 2026-11-01): 1 "
                "USD is 1/750 of the median 750 USD of the 3 other observations of rtx-3090 in "
                "USD (plausible: 1/5 to 5 x); refused: check the figure, or import with "
                "--accept-outliers to keep it (a plan that uses it says so)\ngputco: 1 "
                "problem in " +
                odd + "; nothing imported\n");
  EXPECT_FALSE(fs::exists(db()));
  const auto imported = gputco(
      {"catalog", "import", odd, "--book", "odd", "--as-of", "2026-11-29", "--accept-outliers"});
  EXPECT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_NE(imported.err.find("warning: implausible: purchase price rtx-3090 used (book odd, ebay, "
                              "us, 2026-11-01): 1 USD is 1/750 of the median 750 USD"),
            std::string::npos)
      << imported.err;
  EXPECT_NE(imported.err.find("warning: implausible: purchase price rtx-4090 used (book odd, "
                              "2026-11-02, source 's3'): 2 rows with different amounts: 700 USD, "
                              "900 USD"),
            std::string::npos)
      << imported.err;
  const auto check = gputco({"catalog", "check"});
  EXPECT_EQ(check.exit_code, 1);
  EXPECT_NE(check.out.find("2 problems\n"), std::string::npos) << check.out;
}

TEST_F(CatalogCli, futureDatesAreJudgedAgainstAsOf) {
  const std::string book =
      file("b.csv", std::string(kPriceHeader) + "rtx-3090,used,640,USD,us,acme,2026-12-02,q,\n");
  const auto early = gputco({"catalog", "import", book, "--as-of", "2026-12-01"});
  EXPECT_EQ(early.exit_code, 2);
  EXPECT_NE(early.err.find(book + ":2: observed_on: 2026-12-02 is after the import date "
                                  "2026-12-01 (--as-of, default today)"),
            std::string::npos)
      << early.err;
  EXPECT_EQ(gputco({"catalog", "import", book, "--as-of", "2026-12-02"}).exit_code, 0);
}

TEST_F(CatalogCli, importTwiceChangesNothingAndListsShowTheBook) {
  const std::string book = acme_book();
  const auto first = gputco({"catalog", "import", book, "--book", "acme", "--as-of", "2026-12-01"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(first.out, "imported " + book + " (purchase_prices) into book 'acme' of " + db() +
                           ": 2 rows read, 2 added, 0 unchanged, 0 skipped\n");
  const std::string bytes = test::read_file(db());
  const auto second =
      gputco({"catalog", "import", book, "--book", "acme", "--as-of", "2026-12-01"});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_NE(second.out.find("0 added, 2 unchanged"), std::string::npos) << second.out;
  EXPECT_EQ(test::read_file(db()), bytes);

  const auto list =
      gputco({"catalog", "list", "prices", "--as-of", "2026-11-27", "--max-age", "30", "--json"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  bool seen = false;
  const auto listed = nlohmann::json::parse(list.out);
  for (const auto& row : listed.at("rows")) {
    if (row["book"] == "acme" && row["item_id"] == "rtx-3090") {
      seen = true;
      EXPECT_EQ(row["amount"], 640);
      EXPECT_EQ(row["age_days"], 7);
      EXPECT_EQ(row["stale"], false);
    }
    if (row["book"] == "acme" && row["item_id"] == "rtx-4090") {
      EXPECT_EQ(row["age_days"], 210);
      EXPECT_EQ(row["stale"], true);
    }
  }
  EXPECT_TRUE(seen) << list.out;
  const auto text = gputco({"catalog", "list", "prices", "--as-of", "2026-11-27"});
  EXPECT_NE(text.out.find("age stale book"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("    7 ok    acme       acme quote 17"), std::string::npos) << text.out;
  // Without --as-of there is no date to measure an age at.
  const auto undated = gputco({"catalog", "list", "prices", "--json"});
  EXPECT_TRUE(nlohmann::json::parse(undated.out).at("rows")[0]["age_days"].is_null());

  const auto show = gputco({"catalog", "show", "rtx-3090"});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("2026-11-20  used            640.00 USD  us       acme"),
            std::string::npos)
      << show.out;
  EXPECT_EQ(gputco({"catalog", "show", "rtx-9999"}).exit_code, 2);
  // A typo gets the nearest id, as fit's --gpu does.
  const auto typo = gputco({"catalog", "show", "rtx-3090ti"});
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_EQ(
      typo.err,
      "gputco: catalog show: unknown device 'rtx-3090ti'; did you mean 'rtx-3090-ti'? (gputco "
      "catalog list gpus)\n");
}

TEST_F(CatalogCli, exportIsImportableAgain) {
  const std::string book = acme_book();
  ASSERT_EQ(
      gputco({"catalog", "import", book, "--book", "acme", "--as-of", "2026-12-01"}).exit_code, 0);
  const auto exported = gputco({"catalog", "export", "--book", "acme"});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_EQ(exported.out, test::read_file(book));
  ASSERT_EQ(gputco({"catalog", "export", "prices", "--book", "acme", "-o", "out.csv"}).exit_code,
            0);
  EXPECT_EQ(test::read_file(work_.file("out.csv")), test::read_file(book));
  const auto again = gputco(
      {"catalog", "import", work_.file("out.csv"), "--book", "acme", "--as-of", "2026-12-01"});
  EXPECT_NE(again.out.find("0 added, 2 unchanged"), std::string::npos) << again.out;
  EXPECT_EQ(gputco({"catalog", "export", "--book", "nobody"}).exit_code, 2);
  // -o "$OUT" with OUT unset is a mistake, not a request for stdout.
  const auto empty = gputco({"catalog", "export", "prices", "--book", "acme", "-o", ""});
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_EQ(empty.out, "");
  EXPECT_NE(empty.err.find("catalog export: --output is empty"), std::string::npos) << empty.err;
}

TEST_F(CatalogCli, skippedRowsExitOneUnlessAllowed) {
  const std::string vms = test::source_path("tests/data/catalog/import/skypilot/unmapped/vms.csv");
  const std::vector<std::string> args = {"catalog",       "import",     vms,
                                         "--observed-on", "2026-11-20", "--as-of",
                                         "2026-12-01",    "--book",     "sky"};
  const auto refused = gputco(args);
  EXPECT_EQ(refused.exit_code, 1) << refused.err;
  EXPECT_EQ(refused.out, "");
  EXPECT_NE(refused.err.find("skipped: " + vms +
                             ":3, 4: AcceleratorName: 'K80': not a catalog "
                             "device"),
            std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("gputco: 4 rows cannot be imported from " + vms +
                             "; nothing imported (--allow-skipped imports the other rows)\n"),
            std::string::npos)
      << refused.err;
  EXPECT_FALSE(fs::exists(db()));
  auto allowed_args = args;
  allowed_args.push_back("--allow-skipped");
  const auto allowed = gputco(allowed_args);
  EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
  EXPECT_NE(allowed.out.find("6 rows read, 1 added, 0 unchanged, 4 skipped, 1 without an "
                             "accelerator (CPU-only or host VM)\n"),
            std::string::npos)
      << allowed.out;
  EXPECT_NE(allowed.err.find("skipped: " + vms + ":6: Price: empty, and no SpotPrice either"),
            std::string::npos)
      << allowed.err;
}

TEST_F(CatalogCli, publicCatalogFormatsImport) {
  const auto sky = gputco(
      {"catalog", "import", test::source_path("tests/data/catalog/import/skypilot/lambda/vms.csv"),
       "--observed-on", "2025-06-07", "--as-of", "2026-12-01", "--book", "sky"});
  ASSERT_EQ(sky.exit_code, 0) << sky.err;
  EXPECT_NE(sky.out.find("(skypilot_vms) into book 'sky'"), std::string::npos) << sky.out;
  // The A10 row was skipped before issue 38; the catalog has the A10.
  EXPECT_NE(sky.out.find("5 rows read, 5 added, 0 unchanged, 0 skipped\n"), std::string::npos)
      << sky.out;
  EXPECT_EQ(sky.err, "");
  const auto hunt = gputco(
      {"catalog", "import", test::source_path("tests/data/catalog/import/gpuhunt/runpod.csv"),
       "--observed-on", "2026-05-01", "--as-of", "2026-12-01", "--book", "hunt"});
  ASSERT_EQ(hunt.exit_code, 0) << hunt.err;
  const auto rentals = gputco({"catalog", "list", "rentals", "--as-of", "2026-06-01", "--json"});
  int lambda_a100 = 0;
  const auto rental_rows = nlohmann::json::parse(rentals.out);
  for (const auto& row : rental_rows.at("rows")) {
    if (row["book"] == "sky" && row["sku"] == "gpu_8x_a100_80gb_sxm4") {
      ++lambda_a100;
      EXPECT_DOUBLE_EQ(row["amount_per_device"].get<double>(), 1.79);
      EXPECT_EQ(row["devices_per_instance"], 8);
    }
  }
  EXPECT_EQ(lambda_a100, 1);
  const auto bad =
      gputco({"catalog", "import",
              test::source_path("tests/data/catalog/import/skypilot/bad_spot/vms.csv"),
              "--observed-on", "2025-06-07", "--provider", "runpod", "--as-of", "2026-12-01"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("vms.csv:3: SpotPrice: spot 3.44 is above the on-demand Price 1.72"),
            std::string::npos)
      << bad.err;
}

TEST_F(CatalogCli, checkReportsStaleBookPricesWithExitOne) {
  ASSERT_EQ(gputco({"catalog", "import", acme_book(), "--book", "acme", "--as-of", "2026-12-01"})
                .exit_code,
            0);
  const auto clean = gputco({"catalog", "check"});
  EXPECT_EQ(clean.exit_code, 0) << clean.out;
  EXPECT_NE(clean.out.find("user catalog " + db() + ": integrity ok, foreign keys ok"),
            std::string::npos)
      << clean.out;
  EXPECT_NE(clean.out.find("books: acme"), std::string::npos);
  const auto stale = gputco({"catalog", "check", "--as-of", "2026-12-01", "--max-age", "90"});
  EXPECT_EQ(stale.exit_code, 1);
  EXPECT_NE(stale.out.find("problem: purchase price rtx-4090 new acme us (book acme, 2026-05-01): "
                           "214 days old at 2026-12-01, stale after 90"),
            std::string::npos)
      << stale.out;
  EXPECT_NE(stale.out.find("1 problem\n"), std::string::npos);
  EXPECT_EQ(gputco({"catalog", "check", "--catalog", work_.file("none.sqlite")}).exit_code, 2);
}

std::string fmt_amount(double amount) {
  std::ostringstream out;
  out << amount;
  return out.str();
}

// A scenario that buys used RTX 3090s, priced from the catalog as of 2026-11-27.
std::string rig_scenario(const test::TempDir& dir) {
  test::write_file(dir.file("rig.ini"),
                   "[scenario]\nname = rig\ncurrency = USD\nstart = 2027-01\nhorizon_months = 12\n"
                   "discount_rate = 0.08\nas_of = 2026-11-27\n[workload]\nmodel = llama-3.1-8b\n"
                   "quant = Q4_K_M\ncontext_tokens = 8192\nconcurrent_streams = 1\n"
                   "hours_per_day = 8\ndays_per_month = 21\n[site]\ntariff = us-tx-commercial\n"
                   "pue = 1.0\n[option:rig]\nkind = buy\ngpu = rtx-3090\ncondition = used\n"
                   "count = 1\n[option:cloud]\nkind = rent_hourly\ngpu = h100-sxm\n");
  return dir.file("rig.ini");
}

// The purchase price a plan's Sources list took for the used RTX 3090 ("" when none).
std::string rig_price_source(const std::string& plan_json) {
  const auto plan = nlohmann::json::parse(plan_json);
  for (const auto& row : plan["sources"]) {
    if (row["what"] == "rtx-3090 purchase (used, street)") {
      return row["source"].get<std::string>() + " " + fmt_amount(row["amount"].get<double>());
    }
  }
  return "";
}

// The replayed catalog bugs of issue 17 (tests/data/catalog/bugs), through the binary: an H100
// offer 3.6 x too cheap is refused; accepted, a plan that takes it says so in every report.
TEST_F(CatalogCli, anAcceptedRentalOutlierIsFlaggedWhereverAPlanUsesIt) {
  const std::string offer =
      test::source_path("tests/data/catalog/bugs/h100_offer_3.6x_too_cheap.csv");
  const auto refused =
      gputco({"catalog", "import", offer, "--book", "odd", "--as-of", "2026-11-27"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("h100_offer_3.6x_too_cheap.csv:2: amount: rental offer acme-cloud "
                             "1x H100 SXM hourly on_demand (book odd, global, 2026-10-01): 0.83 "
                             "USD per device-hour is 1/"),
            std::string::npos)
      << refused.err;
  EXPECT_FALSE(fs::exists(db()));
  ASSERT_EQ(gputco({"catalog", "import", offer, "--book", "odd", "--as-of", "2026-11-27",
                    "--accept-outliers"})
                .exit_code,
            0);
  const std::string scenario = rig_scenario(work_);
  // The cloud option takes the cheapest fresh H100 SXM offer: the accepted 0.83.
  const auto text = gputco({"plan", scenario, "-o", "t.xlsx"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const std::string flag = "rate_per_gpu_hour (catalog): 0.83 USD per device-hour is 1/";
  EXPECT_NE(text.out.find("  cloud: " + flag), std::string::npos) << text.out;
  const auto json = gputco({"plan", scenario, "-o", "j.xlsx", "--json"});
  ASSERT_EQ(json.exit_code, 0);
  std::string cloud_warnings;
  const auto plan = nlohmann::json::parse(json.out);
  for (const auto& option : plan["options"]) {
    if (option["id"] != "cloud") continue;
    for (const auto& w : option["warnings"]) cloud_warnings += w.get<std::string>() + "\n";
  }
  EXPECT_EQ(cloud_warnings.rfind(flag, 0), 0u) << cloud_warnings;
  const auto csv = gputco({"plan", scenario, "-o", "c.xlsx", "--format", "csv"});
  EXPECT_NE(csv.out.find(flag), std::string::npos) << csv.out;
  // The workbook: the warning on the Summary, the reason beside the rate on the Inputs sheet.
  const auto strings = test::run("unzip", {"-p", work_.file("t.xlsx"), "xl/sharedStrings.xml"});
  EXPECT_NE(strings.out.find(flag), std::string::npos);
  EXPECT_NE(strings.out.find("the cheapest of "), std::string::npos);
}

TEST_F(CatalogCli, planUsesTheBookAndNeverWritesTheCatalog) {
  const std::string scenario = rig_scenario(work_);
  const auto builtin_only = gputco({"plan", scenario, "-o", "a.xlsx", "--json"});
  ASSERT_EQ(builtin_only.exit_code, 0) << builtin_only.err;
  EXPECT_EQ(rig_price_source(builtin_only.out),
            "bestllmfor.com/best/dual-rtx-3090-budget-rig (guide dated 2026-05-16): used RTX "
            "3090s 'settled around $750' 750");

  ASSERT_EQ(gputco({"catalog", "import", acme_book(), "--book", "acme", "--as-of", "2026-12-01"})
                .exit_code,
            0);
  const std::string bytes = test::read_file(db());
  const auto mtime = fs::last_write_time(db());
  const auto layered = gputco({"plan", scenario, "-o", "b.xlsx", "--json"});
  ASSERT_EQ(layered.exit_code, 0) << layered.err;
  EXPECT_EQ(rig_price_source(layered.out), "acme quote 17 640");
  EXPECT_EQ(test::read_file(db()), bytes);
  EXPECT_EQ(fs::last_write_time(db()), mtime);

  // --catalog names the user database explicitly (same result), read-only as well.
  const std::string copy = work_.file("copy.sqlite");
  fs::copy_file(db(), copy);
  const auto named = gputco({"plan", scenario, "-o", "c.xlsx", "--json", "--catalog", copy});
  ASSERT_EQ(named.exit_code, 0) << named.err;
  EXPECT_EQ(rig_price_source(named.out), "acme quote 17 640");
  EXPECT_EQ(test::read_file(copy), bytes);
  const auto missing = gputco({"plan", scenario, "--catalog", work_.file("missing.sqlite")});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("--catalog: " + work_.file("missing.sqlite") +
                             ": cannot open catalog: no such file"),
            std::string::npos)
      << missing.err;
}

// Issue 14 item 2: a device and a model of one's own, imported, are used by id in plan, fit and
// throughput like the built-in ones; a bad row exits 2 naming the file, line and column.
TEST_F(CatalogCli, importedDeviceAndModelAreUsedByIdInPlanFitAndThroughput) {
  const std::string devices =
      file("devices.csv",
           "id,name,vendor,kind,memory_gb,memory_type,bandwidth_gbps,board_power_w,fp16_tflops,"
           "fp8_tflops,fp4_tflops,nvlink_gbps,note,source,observed_on\n"
           "lab-2080ti-22g,RTX 2080 Ti 22GB (modded),nvidia,consumer,22,GDDR6,616,250,53.8,,,,,"
           "our lab's card (rtx-2080-ti figures of devices.csv),2026-11-01\n");
  const std::string models =
      file("models.csv",
           "id,name,hf_repo,params_b,active_params_b,layers,hidden,heads,kv_heads,head_dim,experts,"
           "experts_active,swa_window,swa_layers,mla_kv_lora_rank,mla_rope_dim,max_context,"
           "vocab_size,tied_embeddings,note,source,observed_on\n"
           "acme-llama-8b,Acme Llama 8B,acme/llama-8b-support,8.03,8.03,32,4096,32,8,128,,,,,,,"
           "131072,128256,0,fine-tune of Llama 3.1 8B,config.json of our checkpoint,2026-11-01\n");
  const auto imported = gputco({"catalog", "import", devices, "--as-of", "2026-12-01"});
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_EQ(imported.out, "imported " + devices + " (devices) into " + db() +
                              ": 1 rows read, 1 added, 0 unchanged\n");
  ASSERT_EQ(gputco({"catalog", "import", models, "--as-of", "2026-12-01"}).exit_code, 0);

  const auto fit = gputco({"fit", "--model", "acme-llama-8b", "--quant", "Q4_K_M", "--gpu",
                           "lab-2080ti-22g", "--json"});
  ASSERT_EQ(fit.exit_code, 0) << fit.err;
  EXPECT_NE(fit.out.find("lab-2080ti-22g"), std::string::npos) << fit.out;
  const auto served = gputco({"throughput", "--model", "acme/llama-8b-support", "--quant", "Q4_K_M",
                              "--gpu", "LAB-2080TI-22G", "--engine", "llama.cpp", "--input-tokens",
                              "1000", "--output-tokens", "200", "--batch", "1", "--json"});
  ASSERT_EQ(served.exit_code, 0) << served.err;
  test::write_file(work_.file("own.ini"),
                   "[scenario]\nname = own\ncurrency = USD\nstart = 2027-01\nhorizon_months = 12\n"
                   "discount_rate = 0.08\nas_of = 2026-11-27\n[workload]\nmodel = acme-llama-8b\n"
                   "quant = Q4_K_M\ncontext_tokens = 8192\nconcurrent_streams = 1\n"
                   "hours_per_day = 8\ndays_per_month = 21\n[site]\ntariff = us-tx-commercial\n"
                   "pue = 1.0\n[option:lab]\nkind = buy\ngpu = lab-2080ti-22g\ncondition = used\n"
                   "count = 1\nprice_per_gpu = 450\n");
  const auto plan = gputco({"plan", work_.file("own.ini"), "-o", "own.xlsx", "--json"});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.out.find("lab-2080ti-22g"), std::string::npos);

  const std::string bad =
      file("bad-devices.csv",
           "id,name,vendor,kind,memory_gb,memory_type,bandwidth_gbps,board_power_w,fp16_tflops,"
           "fp8_tflops,fp4_tflops,nvlink_gbps,note,source,observed_on\n"
           "tiny,Tiny,nvidia,consumer,24,GDDR6,936000000,350,,,,,,spec sheet,2026-11-01\n");
  const auto refused = gputco({"catalog", "import", bad, "--as-of", "2026-12-01"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(refused.err, bad +
                             ":2: bandwidth_gbps: must be at most 100000 GB/s (beyond any device: "
                             "a unit slip?), got 936000000\n"
                             "gputco: 1 problem in " +
                             bad + "; nothing imported\n");
}

TEST_F(CatalogCli, twoImportsAtOnceBothLand) {
  std::string a = kPriceHeader;
  std::string b = kPriceHeader;
  for (int i = 0; i < 500; ++i) {
    a += "rtx-3090,used,700,USD,us,a" + std::to_string(i) + ",2026-03-10,generated,\n";
    b += "rtx-4090,used,1500,USD,us,b" + std::to_string(i) + ",2026-03-10,generated,\n";
  }
  const std::string file_a = file("a.csv", a);
  const std::string file_b = file("b.csv", b);
  test::RunResult result_a;
  test::RunResult result_b;
  std::thread first([&] {
    result_a = gputco({"catalog", "import", file_a, "--book", "a", "--as-of", "2026-12-01"},
                      {{"GPUTCO_FAULT_IMPORT_SLEEP_MS", "700"}});
  });
  std::thread second([&] {
    result_b = gputco({"catalog", "import", file_b, "--book", "b", "--as-of", "2026-12-01"});
  });
  first.join();
  second.join();
  EXPECT_EQ(result_a.exit_code, 0) << result_a.err;
  EXPECT_EQ(result_b.exit_code, 0) << result_b.err;
  const auto check = gputco({"catalog", "check"});
  EXPECT_EQ(check.exit_code, 0) << check.out;
  EXPECT_NE(check.out.find("books: a b"), std::string::npos) << check.out;
  const auto exported = gputco({"catalog", "export", "prices"});
  EXPECT_EQ(std::count(exported.out.begin(), exported.out.end(), '\n'), 1001);
}

TEST_F(CatalogCli, importKilledMidTransactionLeavesTheCatalogAsItWas) {
  ASSERT_EQ(gputco({"catalog", "import", acme_book(), "--book", "acme", "--as-of", "2026-12-01"})
                .exit_code,
            0);
  std::string big = kPriceHeader;
  for (int i = 0; i < 20000; ++i) {
    big += "rtx-3090,used,700,USD,us,s" + std::to_string(i) + ",2026-03-10,generated,\n";
  }
  const std::string big_file = file("big.csv", big);
  const std::string marker = work_.file("inside");
  const std::string exe = test::gputco_exe();  // before fork: the child only execs
  const pid_t child = fork();
  if (child == 0) {
    setenv("XDG_DATA_HOME", home_.path().c_str(), 1);
    setenv("GPUTCO_FAULT_IMPORT_SLEEP_MS", "60000", 1);
    setenv("GPUTCO_FAULT_IMPORT_MARKER", marker.c_str(), 1);
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execl(exe.c_str(), exe.c_str(), "catalog", "import", big_file.c_str(), "--book", "big",
          "--as-of", "2026-12-01", static_cast<char*>(nullptr));
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!fs::exists(marker) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(fs::exists(marker)) << "the import never reached its transaction";
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status));
  const auto check = gputco({"catalog", "check"});
  EXPECT_EQ(check.exit_code, 0) << check.out;
  EXPECT_EQ(check.out.find("big"), std::string::npos) << check.out;
  const auto exported = gputco({"catalog", "export", "prices"});
  EXPECT_EQ(exported.out, test::read_file(work_.file("acme.csv")));
}

}  // namespace
}  // namespace gputco
