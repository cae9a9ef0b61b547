// Cash flows and metrics: hand-computed values and DOMAIN E cases.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/base/error.hpp"
#include "engine/plan/plan.hpp"

namespace gputco {
namespace {

Device rtx3090() {
  Device d;
  d.id = "rtx-3090";
  d.name = "GeForce RTX 3090";
  d.memory_nameplate_gb = 24;
  d.bandwidth_gbps = 936;
  d.board_power_w = 350;
  return d;
}

OptionInputs buy(double price, int count = 1) {
  OptionInputs o;
  o.id = "own";
  o.kind = OptionKind::buy;
  o.device = rtx3090();
  o.count = count;
  o.price_per_gpu = price;
  return o;
}

OptionInputs rent(double rate, int count = 1) {
  OptionInputs o;
  o.id = "rent";
  o.kind = OptionKind::rent_hourly;
  o.device = rtx3090();
  o.count = count;
  o.rate_per_gpu_hour = rate;
  return o;
}

FinanceInputs finance(int months, double rate) {
  FinanceInputs f;
  f.horizon_months = months;
  f.discount_rate_per_year = rate;
  f.currency = "USD";
  return f;
}

TEST(BreakEven, purchasePriceOverHourlyRate) {
  // DOMAIN E2: $700 / $0.50 per hour = 1,400 hours (no electricity, no resale).
  SiteInputs free_power{0.0, 1.0};
  const auto hours = break_even_hours(buy(700), rent(0.50), free_power, finance(36, 0));
  ASSERT_TRUE(hours.has_value());
  EXPECT_NEAR(*hours, 1400.0, 1e-9);
  // At 2 h/day that is 700 days, nearly two years (DOMAIN E2).
  EXPECT_NEAR(*hours / 2.0, 700.0, 1e-9);
}

TEST(BreakEven, electricityAndResaleMoveTheBreakEven) {
  // Hand-computed: capex 700, residual 0.25 -> 525 fixed; maintenance 0.
  // Owned hour: 0.350 kW x 0.20 x 1.0 = 0.07; rented hour 0.50 -> saving 0.43 per hour.
  // 525 / 0.43 = 1220.93 h.
  auto own = buy(700);
  own.residual_fraction = 0.25;
  const auto hours = break_even_hours(own, rent(0.50), SiteInputs{0.20, 1.0}, finance(24, 0.1));
  ASSERT_TRUE(hours.has_value());
  EXPECT_NEAR(*hours, 525.0 / 0.43, 1e-9);
}

TEST(BreakEven, neverWhenAnHourOfPowerCostsMoreThanAnHourOfRent) {
  // 0.350 kW x 2.0 per kWh = 0.70 per hour owned > 0.50 rented.
  const auto hours = break_even_hours(buy(700), rent(0.50), SiteInputs{2.0, 1.0}, finance(24, 0));
  EXPECT_FALSE(hours.has_value());
}

TEST(CashFlow, electricityOfA450WCardEightHoursADay) {
  // DOMAIN E3: 450 W x 8 h/day = 3.6 kWh/day; at $0.20/kWh about $263 per year.
  auto own = buy(1600);
  own.device.board_power_w = 450;
  WorkloadInputs w;
  w.hours_per_day = 8;
  w.days_per_month = 365.0 / 12.0;
  const auto cf = option_cash_flow(own, w, SiteInputs{0.20, 1.0}, finance(12, 0));
  double energy_year = 0;
  for (double e : cf.energy) energy_year += e;
  EXPECT_NEAR(energy_year, 3.6 * 365 * 0.20, 1e-9);  // 262.80
  EXPECT_NEAR(energy_year, 263.0, 0.5);
}

TEST(CashFlow, buyTimingCapexAtStartResaleAtHorizon) {
  // Hand-computed: 2 x 700 + 300 host = 1700 capex; maintenance 6 %/year = 8.50 per month;
  // energy (2 x 350 + 150) W = 0.85 kW x 10 h x 30 d x 0.25 x 1.2 = 76.50 per month;
  // resale 20 % = -340 at month 6.
  auto own = buy(700, 2);
  own.host_cost = 300;
  own.host_power_w = 150;
  own.maintenance_per_year = 0.06;
  own.residual_fraction = 0.20;
  WorkloadInputs w;
  w.hours_per_day = 10;
  w.days_per_month = 30;
  const auto cf = option_cash_flow(own, w, SiteInputs{0.25, 1.2}, finance(6, 0));
  ASSERT_EQ(cf.total.size(), 7u);
  EXPECT_DOUBLE_EQ(cf.capex[0], 1700);
  EXPECT_DOUBLE_EQ(cf.energy[0], 0);
  EXPECT_NEAR(cf.energy[1], 76.5, 1e-9);
  EXPECT_NEAR(cf.maintenance[6], 8.5, 1e-9);
  EXPECT_NEAR(cf.resale[6], -340, 1e-9);
  EXPECT_NEAR(cf.cumulative[6], 1700 + 6 * (76.5 + 8.5) - 340, 1e-9);  // 1870
}

TEST(CashFlow, zeroDiscountRateMakesNpvEqualTheTotal) {
  WorkloadInputs w;
  const auto cf = option_cash_flow(rent(2.0, 4), w, SiteInputs{0.3, 1.4}, finance(36, 0));
  double total = 0, npv = 0;
  for (size_t m = 0; m < cf.total.size(); ++m) {
    total += cf.total[m];
    npv += cf.discounted[m];
  }
  EXPECT_DOUBLE_EQ(npv, total);
}

TEST(CashFlow, monthlyDiscountingMatchesSpreadsheetNpv) {
  // A private server at 100 per month for 12 months, setup fee 50, 12 % a year.
  // Monthly rate r = 1.12^(1/12) - 1 = 0.00948879293...; spreadsheet:
  // =50 + NPV(r, 100 x 12 months) = 50 + 100 x (1 - (1+r)^-12) / r = 50 + 1129.1516 = 1179.1516
  OptionInputs server;
  server.id = "server";
  server.kind = OptionKind::rent_monthly;
  server.device = rtx3090();
  server.price_per_month = 100;
  server.setup_fee = 50;
  WorkloadInputs w;
  const auto cf = option_cash_flow(server, w, SiteInputs{0, 1}, finance(12, 0.12));
  double npv = 0;
  for (double d : cf.discounted) npv += d;
  const double r = std::pow(1.12, 1.0 / 12.0) - 1.0;
  const double expected = 50 + 100 * (1 - std::pow(1 + r, -12)) / r;
  EXPECT_NEAR(npv, expected, 1e-9);
  EXPECT_NEAR(npv, 1179.1516, 1e-3);
  EXPECT_NEAR(cf.discount_factor[12], 1 / 1.12, 1e-12);
}

TEST(CashFlow, hourlyRentIsRateTimesDevicesTimesHours) {
  // 4 x 2.49 per GPU-hour x 8 h x 21 days = 1673.28 per month.
  WorkloadInputs w;
  w.hours_per_day = 8;
  w.days_per_month = 21;
  const auto cf = option_cash_flow(rent(2.49, 4), w, SiteInputs{0, 1}, finance(3, 0));
  EXPECT_DOUBLE_EQ(cf.rent[0], 0);
  EXPECT_NEAR(cf.rent[1], 1673.28, 1e-9);
  EXPECT_NEAR(cf.cumulative[3], 3 * 1673.28, 1e-9);
}

TEST(AnnualCosts, startBelongsToYearOneAndPartialYearsAreKept) {
  auto own = buy(1000);
  own.maintenance_per_year = 0.12;  // 10 per month
  WorkloadInputs w;
  w.hours_per_day = 0;
  const auto cf = option_cash_flow(own, w, SiteInputs{0, 1}, finance(18, 0));
  const auto years = annual_costs(cf);
  ASSERT_EQ(years.size(), 2u);
  EXPECT_NEAR(years[0], 1000 + 12 * 10, 1e-9);
  EXPECT_NEAR(years[1], 6 * 10, 1e-9);
}

TEST(BreakEvenMonth, firstMonthCumulativeOwningIsNotAboveRenting) {
  // Own: 1000 at the start, nothing after. Rent: 300 per month -> 300, 600, 900, 1200.
  WorkloadInputs w;
  w.hours_per_day = 10;
  w.days_per_month = 30;  // 300 h per month
  const auto own = option_cash_flow(buy(1000), w, SiteInputs{0, 1}, finance(6, 0));
  const auto rented = option_cash_flow(rent(1.0), w, SiteInputs{0, 1}, finance(6, 0));
  const auto month = break_even_month(own, rented);
  ASSERT_TRUE(month.has_value());
  EXPECT_EQ(*month, 4);
  const auto cheap_rent = option_cash_flow(rent(0.01), w, SiteInputs{0, 1}, finance(6, 0));
  EXPECT_FALSE(break_even_month(own, cheap_rent).has_value());
}

TEST(CashFlow, doublingEveryPriceDoublesEveryCost) {
  auto own = buy(700, 2);
  own.host_cost = 500;
  own.maintenance_per_year = 0.05;
  own.residual_fraction = 0.3;
  WorkloadInputs w;
  const auto base = option_cash_flow(own, w, SiteInputs{0.2, 1.3}, finance(24, 0.07));
  own.price_per_gpu *= 2;
  own.host_cost *= 2;
  const auto doubled = option_cash_flow(own, w, SiteInputs{0.4, 1.3}, finance(24, 0.07));
  for (size_t m = 0; m < base.total.size(); ++m) {
    EXPECT_NEAR(doubled.total[m], 2 * base.total[m], 1e-9) << "month " << m;
  }
}

}  // namespace
}  // namespace gputco
