// The tornado and the choice of the compared pair: hand-computed bars on a tiny plan.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "engine/base/error.hpp"
#include "engine/plan/sensitivity.hpp"
#include "tests/unit/engine_sensitivity_fixture.hpp"

namespace gputco {
namespace {

SensitivityOptions no_draws() {
  SensitivityOptions options;
  options.draws = 0;
  return options;
}

std::map<std::string, TornadoBar> by_key(const std::vector<TornadoBar>& bars) {
  std::map<std::string, TornadoBar> out;
  for (const auto& b : bars) out[b.key] = b;
  return out;
}

void expect_bar(const TornadoBar& bar, double low, double high) {
  constexpr double kTolerance = 1e-9;
  EXPECT_NEAR(bar.difference_low, low, kTolerance)
      << bar.input << ": difference at -swing: calculated " << bar.difference_low << ", expected "
      << low << ", tolerance " << kTolerance;
  EXPECT_NEAR(bar.difference_high, high, kTolerance)
      << bar.input << ": difference at +swing: calculated " << bar.difference_high << ", expected "
      << high << ", tolerance " << kTolerance;
}

TEST(Tornado, priceUpTwentyPercentMovesTheDifferenceByTwoHundred) {
  // Own: 1000 once. Rent: 1/h x 10 h x 30 days x 12 months = 3600. Discount 0.
  // Difference = 1000 - 3600 = -2600; a price of 1200 makes it -2400 (+200), 800: -2800.
  const PlanInputs in = test::tiny_plan();
  const Plan plan = make_plan(in);
  const auto pair = comparison(in, plan);
  ASSERT_TRUE(pair);
  const auto bars = by_key(tornado(in, *pair, 0.2));
  const auto& price = bars.at("price_per_gpu");
  EXPECT_NEAR(price.low_value, 800, 1e-9);
  EXPECT_NEAR(price.high_value, 1200, 1e-9);
  expect_bar(price, -2800, -2400);
  // Hours 8 and 12: rent 2880 and 4320. The rate 0.8 and 1.2 per hour: the same.
  expect_bar(bars.at("hours_per_day"), 1000 - 2880, 1000 - 4320);
  expect_bar(bars.at("rate_per_gpu_hour"), 1000 - 2880, 1000 - 4320);
  // Inputs that are zero (tariff, host, resale, maintenance) or do not matter (discount
  // rate 0) give zero-width bars, kept.
  for (const char* key : {"host_cost", "residual_fraction", "maintenance_per_year",
                          "tariff_per_kwh", "discount_rate"}) {
    expect_bar(bars.at(key), -2600, -2600);
  }
}

TEST(Tornado, everyBarHandComputedAndSortedWidestFirst) {
  // Own: 1000 per GPU + 500 host, 350 W, resale 25 %, maintenance 12 %/year (1 % a month),
  // tariff 0.20/kWh. Over 12 months at 300 h/month:
  //   capex 1500 + energy 12 x 0.35 kW x 300 h x 0.20 = 252 + maintenance 12 x 15 = 180
  //   - resale 375 = 1557. Rent 3600. Difference -2043.
  PlanInputs in = test::tiny_plan();
  in.options[0].host_cost = 500;
  in.options[0].residual_fraction = 0.25;
  in.options[0].maintenance_per_year = 0.12;
  in.site.tariff_per_kwh = 0.20;
  const Plan plan = make_plan(in);
  const auto pair = comparison(in, plan);
  ASSERT_TRUE(pair);
  const auto sensitivity = analyse(in, plan, no_draws());
  EXPECT_NEAR(sensitivity.base_difference, -2043, 1e-9);
  const auto& bars = sensitivity.tornado;
  const auto keyed = by_key(bars);
  // Price +-200 on capex: resale -+50, maintenance +-24: +-174.
  expect_bar(keyed.at("price_per_gpu"), -2043 - 174, -2043 + 174);
  // Host +-100: +-87.
  expect_bar(keyed.at("host_cost"), -2043 - 87, -2043 + 87);
  // Resale 20 % (300 back) and 30 % (450 back).
  expect_bar(keyed.at("residual_fraction"), -2043 + 75, -2043 - 75);
  // Maintenance 9.6 % and 14.4 %: 144 and 216 over the year.
  expect_bar(keyed.at("maintenance_per_year"), -2043 - 36, -2043 + 36);
  // Tariff 0.16 and 0.24: energy 201.6 and 302.4.
  expect_bar(keyed.at("tariff_per_kwh"), -2043 - 50.4, -2043 + 50.4);
  // Hours 8 and 12: energy 201.6 / 302.4 and rent 2880 / 4320.
  expect_bar(keyed.at("hours_per_day"), 1500 + 201.6 + 180 - 375 - 2880,
             1500 + 302.4 + 180 - 375 - 4320);
  // Rate 0.8 and 1.2: rent 2880 and 4320.
  expect_bar(keyed.at("rate_per_gpu_hour"), 1557 - 2880, 1557 - 4320);
  expect_bar(keyed.at("discount_rate"), -2043, -2043);
  expect_bar(keyed.at("annual_failure_rate"), -2043, -2043);  // no failure rate given

  const std::vector<std::string> order = {
      "rate_per_gpu_hour", "hours_per_day",  "price_per_gpu",        "host_cost",
      "residual_fraction", "tariff_per_kwh", "maintenance_per_year", "annual_failure_rate",
      "discount_rate"};
  ASSERT_EQ(bars.size(), order.size());
  for (size_t i = 0; i < order.size(); ++i) EXPECT_EQ(bars[i].key, order[i]) << "bar " << i;
}

TEST(Tornado, failureRateCostsReplacementsAfterTheWarranty) {
  // 6 % of the cards fail per year, no warranty: 0.06 / 12 x 1000 = 5 a month, 60 a year.
  // Difference 1060 - 3600 = -2540. Failure rate 4.8 % / 7.2 %: 48 / 72 (-+12). The price
  // moves the replacements too: 800 / 1200 -> -+(200 + 12).
  PlanInputs in = test::tiny_plan();
  in.options[0].annual_failure_rate = 0.06;
  const Plan plan = make_plan(in);
  ASSERT_NEAR(plan.options[0].total_cost, 1060, 1e-9);
  const auto bars = by_key(tornado(in, *comparison(in, plan), 0.2));
  expect_bar(bars.at("annual_failure_rate"), -2540 - 12, -2540 + 12);
  expect_bar(bars.at("price_per_gpu"), -2540 - 212, -2540 + 212);

  // Within a 12-month warranty over a 12-month plan, failures cost nothing.
  in.options[0].warranty_months = 12;
  const Plan covered = make_plan(in);
  const auto covered_bars = by_key(tornado(in, *comparison(in, covered), 0.2));
  expect_bar(covered_bars.at("annual_failure_rate"), -2600, -2600);
}

TEST(Tornado, boundsHoldAtTheEdges) {
  // 22 h/day + 20 % would be 26.4: capped at 24. A resale of 90 % + 20 %: capped at 100 %.
  PlanInputs in = test::tiny_plan();
  in.workload.hours_per_day = 22;
  in.options[0].residual_fraction = 0.9;
  const Plan plan = make_plan(in);
  const auto bars = by_key(tornado(in, *comparison(in, plan), 0.2));
  EXPECT_EQ(bars.at("hours_per_day").high_value, 24);
  EXPECT_EQ(bars.at("residual_fraction").high_value, 1);
  for (const auto& [key, bar] : bars) {
    EXPECT_TRUE(std::isfinite(bar.difference_low) && std::isfinite(bar.difference_high)) << key;
  }
}

TEST(Tornado, discountRateMovesTheNpvDifference) {
  // With a positive rate, later rent is worth less today: a higher rate makes renting look
  // cheaper, so the buy-minus-rent difference rises.
  PlanInputs in = test::tiny_plan();
  in.finance.discount_rate_per_year = 0.10;
  const Plan plan = make_plan(in);
  const auto bars = by_key(tornado(in, *comparison(in, plan), 0.2));
  const auto& rate = bars.at("discount_rate");
  EXPECT_NEAR(rate.low_value, 0.08, 1e-12);
  EXPECT_NEAR(rate.high_value, 0.12, 1e-12);
  EXPECT_LT(rate.difference_low, rate.difference_high);
}

TEST(Tornado, rejectsASwingOutsideItsDomain) {
  const PlanInputs in = test::tiny_plan();
  const Plan plan = make_plan(in);
  const auto pair = *comparison(in, plan);
  EXPECT_THROW(tornado(in, pair, 0), EngineError);
  EXPECT_THROW(tornado(in, pair, 1.5), EngineError);
  EXPECT_THROW(tornado(in, pair, std::nan("")), EngineError);
}

TEST(Comparison, picksTheCheapestFeasibleOwnedOptionAndTheBaseline) {
  PlanInputs in = test::tiny_plan();
  OptionInputs cheaper = in.options[0];
  cheaper.id = "own-cheaper";
  cheaper.price_per_gpu = 900;
  OptionInputs cheapest_but_too_small = in.options[0];
  cheapest_but_too_small.id = "own-tiny";
  cheapest_but_too_small.device = test::tiny_device();
  cheapest_but_too_small.price_per_gpu = 10;
  OptionInputs dearer_rent = in.options[1];
  dearer_rent.id = "rent-dear";
  dearer_rent.rate_per_gpu_hour = 3;
  in.options.push_back(cheaper);
  in.options.push_back(cheapest_but_too_small);
  in.options.push_back(dearer_rent);
  const Plan plan = make_plan(in);
  const auto pair = comparison(in, plan);
  ASSERT_TRUE(pair);
  EXPECT_EQ(plan.options[pair->owned].id, "own-cheaper");
  EXPECT_EQ(plan.options[pair->rented].id, "rent");

  // A named baseline wins over the cheaper rental.
  in.baseline_option_id = "rent-dear";
  const Plan named = make_plan(in);
  EXPECT_EQ(named.options[comparison(in, named)->rented].id, "rent-dear");
}

TEST(Comparison, aMonthlyServerIsTheRentalWhenNoHourlyOneIsThere) {
  PlanInputs in = test::tiny_plan();
  in.options[1].kind = OptionKind::rent_monthly;
  in.options[1].price_per_month = 250;
  const Plan plan = make_plan(in);
  const auto sensitivity = analyse(in, plan, no_draws());
  EXPECT_EQ(sensitivity.rented_option_id, "rent");
  // 1000 - 12 x 250.
  EXPECT_NEAR(sensitivity.base_difference, -2000, 1e-9);
  const auto bars = by_key(sensitivity.tornado);
  expect_bar(bars.at("price_per_month"), 1000 - 12 * 200.0, 1000 - 12 * 300.0);
}

TEST(Analyse, saysWhyWhenThereIsNothingToCompare) {
  PlanInputs no_rental = test::tiny_plan();
  no_rental.options.pop_back();
  const auto a = analyse(no_rental, make_plan(no_rental));
  EXPECT_TRUE(a.tornado.empty());
  EXPECT_FALSE(a.risk);
  EXPECT_NE(a.note.find("no rental"), std::string::npos) << a.note;
  EXPECT_EQ(a.utilization_sweep.size(), 25u);  // the sweep is still there

  PlanInputs no_owned = test::tiny_plan();
  no_owned.options[0].device = test::tiny_device();  // does not hold the model
  const auto b = analyse(no_owned, make_plan(no_owned));
  EXPECT_TRUE(b.tornado.empty());
  EXPECT_FALSE(b.risk);
  EXPECT_NE(b.note.find("no owned option"), std::string::npos) << b.note;
}

TEST(Analyse, fillsEveryPartWithTheDefaults) {
  const PlanInputs in = test::tiny_plan();
  const Plan plan = make_plan(in);
  const auto a = analyse(in, plan);
  EXPECT_EQ(a.owned_option_id, "own");
  EXPECT_EQ(a.rented_option_id, "rent");
  EXPECT_EQ(a.swing_fraction, 0.2);
  EXPECT_EQ(a.tornado.size(), 9u);
  ASSERT_TRUE(a.risk);
  EXPECT_EQ(a.risk->draws, 10000);
  EXPECT_EQ(a.risk->seed, kDefaultRiskSeed);
  EXPECT_TRUE(a.note.empty());
  EXPECT_EQ(a.utilization_sweep.front().hours_per_day, 0);
  EXPECT_EQ(a.utilization_sweep.back().hours_per_day, 24);
}

}  // namespace
}  // namespace gputco
