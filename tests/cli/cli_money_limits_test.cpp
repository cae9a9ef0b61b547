// The plausibility limits of amounts of money (a tariff, a rental rate, a price) are amounts
// in USD converted into the plan currency: a Japanese site at 31 JPY a kWh plans, 31 USD a kWh
// is refused (exit 2) with the limit said in the plan currency. Was: every currency capped at
// 10 a kWh and 10000 a device-hour, so 31 JPY a kWh and 12000 KRW an hour were refused.
// The rates: the catalog's 156.96 JPY/EUR and 1519.92 KRW/EUR times 0.9605 EUR/USD, all of
// 2025-02-28 (a cross rate takes both legs from their latest common date), so 150.764 JPY/USD
// and 1459.92 KRW/USD as of 2026-11-01.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

using nlohmann::json;

/// A scenario in `currency` with a site tariff of `tariff` and one option (`option` lines).
std::string scenario(const std::string& currency, const std::string& tariff,
                     const std::string& option) {
  return "[scenario]\nas_of = 2026-11-01\ncurrency = " + currency +
         "\n[workload]\nmodel = llama-3.1-8b\nquant = Q4_K_M\n[site]\ntariff_per_kwh = " + tariff +
         "\n" + option;
}

const std::string kRig = "[option:rig]\nkind = buy\ngpu = rtx-4090\n";

test::RunResult plan(const test::TempDir& dir, const std::string& text,
                     const std::vector<std::string>& extra = {}) {
  test::write_file(dir.file("s.ini"), text);
  std::vector<std::string> args = {"plan", dir.file("s.ini"), "--json", "--no-workbook"};
  args.insert(args.end(), extra.begin(), extra.end());
  return test::run(test::gputco_exe(), args);
}

json input_row(const json& plan, const std::string& section, const std::string& key) {
  for (const auto& row : plan.at("inputs")) {
    if (row.at("section") == section && row.at("key") == key) return row;
  }
  ADD_FAILURE() << "no input row " << section << "." << key;
  return json();
}

/// Asserts `r` was refused as bad input (exit 2) with `message` in its standard error.
void expect_refused(const test::RunResult& r, const std::string& message) {
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
}

TEST(MoneyLimits, aJapaneseTariffInYenPlans) {
  test::TempDir dir;
  const auto r = plan(dir, scenario("JPY", "31", kRig));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json p = json::parse(r.out);
  EXPECT_EQ(input_row(p, "site", "tariff_per_kwh").at("value"), 31.0);
  EXPECT_EQ(input_row(p, "site", "tariff_per_kwh").at("unit"), "JPY/kWh");
  // One RTX 4090 (450 W) and the default 150 W host, 8 h a day over 730 / 24 days: 146 kWh
  // a month at 31 JPY = 4526 JPY.
  const json& rig = p.at("options").at(0);
  EXPECT_DOUBLE_EQ(rig.at("energy_kwh").at("per_month").at(1).get<double>(), 146.0);
  EXPECT_DOUBLE_EQ(rig.at("cash_flow").at("energy").at(1).get<double>(), 4526.0);
  // The limit as the message shows it is accepted; just above it is refused.
  // 10 USD at 156.96 JPY/EUR x 0.9605 EUR/USD, both of 2025-02-28 (the latest date with both).
  EXPECT_EQ(plan(dir, scenario("JPY", "1507.64", kRig)).exit_code, 0);
  const auto above = plan(dir, scenario("JPY", "1508", kRig));
  expect_refused(above,
                 ":8: [site] tariff_per_kwh: expected a price per kWh between 0 and "
                 "1507.64 JPY (10 USD at 150.764 JPY/USD), got 1508");
}

TEST(MoneyLimits, thirtyOneDollarsAKilowattHourIsRefused) {
  test::TempDir dir;
  const auto r = plan(dir, scenario("USD", "31", kRig));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("s.ini:8: [site] tariff_per_kwh: expected a price per kWh between 0 and "
                       "10 USD, got 31"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(plan(dir, scenario("USD", "10", kRig)).exit_code, 0);
  // An option's own tariff and a value from --set are held to the same limit.
  const auto own = plan(dir, scenario("USD", "0.2", kRig + "tariff_per_kwh = 10.5\n"));
  expect_refused(own,
                 "[option:rig] tariff_per_kwh: expected a price per kWh between 0 and 10 "
                 "USD, got 10.5");
  const auto set = plan(dir, scenario("EUR", "0.2", kRig), {"--set", "site.tariff_per_kwh=9"});
  expect_refused(set,
                 "--set site.tariff_per_kwh=9: [site] tariff_per_kwh: expected a price "
                 "per kWh between 0 and 8.59328 EUR (10 USD at 0.859328 EUR/USD), got 9");
}

TEST(MoneyLimits, aKoreanRentalRateInWonPlans) {
  // 12000 KRW a device-hour is 8.22 USD; the limit, 10000 USD, is 1.45992e7 KRW.
  test::TempDir dir;
  const std::string rental =
      "[option:r]\nkind = rent_hourly\ngpu = h100-sxm\nrate_per_gpu_hour = 12000\n";
  const auto r = plan(dir, scenario("KRW", "300", rental));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(input_row(json::parse(r.out), "r", "rate_per_gpu_hour").at("value"), 12000.0);
}

TEST(MoneyLimits, aNegativeOrAbsurdAmountIsRefusedInAnyCurrency) {
  test::TempDir dir;
  const auto negative = plan(dir, scenario("JPY", "-1", kRig));
  expect_refused(negative,
                 "[site] tariff_per_kwh: expected a price per kWh of 0 or more, "
                 "got -1");
  // Above 10 USD x 1e7 (more units of a currency than any buys a USD for) is refused by the
  // parser, before any exchange rate.
  const auto absurd = plan(dir, scenario("JPY", "2e8", kRig));
  expect_refused(absurd,
                 "[site] tariff_per_kwh: expected a price per kWh between 0 and 1e+08 "
                 "in any currency (10 USD, at most 1e+07 units of a currency per "
                 "USD), got 2e8");
}

}  // namespace
}  // namespace gputco
