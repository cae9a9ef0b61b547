// Issue #18: the habits a Unix user expects. Output that cannot be written is a failure; `-`
// reads standard input; --no-workbook, --quiet, --set; a config file of defaults with its
// provenance; catalog list filters and formats; sweep --format; the stamp of every JSON.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "pricing/catalog_schema.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

using nlohmann::json;

const std::string kExample = "scenarios/examples/used-3090-rig-vs-rented-h100.ini";

std::string example_text() {
  return test::read_file(test::source_path(kExample));
}

/// `text` with the line `line` (whole, without its newline) removed; the test fails if absent.
std::string without_line(const std::string& text, const std::string& line) {
  const auto at = text.find("\n" + line + "\n");
  EXPECT_NE(at, std::string::npos) << line;
  return at == std::string::npos ? text : text.substr(0, at) + text.substr(at + line.size() + 1);
}

/// The Inputs row (plan JSON) of section.key.
json input_row(const json& plan, const std::string& section, const std::string& key) {
  for (const auto& row : plan.at("inputs")) {
    if (row.at("section") == section && row.at("key") == key) return row;
  }
  ADD_FAILURE() << "no input row " << section << "." << key;
  return json();
}

double rig_kwh_month_1(const json& plan) {
  return plan.at("options").at(0).at("energy_kwh").at("per_month").at(1).get<double>();
}

TEST(UnixHabits, outputThatCannotBeWrittenExitsOne) {
  // /dev/full accepts the open and fails every write with ENOSPC.
  ASSERT_TRUE(std::filesystem::exists("/dev/full"));
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"plan", test::source_path(kExample), "--json", "--no-workbook"},
        std::vector<std::string>{"--help"},
        std::vector<std::string>{"catalog", "list", "gpus", "--format", "ids"},
        std::vector<std::string>{"fit", "--model", "llama-3.1-8b", "--quant", "Q4_K_M", "--gpu",
                                 "rtx-3090"}}) {
    const auto r = test::run(test::gputco_exe(), args, "", {}, "", "/dev/full");
    EXPECT_EQ(r.exit_code, 1) << args.front() << ": " << r.err;
    EXPECT_NE(r.err.find("gputco: cannot write to standard output"), std::string::npos) << r.err;
  }
}

TEST(UnixHabits, aScenarioFromStandardInput) {
  test::TempDir dir;
  const auto ini = test::run(test::gputco_exe(), {"plan", "-", "-o", dir.file("x.xlsx"), "--json"},
                             "", {}, test::source_path(kExample));
  ASSERT_EQ(ini.exit_code, 0) << ini.err;
  const auto from_file = test::run(
      test::gputco_exe(), {"plan", test::source_path(kExample), "--json", "--no-workbook"});
  ASSERT_EQ(from_file.exit_code, 0) << from_file.err;
  EXPECT_TRUE(std::filesystem::exists(dir.file("x.xlsx")));
  EXPECT_EQ(json::parse(ini.out).at("options"), json::parse(from_file.out).at("options"));

  // JSON on standard input: told by its first character.
  test::write_file(dir.file("s.json"),
                   R"({"scenario": {"as_of": "2026-11-27"},
                       "workload": {"model": "llama-3.1-8b", "quant": "Q4_K_M"},
                       "option:a": {"kind": "rent_hourly", "gpu": "h100-sxm"}})");
  const auto js = test::run(test::gputco_exe(), {"plan", "-", "--no-workbook", "--json"}, "", {},
                            dir.file("s.json"));
  ASSERT_EQ(js.exit_code, 0) << js.err;
  EXPECT_EQ(json::parse(js.out).at("options").at(0).at("id"), "a");

  // A bad scenario on standard input is named <stdin>.
  test::write_file(dir.file("bad.ini"), "[scenario]\nas_of = 2026-13-01\n");
  const auto bad =
      test::run(test::gputco_exe(), {"plan", "-", "--no-workbook"}, "", {}, dir.file("bad.ini"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err.rfind("error: <stdin>:2: [scenario] as_of: expected a date", 0), 0u) << bad.err;

  // The workbook has no name to take: say so before reading anything.
  const auto unnamed =
      test::run(test::gputco_exe(), {"plan", "-"}, dir.path(), {}, test::source_path(kExample));
  EXPECT_EQ(unnamed.exit_code, 2);
  EXPECT_NE(unnamed.err.find("give -o OUT.xlsx (or --no-workbook)"), std::string::npos)
      << unnamed.err;
  // sweep reads standard input once and plans it once per value.
  const auto sweep = test::run(test::gputco_exe(),
                               {"sweep", "-", "--vary", "workload.hours_per_day=8:12:2", "--json"},
                               "", {}, test::source_path(kExample));
  ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
  EXPECT_EQ(json::parse(sweep.out).at("points").size(), 3u);
}

TEST(UnixHabits, noWorkbookAndQuiet) {
  test::TempDir dir;
  const std::string scenario = dir.file("s.ini");
  test::write_file(scenario, example_text());
  const auto none = test::run(test::gputco_exe(), {"plan", scenario, "--no-workbook"}, dir.path());
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(none.out.find("Workbook:"), std::string::npos) << none.out;
  EXPECT_NE(none.out.find("Recommendation: rig-3090"), std::string::npos) << none.out;
  EXPECT_FALSE(std::filesystem::exists(dir.file("s.xlsx")));
  EXPECT_EQ(
      test::run(test::gputco_exe(), {"plan", scenario, "--no-workbook", "-o", "x.xlsx"}).exit_code,
      2);

  // --quiet: the workbook, and not a word.
  const auto quiet = test::run(test::gputco_exe(), {"plan", scenario, "--quiet"}, dir.path());
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.out, "");
  EXPECT_EQ(quiet.err, "");
  EXPECT_TRUE(std::filesystem::exists(dir.file("s.xlsx")));
  // ... but the output a --format asked for, without the note on stderr.
  const auto quiet_json =
      test::run(test::gputco_exe(), {"plan", scenario, "-q", "--json"}, dir.path());
  ASSERT_EQ(quiet_json.exit_code, 0) << quiet_json.err;
  EXPECT_EQ(quiet_json.err, "");
  EXPECT_EQ(json::parse(quiet_json.out).at("recommendation"), "rig-3090");
  // Errors are never quiet.
  const auto error = test::run(test::gputco_exe(), {"plan", dir.file("missing.ini"), "--quiet"});
  EXPECT_EQ(error.exit_code, 2);
  EXPECT_NE(error.err.find("missing.ini: cannot open the file"), std::string::npos) << error.err;
}

TEST(UnixHabits, setReplacesAValueAndSaysSo) {
  // 12 h instead of 10: the rig draws (4 x 350 W + 200 W host) x 12 h x 21 days = 403.2 kWh
  // in a month (README: 336 kWh at 10 h).
  const auto r =
      test::run(test::gputco_exe(), {"plan", test::source_path(kExample), "--json", "--no-workbook",
                                     "--set", "workload.hours_per_day=12"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto plan = json::parse(r.out);
  EXPECT_DOUBLE_EQ(rig_kwh_month_1(plan), 403.2);
  EXPECT_EQ(input_row(plan, "workload", "hours_per_day").at("provenance"),
            "--set workload.hours_per_day=12");
  // Repeated: the last one wins; an option's key too (3 cards of 4: 3 x 350 + 200 = 1,250 W,
  // 1,250 W x 10 h x 21 days = 262.5 kWh; 2 cards would not hold the model: not priced).
  const auto three = test::run(
      test::gputco_exe(), {"plan", test::source_path(kExample), "--json", "--no-workbook", "--set",
                           "option:rig-3090.count=2", "--set", "option:rig-3090.count=3"});
  ASSERT_EQ(three.exit_code, 0) << three.err;
  EXPECT_DOUBLE_EQ(rig_kwh_month_1(json::parse(three.out)), 262.5);

  const auto typo = test::run(
      test::gputco_exe(),
      {"plan", test::source_path(kExample), "--no-workbook", "--set", "workload.hours_per_dya=12"});
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_EQ(typo.err,
            "error: --set: workload.hours_per_dya=12: 'hours_per_dya' is not a key of [workload]; "
            "did you mean 'hours_per_day'?\n");
  const auto bad = test::run(
      test::gputco_exe(),
      {"plan", test::source_path(kExample), "--no-workbook", "--set", "workload.hours_per_day=25"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err,
            "error: --set workload.hours_per_day=25: [workload] hours_per_day: expected hours per "
            "day between 0 and 24, got 25\n");
  const auto shape = test::run(test::gputco_exe(), {"plan", test::source_path(kExample),
                                                    "--no-workbook", "--set", "hours_per_day"});
  EXPECT_EQ(shape.exit_code, 2);
  EXPECT_NE(shape.err.find("expected SECTION.KEY=VALUE"), std::string::npos) << shape.err;
}

class ConfigFile : public ::testing::Test {
 protected:
  test::TempDir home_;
  std::string config_ = home_.file("gputco/config.ini");
  test::Environment env_ = {{"XDG_CONFIG_HOME", home_.path()}};

  void write_config(const std::string& text) {
    std::filesystem::create_directories(home_.file("gputco"));
    test::write_file(config_, text);
  }
  test::RunResult plan(const std::string& scenario_text, std::vector<std::string> extra = {}) {
    test::write_file(home_.file("s.ini"), scenario_text);
    std::vector<std::string> args = {"plan", home_.file("s.ini"), "--json", "--no-workbook"};
    args.insert(args.end(), extra.begin(), extra.end());
    return test::run(test::gputco_exe(), args, "", env_);
  }
};

TEST_F(ConfigFile, givesDefaultsTheScenarioAndSetOverride) {
  write_config("; my habits\n[site]\npue = 1.25\n\n[scenario]\nmax_price_age_days = 30\n");
  const std::string no_pue = without_line(example_text(), "pue = 1.0");
  // The file has no pue: the config's. 336 kWh x 1.25 = 420 kWh.
  const auto from_config = plan(no_pue);
  ASSERT_EQ(from_config.exit_code, 0) << from_config.err;
  const auto planned = json::parse(from_config.out);
  EXPECT_DOUBLE_EQ(rig_kwh_month_1(planned), 420.0);
  EXPECT_EQ(input_row(planned, "site", "pue").at("provenance"),
            "config file " + config_ + " line 3");
  EXPECT_EQ(input_row(planned, "scenario", "max_price_age_days").at("provenance"),
            "config file " + config_ + " line 6");
  // The scenario file wins over the config file ...
  const auto from_file = plan(example_text());
  ASSERT_EQ(from_file.exit_code, 0) << from_file.err;
  EXPECT_DOUBLE_EQ(rig_kwh_month_1(json::parse(from_file.out)), 336.0);
  // ... and --set over both: 336 x 1.5 = 504 kWh.
  const auto from_set = plan(example_text(), {"--set", "site.pue=1.5"});
  ASSERT_EQ(from_set.exit_code, 0) << from_set.err;
  EXPECT_DOUBLE_EQ(rig_kwh_month_1(json::parse(from_set.out)), 504.0);
}

TEST_F(ConfigFile, aKeyThatSaysTheSameAnotherWayCountsAsGiven) {
  // The config names a tariff id; the scenario gives its own price per kWh: the scenario's
  // price, and no trace of the config's tariff.
  write_config("[site]\ntariff = de-business\n");
  std::string text = example_text();
  text.replace(text.find("tariff = nl-business"), 20, "tariff_per_kwh = 0.25");
  const auto r = plan(text);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto planned = json::parse(r.out);
  EXPECT_EQ(input_row(planned, "site", "tariff_per_kwh").at("value"), 0.25);
  EXPECT_EQ(r.out.find("de-business"), std::string::npos);
}

TEST_F(ConfigFile, problemsNameTheConfigFileAndLine) {
  write_config("[site]\ntarif = nl-business\n");
  auto r = plan(example_text());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: " + config_ + ":2: [site] tarif: unknown key; did you mean 'tariff'?\n");
  write_config("[scenario]\nas_of = 2026-01-01\n");
  r = plan(example_text());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(config_ + ":2: [scenario] as_of: belongs in a scenario file"),
            std::string::npos)
      << r.err;
  // A value is checked where it is used, and named by where it came from.
  write_config("[scenario]\n\nhorizon_months = 0\n");
  r = plan(without_line(example_text(), "horizon_months = 36"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: " + config_ +
                       ":3: [scenario] horizon_months: expected a whole number between 1 and "
                       "600, got 0\n");
  write_config("[catalog]\npath = missing.sqlite\n");
  r = test::run(test::gputco_exe(), {"catalog", "list", "gpus"}, "", env_);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(config_ + ":2: [catalog] path: "), std::string::npos) << r.err;
}

TEST(CatalogListFilters, filterFormatAndRefuseWhatMatchesNothing) {
  const auto all = test::run(test::gputco_exe(), {"catalog", "list", "gpus", "--json"});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  const auto everything = json::parse(all.out).at("rows");
  size_t expected = 0;  // counted here from the unfiltered list
  for (const auto& d : everything) {
    if (d.at("vendor") == "nvidia" && d.at("memory_nameplate_gb").get<double>() >= 80) ++expected;
  }
  ASSERT_GT(expected, 2u);
  const auto big = test::run(test::gputco_exe(), {"catalog", "list", "devices", "--vendor",
                                                  "NVIDIA", "--min-memory", "80", "--json"});
  ASSERT_EQ(big.exit_code, 0) << big.err;
  const auto rows = json::parse(big.out).at("rows");
  EXPECT_EQ(rows.size(), expected);
  for (const auto& d : rows) {
    EXPECT_EQ(d.at("vendor"), "nvidia");
    EXPECT_GE(d.at("memory_nameplate_gb").get<double>(), 80);
  }
  // CSV: every JSON field a column, one CRLF line per row; ids: one a line.
  const auto csv = test::run(test::gputco_exe(), {"catalog", "list", "gpus", "--vendor", "nvidia",
                                                  "--min-memory", "80", "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("id,name,vendor,kind,memory_nameplate_gb,memory_type,bandwidth_gbps,"
                          "board_power_w,fp16_tflops,fp8_tflops,fp4_tflops,nvlink_gbps\r\n",
                          0),
            0u)
      << csv.out;
  EXPECT_EQ(static_cast<size_t>(std::count(csv.out.begin(), csv.out.end(), '\n')), expected + 1);
  // A compute peak a device lacks is empty, not 0: the A100 has no FP8 or FP4 tensor cores
  // (NVIDIA A100 datasheet), the H100 no FP4 ones (H100 datasheet: 1,979 dense FP8 TFLOPS).
  const auto a100 = test::run(test::gputco_exe(), {"catalog", "list", "gpus", "--format", "json"});
  ASSERT_EQ(a100.exit_code, 0) << a100.err;
  const auto all_rows = json::parse(a100.out);  // named: the loop must not outlive it
  for (const auto& d : all_rows.at("rows")) {
    if (d.at("id") == "a100-80gb-sxm") {
      EXPECT_TRUE(d.at("fp8_tflops").is_null()) << d.dump();
      EXPECT_TRUE(d.at("fp4_tflops").is_null()) << d.dump();
      EXPECT_GT(d.at("fp16_tflops").get<double>(), 0);
    }
    if (d.at("id") == "h100-sxm") {
      EXPECT_TRUE(d.at("fp4_tflops").is_null()) << d.dump();
    }
    // A PCIe-only card has no NVLink: no figure, not 0 GB/s (devices.csv leaves it empty).
    if (d.at("id") == "l40s") {
      EXPECT_TRUE(d.at("nvlink_gbps").is_null()) << d.dump();
    }
  }
  // A model's counts that do not apply are null too: DeepSeek R1 (MLA, models.csv) has no KV
  // heads and no sliding window, Llama 3.1 8B no experts; what applies is a number.
  const auto models =
      test::run(test::gputco_exe(), {"catalog", "list", "models", "--format", "json"});
  ASSERT_EQ(models.exit_code, 0) << models.err;
  const auto model_rows = json::parse(models.out);
  int checked = 0;
  for (const auto& m : model_rows.at("rows")) {
    if (m.at("id") == "deepseek-r1") {
      EXPECT_TRUE(m.at("kv_heads").is_null()) << m.dump();
      EXPECT_TRUE(m.at("swa_window").is_null()) << m.dump();
      EXPECT_EQ(m.at("mla_kv_lora_rank"), 512) << m.dump();
      EXPECT_EQ(m.at("experts"), 256) << m.dump();
      ++checked;
    }
    if (m.at("id") == "llama-3.1-8b") {
      EXPECT_TRUE(m.at("experts").is_null()) << m.dump();
      EXPECT_EQ(m.at("kv_heads"), 8) << m.dump();
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2);
  EXPECT_EQ(csv.out.find(",0,"), std::string::npos) << "a 0 peak in " << csv.out;
  const auto ids = test::run(test::gputco_exe(), {"catalog", "list", "gpus", "--format", "ids"});
  EXPECT_EQ(static_cast<size_t>(std::count(ids.out.begin(), ids.out.end(), '\n')),
            everything.size());
  EXPECT_EQ(ids.out.rfind(everything.at(0).at("id").get<std::string>() + "\n", 0), 0u);

  // Rentals: term and price per device and hour, in the offer's currency.
  const auto spot = test::run(test::gputco_exe(), {"catalog", "list", "rentals", "--term", "spot",
                                                   "--max-price", "2", "--json"});
  ASSERT_EQ(spot.exit_code, 0) << spot.err;
  const auto spot_rows = json::parse(spot.out).at("rows");
  ASSERT_FALSE(spot_rows.empty());
  for (const auto& r : spot_rows) {
    EXPECT_EQ(r.at("term"), "spot");
    EXPECT_LE(r.at("amount_per_device").get<double>(), 2.0);
  }
  // A filter of another list, or a value no row has, is a usage error naming the nearest.
  const auto wrong =
      test::run(test::gputco_exe(), {"catalog", "list", "models", "--vendor", "nvidia"});
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_EQ(wrong.err,
            "gputco: catalog list models: --vendor applies to gpus, prices and rentals only\n");
  const auto typo = test::run(test::gputco_exe(), {"catalog", "list", "gpus", "--vendor", "nvida"});
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_NE(typo.err.find("no row has 'nvida'; did you mean 'nvidia'?"), std::string::npos)
      << typo.err;
  const auto list = test::run(test::gputco_exe(), {"catalog", "list", "gpu"});
  EXPECT_EQ(list.exit_code, 2);
  EXPECT_NE(list.err.find("got 'gpu'; did you mean 'gpus'?"), std::string::npos) << list.err;
}

TEST(SweepFormat, csvHasOneRowPerValueAndOption) {
  const auto r =
      test::run(test::gputco_exe(), {"sweep", test::source_path(kExample), "--vary",
                                     "workload.hours_per_day=8:12:2", "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 3 values x 2 options + the header.
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 7);
  EXPECT_EQ(r.out.rfind("key,value,option,feasible,currency,total_cost,npv,recommended\r\n"
                        "workload.hours_per_day,8,rig-3090,true,EUR,",
                        0),
            0u)
      << r.out;
}

TEST(JsonStamp, everyJsonOutputSaysWhoWroteItFromWhichCatalog) {
  const std::string example = test::source_path(kExample);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"plan", example, "--json", "--no-workbook"},
        std::vector<std::string>{"sweep", example, "--vary", "workload.hours_per_day=8:10:2",
                                 "--json"},
        std::vector<std::string>{"risk", example, "--draws", "10", "--json"},
        std::vector<std::string>{"fit", "--model", "llama-3.1-8b", "--quant", "Q4_K_M", "--gpu",
                                 "rtx-3090", "--json"},
        std::vector<std::string>{"fit", "--model", "llama-3.1-8b", "--quant", "Q4_K_M", "--compare",
                                 "rtx-3090", "rtx-4090", "--json"},
        std::vector<std::string>{"fit", "--model", "llama-3.1-8b", "--mode", "finetune-lora",
                                 "--gpu", "rtx-3090", "--json"},
        std::vector<std::string>{"catalog", "list", "tariffs", "--json"},
        std::vector<std::string>{"catalog", "show", "rtx-3090", "--json"}}) {
    const auto r = test::run(test::gputco_exe(), args);
    ASSERT_EQ(r.exit_code, 0) << args.front() << ": " << r.err;
    // In the order written: the stamp comes first.
    const auto doc = nlohmann::ordered_json::parse(r.out);
    ASSERT_TRUE(doc.is_object()) << args.front();
    EXPECT_EQ(doc.begin().key(), "gputco") << args.front() << " " << args.at(1);
    const auto& stamp = doc.at("gputco");
    EXPECT_EQ(stamp.at("program"), "gputco");
    EXPECT_TRUE(
        std::regex_match(stamp.at("version").get<std::string>(), std::regex(R"(\d+\.\d+\.\d+)")));
    EXPECT_EQ(stamp.at("json_schema"), 1);
    EXPECT_EQ(stamp.at("catalog_schema"), kCatalogSchemaVersion);
    // The newest observation of the built-in catalog (pricing/data/rental_offers.csv: OVHcloud
    // and Hetzner, checked on 7 October 2026).
    EXPECT_EQ(stamp.at("catalog_date"), "2026-10-07");
  }
}

TEST(Suggestions, aSwapOfTwoCharactersIsOneStep) {
  const auto fit = test::run(test::gputco_exe(), {"fit", "--model", "llama-3.1-8b", "--quant",
                                                  "Q4_K_M", "--gpu", "rtx-3900"});
  EXPECT_EQ(fit.exit_code, 2);
  EXPECT_EQ(fit.err,
            "gputco: fit: --gpu: unknown id 'rtx-3900'; did you mean 'rtx-3090'? (gputco "
            "catalog list gpus)\n");
  const auto command = test::run(test::gputco_exe(), {"pnla"});
  EXPECT_EQ(command.exit_code, 2);
  EXPECT_EQ(command.err.rfind("gputco: unknown command 'pnla'; did you mean 'plan'?\n", 0), 0u)
      << command.err;
}

}  // namespace
}  // namespace gputco
