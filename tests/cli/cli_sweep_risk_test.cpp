// gputco sweep and gputco risk through the binary: exit codes, messages for bad --vary,
// agreement with `gputco plan`, reproducible Monte Carlo output, and no nan/inf anywhere.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

using nlohmann::json;

const std::string kRig = "scenarios/examples/used-3090-rig-vs-rented-h100.ini";
const std::string kOffice = "scenarios/examples/office-assistant-32b.ini";

test::RunResult gputco(const std::vector<std::string>& args) {
  return test::run(test::gputco_exe(), args);
}

/// No "nan", "inf" or "infinity" as a word ("maintenance" contains "nan", and is fine).
void expect_no_nan_or_inf(const std::string& text) {
  static const std::regex kBad(R"(\b-?(nan|inf|infinity)\b)", std::regex::icase);
  EXPECT_FALSE(std::regex_search(text, kBad)) << text;
}

TEST(CliSweep, hoursPerDayAtThePlansOwnHoursGiveThePlansTotals) {
  const std::string scenario = test::source_path(kRig);
  const auto sweep =
      gputco({"sweep", scenario, "--vary", "workload.hours_per_day=0:24:2", "--json"});
  ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
  expect_no_nan_or_inf(sweep.out);
  const auto j = json::parse(sweep.out);
  EXPECT_EQ(j["key"], "workload.hours_per_day");
  EXPECT_EQ(j["unit"], "h/day");
  EXPECT_NE(j["provenance"].get<std::string>().find("gputco sweep --vary"), std::string::npos);
  ASSERT_EQ(j["points"].size(), 13u);

  test::TempDir dir;
  const auto plan = gputco({"plan", scenario, "-o", dir.file("plan.xlsx"), "--json"});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  const auto p = json::parse(plan.out);
  // The example runs 10 h/day: point 5.
  const auto& at_plan = j["points"][5];
  ASSERT_EQ(at_plan["value"], 10.0);
  ASSERT_EQ(at_plan["options"].size(), p["options"].size());
  for (size_t i = 0; i < p["options"].size(); ++i) {
    EXPECT_EQ(at_plan["options"][i]["id"], p["options"][i]["id"]);
    EXPECT_DOUBLE_EQ(at_plan["options"][i]["total_cost"].get<double>(),
                     p["options"][i]["total_cost"].get<double>());
    EXPECT_DOUBLE_EQ(at_plan["options"][i]["npv"].get<double>(),
                     p["options"][i]["npv"].get<double>());
  }
  EXPECT_EQ(at_plan["recommendation"], p["recommendation"]);
  // Unused hardware still costs its purchase; an unused rental costs nothing.
  EXPECT_EQ(j["points"][0]["recommendation"], "h100-rented");
}

TEST(CliSweep, anExchangeRateTheFileDoesNotSetIsSweptAsPlanSetWouldSetIt) {
  // newcomer7: `--vary fx.USD=...` was "unknown key" unless the file had [fx] USD, though
  // `plan --set fx.USD=0.92` works. Each point equals the plan with that rate set.
  const std::string scenario = test::source_path(kRig);
  const auto sweep = gputco({"sweep", scenario, "--vary", "fx.USD=0.5:1.5:0.5", "--json"});
  ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
  const auto j = json::parse(sweep.out);
  EXPECT_EQ(j["key"], "fx.USD");
  ASSERT_EQ(j["points"].size(), 3u);
  const auto plan = gputco({"plan", scenario, "--set", "fx.USD=1.5", "--no-workbook", "--json"});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  const auto p = json::parse(plan.out);
  const auto& last = j["points"][2];
  ASSERT_EQ(last["value"], 1.5);
  ASSERT_EQ(last["options"].size(), p["options"].size());
  for (size_t i = 0; i < p["options"].size(); ++i) {
    EXPECT_EQ(last["options"][i]["total_cost"].get<double>(),
              p["options"][i]["total_cost"].get<double>());
  }
  // The plan's own currency: the parser's refusal, naming the value (exit 2).
  const auto own = gputco({"sweep", scenario, "--vary", "fx.EUR=0.5:1.5:0.5"});
  EXPECT_EQ(own.exit_code, 2);
  EXPECT_NE(own.err.find("fx.EUR = 0.5: "), std::string::npos) << own.err;
  EXPECT_NE(own.err.find("[fx] EUR: the plan's own currency needs no exchange rate"),
            std::string::npos)
      << own.err;
}

TEST(CliSweep, aSweepOfTheHorizonNamesEachRowsHorizonNotTheFirsts) {
  // newcomer6: `--vary scenario.horizon_months=12:36:12` said "amounts in EUR over 12 months"
  // above rows of 24 and 36 months.
  const std::string scenario = test::source_path(kOffice);
  const auto text = gputco({"sweep", scenario, "--vary", "scenario.horizon_months=12:36:12"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("amounts in EUR over each row's horizon\n"), std::string::npos)
      << text.out;
  EXPECT_EQ(text.out.find("over 12 months"), std::string::npos) << text.out;
  const auto hours = gputco({"sweep", scenario, "--vary", "workload.hours_per_day=4:12:4"});
  ASSERT_EQ(hours.exit_code, 0) << hours.err;
  EXPECT_NE(hours.out.find("amounts in EUR over 36 months\n"), std::string::npos) << hours.out;
  const auto j = json::parse(
      gputco({"sweep", scenario, "--vary", "scenario.horizon_months=12:36:12", "--json"}).out);
  ASSERT_EQ(j["points"].size(), 3u);
  EXPECT_EQ(j["points"][0]["horizon_months"], 12);
  EXPECT_EQ(j["points"][2]["horizon_months"], 36);
}

TEST(CliSweep, printsATableWithEveryOptionAndTheRecommendation) {
  const auto r = gputco({"sweep", test::source_path(kOffice), "--vary",
                         "option:used-3090s.price_per_gpu=500:900:200"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_no_nan_or_inf(r.out);
  for (const char* text : {"used-3090s", "rented-server", "recommendation", "price_per_gpu",
                           "  500 ", "  700 ", "  900 "}) {
    EXPECT_NE(r.out.find(text), std::string::npos) << text << "\n" << r.out;
  }
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(CliSweep, aTariffGivenInTheSweepReplacesTheCatalogTariff) {
  const auto r = gputco(
      {"sweep", test::source_path(kRig), "--vary", "site.tariff_per_kwh=0.1:0.4:0.1", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json::parse(r.out);
  ASSERT_EQ(j["points"].size(), 4u);
  // Owning costs more as electricity does; the hourly rental does not change.
  const auto own = [&](size_t i) {
    return j["points"][i]["options"][0]["total_cost"].get<double>();
  };
  const auto rent = [&](size_t i) {
    return j["points"][i]["options"][1]["total_cost"].get<double>();
  };
  EXPECT_LT(own(0), own(3));
  EXPECT_EQ(rent(0), rent(3));
}

TEST(CliSweep, pointsAreFromPlusStepTimesIRoundedToTheDecimalsGivenInEveryFormat) {
  // 0.1 + 2 x 0.1 is 0.30000000000000004 in doubles; the point is 0.3 (1 decimal given).
  const std::string vary = "site.tariff_per_kwh=0.1:0.4:0.1";
  const auto j =
      json::parse(gputco({"sweep", test::source_path(kRig), "--vary", vary, "--json"}).out);
  ASSERT_EQ(j["points"].size(), 4u);
  EXPECT_EQ(j["points"][2]["value"].dump(), "0.3");
  const auto csv = gputco({"sweep", test::source_path(kRig), "--vary", vary, "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_NE(csv.out.find("\r\nsite.tariff_per_kwh,0.3,rig-3090,"), std::string::npos) << csv.out;
  EXPECT_EQ(csv.out.find("0.30000000000000004"), std::string::npos) << csv.out;
  // The terminal writes each value in full: 1234567, 1234568 and 1234569 are three rows, not
  // three of "1.23457e+06".
  const auto text = gputco(
      {"sweep", test::source_path(kRig), "--vary", "option:rig-3090.host_cost=1234567:1234569:1"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  for (const char* row : {" 1234567  ", " 1234568  ", " 1234569  "}) {
    EXPECT_NE(text.out.find(row), std::string::npos) << row << "\n" << text.out;
  }
  EXPECT_EQ(text.out.find("e+06"), std::string::npos) << text.out;
}

TEST(CliSweep, badVaryExitsWith2AndSaysWhy) {
  struct Case {
    std::string vary;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"workload.hours_per_day", "expected KEY=FROM:TO:STEP"},
      {"workload.hours_per_day=0:24", "expected KEY=FROM:TO:STEP (three numbers)"},
      {"workload.hours_per_day=0:24:2:1", "expected KEY=FROM:TO:STEP (three numbers)"},
      {"=0:24:2", "expected KEY=FROM:TO:STEP"},
      {"workload.hours_per_day=a:24:2", "the FROM 'a' is not a number"},
      {"workload.hours_per_day=0:24:0,5", "the STEP '0,5' is not a number"},
      {"workload.hours_per_day=0:24:0", "STEP must be above 0"},
      {"workload.hours_per_day=10:2:1", "FROM must not be above TO"},
      {"workload.hours_per_day=0:30:5", "workload.hours_per_day = 25 is outside 0 .. 24"},
      {"workload.hours_per_day=0:24:0.001", "at most 1000"},
      {"workload.hours_per_dya=0:24:2", "did you mean 'workload.hours_per_day'?"},
      {"option:rgi-3090.price_per_gpu=500:900:100",
       "did you mean 'option:rig-3090.price_per_gpu'?"},
      {"option:h100-rented.price_per_gpu=1:2:1", "applies to kind = buy only"},
      {"option:rig-3090.count=1:3:0.5", "takes whole numbers"},
      {"workload.model=1:2:1", "'model' is not a number"},
      {"site.pue=0.5:1:0.5", "site.pue = 0.5 is outside 1 .. 3"},
  };
  for (const auto& c : cases) {
    const auto r = gputco({"sweep", test::source_path(kRig), "--vary", c.vary});
    EXPECT_EQ(r.exit_code, 2) << c.vary << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.vary << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << c.vary << ": " << r.out;
  }
}

TEST(CliSweep, everyNumberTheFileCouldHoldCanBeSweptWithTheParsersChecks) {
  // Keys come from the parser, not a table of the sweep's own: vat_rate and growth were not
  // in the old table. A value the parser refuses across keys is refused by the sweep, with
  // the value and the parser's message.
  const auto vat =
      gputco({"sweep", test::source_path(kRig), "--vary", "scenario.vat_rate=0:0.2:0.1", "--json"});
  ASSERT_EQ(vat.exit_code, 0) << vat.err;
  EXPECT_EQ(json::parse(vat.out)["points"].size(), 3u);
  EXPECT_EQ(
      gputco({"sweep", test::source_path(kRig), "--vary", "workload.growth_per_month=0:0.02:0.01"})
          .exit_code,
      0);
  const auto tiny =
      gputco({"sweep", test::source_path(kOffice), "--vary", "workload.tokens_per_day=0:1:0.5"});
  EXPECT_EQ(tiny.exit_code, 2) << tiny.out;
  EXPECT_NE(tiny.err.find("workload.tokens_per_day = 0.5: "), std::string::npos) << tiny.err;
  EXPECT_NE(tiny.err.find("expected 0 or at least 1 token per day"), std::string::npos) << tiny.err;
  EXPECT_TRUE(tiny.out.empty());
  // Keys follow the kind an option is a variant of: a blend and a colocation are purchases.
  const std::string peaks = test::source_path("scenarios/examples/own-base-rent-peaks.ini");
  for (const char* vary : {"option:blend-5090-h100.residual_fraction=0:1:0.5",
                           "option:colo-h100.colo_per_kw_month=100:300:100",
                           "option:colo-h100.price_per_gpu=20000:30000:10000"}) {
    const auto r = gputco({"sweep", peaks, "--vary", vary, "--json"});
    EXPECT_EQ(r.exit_code, 0) << vary << ": " << r.err;
  }
}

TEST(CliSweep, usageErrorsExitWith2) {
  EXPECT_EQ(gputco({"sweep"}).exit_code, 2);
  const auto no_vary = gputco({"sweep", test::source_path(kRig)});
  EXPECT_EQ(no_vary.exit_code, 2);
  EXPECT_NE(no_vary.err.find("missing --vary"), std::string::npos) << no_vary.err;
  EXPECT_EQ(gputco({"sweep", test::source_path(kRig), "--vary", "workload.hours_per_day=0:24:2",
                    "--vary", "site.pue=1:2:1"})
                .exit_code,
            2);
  EXPECT_EQ(gputco({"sweep", "missing.ini", "--vary", "workload.hours_per_day=0:24:2"}).exit_code,
            2);
  const auto help = gputco({"sweep", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--vary"), std::string::npos);
}

TEST(CliSweep, theSameBytesOnOneThreadAndOnSeveral) {
  // Issue #19: the values are planned on --threads threads, each into its own row; the table,
  // the JSON (with the Inputs row's provenance of the first value) and the CSV are the same
  // bytes on 1, 2 and 3 threads. 0.5:24:0.5 is 48 values, 6 options each.
  const std::string office = test::source_path(kOffice);
  for (const char* format : {"text", "json", "csv"}) {
    std::vector<std::string> outputs;
    for (const char* threads : {"1", "2", "3"}) {
      const auto r = gputco({"sweep", office, "--vary", "workload.hours_per_day=0.5:24:0.5",
                             "--format", format, "--threads", threads});
      ASSERT_EQ(r.exit_code, 0) << format << " on " << threads << " threads: " << r.err;
      outputs.push_back(r.out);
    }
    EXPECT_EQ(outputs[1], outputs[0]) << format << ": 2 threads differ from 1";
    EXPECT_EQ(outputs[2], outputs[0]) << format << ": 3 threads differ from 1";
  }
  const auto j = json::parse(
      gputco({"sweep", office, "--vary", "workload.hours_per_day=0.5:24:0.5", "--json"}).out);
  ASSERT_EQ(j["points"].size(), 48u);
  EXPECT_EQ(j["points"][0]["value"], 0.5);
  EXPECT_EQ(j["points"][47]["value"], 24.0);
  EXPECT_EQ(j["provenance"], "gputco sweep --vary workload.hours_per_day=0.5:24:0.5");
}

TEST(CliSweep, aValueTheCatalogCannotServeFailsTheSameOnAnyThreadCount) {
  // From 38 concurrent streams the office's model and KV cache outgrow every monthly
  // rtx-pro-6000-blackwell server of the catalog (found with the build before #19's threads:
  // 37 resolves, 38 does not). 1..37 plans; 1..400 fails at 38, with the resolver's message and
  // no partial table, on one thread and on two.
  const std::string office = test::source_path(kOffice);
  for (const char* threads : {"1", "2"}) {
    const auto fits = gputco({"sweep", office, "--vary", "workload.concurrent_streams=1:37:1",
                              "--json", "--threads", threads});
    ASSERT_EQ(fits.exit_code, 0) << fits.err;
    EXPECT_EQ(json::parse(fits.out)["points"].size(), 37u);
    const auto fails = gputco(
        {"sweep", office, "--vary", "workload.concurrent_streams=1:400:1", "--threads", threads});
    EXPECT_EQ(fails.exit_code, 2) << threads;
    EXPECT_TRUE(fails.out.empty()) << fails.out;
    EXPECT_NE(fails.err.find("office-assistant-32b.ini:71: [option:rented-server] "
                             "price_per_month: the catalog has no monthly server with enough "
                             "rtx-pro-6000-blackwell"),
              std::string::npos)
        << threads << ": " << fails.err;
  }
}

TEST(CliSweep, threadsTakesAWholeNumberFrom1To64) {
  for (const char* threads : {"0", "65", "two", "1.5"}) {
    const auto r = gputco({"sweep", test::source_path(kRig), "--vary",
                           "workload.hours_per_day=0:24:2", "--threads", threads});
    EXPECT_EQ(r.exit_code, 2) << threads;
    EXPECT_NE(r.err.find("--threads expects a whole number from 1 to 64"), std::string::npos)
        << threads << ": " << r.err;
  }
}

TEST(CliRisk, sameSeedSameBytesOtherSeedOtherNumbers) {
  const std::string scenario = test::source_path(kOffice);
  const auto a = gputco({"risk", scenario, "--draws", "3000", "--seed", "42"});
  const auto b = gputco({"risk", scenario, "--draws", "3000", "--seed", "42"});
  const auto c = gputco({"risk", scenario, "--draws", "3000", "--seed", "43"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out, c.out);
  expect_no_nan_or_inf(a.out);
  EXPECT_NE(a.out.find("3000 draws, seed 42"), std::string::npos) << a.out;
  EXPECT_NE(a.out.find("% of draws"), std::string::npos) << a.out;
  EXPECT_NE(a.out.find("PERCENTILE.INC"), std::string::npos) << a.out;
  EXPECT_TRUE(a.err.empty()) << a.err;  // no progress bar: stderr is not a terminal
}

TEST(CliRisk, jsonHasOrderedPercentilesAndAProbability) {
  const auto r = gputco({"risk", test::source_path(kOffice), "--draws", "5000", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_no_nan_or_inf(r.out);
  const auto j = json::parse(r.out);
  EXPECT_EQ(j["draws"], 5000);
  EXPECT_EQ(j["seed"], 20260101u);  // the default seed
  const double p = j["probability_buy_beats_rent"].get<double>();
  EXPECT_GE(p, 0);
  EXPECT_LE(p, 1);
  EXPECT_LE(j["npv_difference"]["p10"].get<double>(), j["npv_difference"]["p50"].get<double>());
  EXPECT_LE(j["npv_difference"]["p50"].get<double>(), j["npv_difference"]["p90"].get<double>());
  ASSERT_GE(j["options"].size(), 5u);
  for (const auto& o : j["options"]) {
    EXPECT_LE(o["p10_total_cost"].get<double>(), o["p50_total_cost"].get<double>()) << o["id"];
    EXPECT_LE(o["p50_total_cost"].get<double>(), o["p90_total_cost"].get<double>()) << o["id"];
  }
  // The nine [risk] inputs, then the exchange rate of the USD catalog prices the EUR plan
  // converts (held: the scenario names no fx.USD range).
  ASSERT_EQ(j["uncertain_inputs"].size(), 10u);
  EXPECT_EQ(j["uncertain_inputs"][9]["key"], "fx.USD");
  EXPECT_EQ(j["uncertain_inputs"][9]["low"], 0.0);
  EXPECT_EQ(j["uncertain_inputs"][9]["high"], 0.0);
}

TEST(CliRisk, timeGoesToStderrOnly) {
  const auto r = gputco({"risk", test::source_path(kRig), "--draws", "1000", "--time"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("s CPU"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, gputco({"risk", test::source_path(kRig), "--draws", "1000"}).out);
}

TEST(CliRisk, noPricedOptionSaysEachOptionsReason) {
  // A TPOT target of 1 ms no layout of 8 x H100 meets (the best is about 16 ms at batch 1):
  // the model fits, so "no option holds the model" (the old message) was wrong; risk names
  // each option's own reason, as plan lists it.
  test::TempDir dir;
  test::write_file(dir.file("s.ini"),
                   "[scenario]\ncurrency = USD\nas_of = 2026-11-27\n[workload]\n"
                   "model = llama-3.3-70b\nquant = FP8\nengine = vllm\nrequests_per_day = 1000\n"
                   "prompt_tokens_per_request = 1000\noutput_tokens_per_request = 250\n"
                   "hours_per_day = 8\ntpot_ms = 1\n[option:a]\nkind = rent_hourly\n"
                   "gpu = h100-sxm\ncount = 8\n");
  const auto plan = gputco({"plan", dir.file("s.ini"), "--no-workbook"});
  EXPECT_EQ(plan.exit_code, 0) << plan.err;  // plan lists it, recommends none, says why
  EXPECT_NE(plan.out.find("Recommendation: none"), std::string::npos) << plan.out;
  const auto risk = gputco({"risk", dir.file("s.ini"), "--draws", "10"});
  EXPECT_EQ(risk.exit_code, 2);
  EXPECT_NE(risk.err.find("no option is priced, so there is no cost to draw (a: cannot meet the "
                          "targets: [workload] tpot_ms = 1"),
            std::string::npos)
      << risk.err;
}

TEST(CliRisk, badArgumentsExitWith2) {
  const std::string scenario = test::source_path(kRig);
  const std::vector<std::vector<std::string>> cases = {
      {"risk"},
      {"risk", scenario, "--draws", "0"},
      {"risk", scenario, "--draws", "1e5"},
      {"risk", scenario, "--draws", "2000000"},
      {"risk", scenario, "--draws", "-5"},
      {"risk", scenario, "--seed", "-1"},
      {"risk", scenario, "--seed", "18446744073709551616"},
      {"risk", scenario, "--seed", "x"},
      {"risk", scenario, "--bogus"},
      {"risk", "missing.ini"},
  };
  for (const auto& args : cases) {
    const auto r = gputco(args);
    EXPECT_EQ(r.exit_code, 2) << args.back() << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  EXPECT_EQ(gputco({"risk", scenario, "--seed", "18446744073709551615", "--draws", "10"}).exit_code,
            0);
}

TEST(CliRisk, aScenarioWithoutARentalGivesPercentilesWithoutAProbability) {
  test::TempDir dir;
  const std::string path = dir.file("own-only.ini");
  test::write_file(path,
                   "[scenario]\nname = own only\nas_of = 2026-11-27\n"
                   "[workload]\nmodel = llama-3.3-70b\nquant = Q4_K_M\n"
                   "[site]\ntariff_per_kwh = 0.3\n"
                   "[option:rig]\nkind = buy\ngpu = rtx-3090\ncondition = used\ncount = 4\n");
  // Nothing to compare owning with: every option's percentiles all the same, and the output
  // says why there is no probability (it was refused with exit 2 before).
  const auto r = gputco({"risk", path, "--draws", "500"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("No buy-versus-rent probability: no rental holds the model: nothing to "
                       "compare owning with. The total costs below are drawn all the same."),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("beats"), std::string::npos) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\nrig +[0-9,]+ +[0-9,]+ )"))) << r.out;
  const auto j = gputco({"risk", path, "--draws", "500", "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  expect_no_nan_or_inf(j.out);
  const auto parsed = json::parse(j.out);
  EXPECT_TRUE(parsed["probability_buy_beats_rent"].is_null());
  EXPECT_TRUE(parsed["npv_difference"].is_null());
  EXPECT_EQ(parsed["no_comparison"], "no rental holds the model: nothing to compare owning with");
  ASSERT_EQ(parsed["options"].size(), 1u);
  EXPECT_LT(parsed["options"][0]["p10_total_cost"].get<double>(),
            parsed["options"][0]["p90_total_cost"].get<double>());
  // The used card's catalog price is in USD (a EUR plan): its rate is varied by --set.
  const auto fx = gputco({"risk", path, "--draws", "200", "--set", "risk.fx.USD=uniform -0.1 0.1"});
  ASSERT_EQ(fx.exit_code, 0) << fx.err;
  EXPECT_TRUE(std::regex_search(
      fx.out,
      std::regex(
          R"(exchange rate USD +uniform -10 % \.\. \+10 % +every amount converted from USD)")))
      << fx.out;
  // The sweep still works: it needs no pair.
  EXPECT_EQ(gputco({"sweep", path, "--vary", "workload.hours_per_day=0:24:12"}).exit_code, 0);
}

TEST(CliRisk, againstAnApiTheSummarySaysPayingPerTokenNotRenting) {
  // No device rental: owning is compared with the API, which is not rented.
  test::TempDir dir;
  const std::string path = dir.file("own-or-api.ini");
  test::write_file(path,
                   "[scenario]\nas_of = 2026-11-27\n[workload]\nmodel = qwen3-32b\n"
                   "quant = Q4_K_M\nhours_per_day = 9\ndays_per_month = 21\n"
                   "tokens_per_day = 480000\ninput_tokens_per_output_token = 3.75\n"
                   "[site]\ntariff_per_kwh = 0.25\n"
                   "[option:rig]\nkind = buy\ngpu = rtx-3090\ncondition = used\ncount = 2\n"
                   "[option:api]\nkind = api\napi = groq-qwen3-32b\n");
  const auto r = gputco({"risk", path, "--draws", "200"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Buying rig beats paying per token api (lower NPV of cost) in "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("NPV of buying minus paying per token: P10 "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("renting"), std::string::npos) << r.out;
}

TEST(CliMain, helpListsSweepAndRisk) {
  const auto r = gputco({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("sweep SCENARIO"), std::string::npos);
  EXPECT_NE(r.out.find("risk SCENARIO"), std::string::npos);
}

}  // namespace
}  // namespace gputco
