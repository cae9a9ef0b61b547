// What the workbook's live break-even formulas rest on (issue #15): the part of a month's
// total that scales with the hours of use, and the output tokens served month by month.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

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

OptionInputs owned_rig() {
  OptionInputs o;
  o.id = "rig";
  o.kind = OptionKind::buy;
  o.device = rtx3090();
  o.count = 4;
  o.price_per_gpu = 644.50;
  o.host_cost = 1500;
  o.host_power_w = 200;
  o.residual_fraction = 0.25;
  o.maintenance_per_year = 0.05;
  o.capacity_tokens_per_hour = 56160;  // 15.6 tokens/s x 3600
  return o;
}

OptionInputs hourly_rental() {
  OptionInputs o;
  o.id = "h100";
  o.kind = OptionKind::rent_hourly;
  o.device = rtx3090();
  o.device.board_power_w = 700;
  o.rate_per_gpu_hour = 2.31;
  o.capacity_tokens_per_hour = 103320;
  return o;
}

struct Case {
  WorkloadInputs workload;
  SiteInputs site;
  FinanceInputs finance;
};

/// The README's worked example: 10 h/day on 21 days a month, 36 months, 0.1983 EUR/kWh.
Case worked_example() {
  Case c;
  c.workload.hours_per_day = 10;
  c.workload.days_per_month = 21;
  c.site.tariff_per_kwh = 0.1983;
  c.site.pue = 1.0;
  c.finance.horizon_months = 36;
  c.finance.discount_rate_per_year = 0.08;
  return c;
}

double sum(const std::vector<double>& xs) {
  return std::accumulate(xs.begin(), xs.end(), 0.0);
}

TEST(HoursScaledCost, anOwnedRigSwitchedOffScalesWithItsEnergyOnly) {
  // README worked example: (4 x 350 W + 200 W) x 10 h x 21 days = 336 kWh a month x 0.1983
  // = 66.6288 EUR a month, all of it proportional to the hours; capex, maintenance and resale
  // do not move with them.
  const Case c = worked_example();
  const OptionInputs rig = owned_rig();
  const CashFlow cf = option_cash_flow(rig, c.workload, c.site, c.finance);
  const auto scaled = hours_scaled_costs(rig, c.workload, c.site, c.finance, cf);
  ASSERT_EQ(scaled.size(), 37u);
  EXPECT_EQ(scaled[0], 0.0);
  for (size_t m = 1; m <= 36; ++m) {
    EXPECT_NEAR(scaled[m], 336 * 0.1983, 1e-9) << "month " << m;
  }
}

TEST(HoursScaledCost, anIdlingRigScalesWithItsEnergyAtLoadLessTheIdleHoursItReplaces) {
  // Stays on: idle 150 W. An hour of use draws 1.6 kW instead of 0.15 kW: 1.45 kWh x 0.1983
  // = 0.287535 EUR more per hour; 210 hours a month = 60.38235 EUR a month that scales.
  const Case c = worked_example();
  OptionInputs rig = owned_rig();
  rig.powered_off_when_idle = false;
  rig.idle_power_w = 150;
  const CashFlow cf = option_cash_flow(rig, c.workload, c.site, c.finance);
  const auto scaled = hours_scaled_costs(rig, c.workload, c.site, c.finance, cf);
  for (size_t m = 1; m <= 36; ++m) {
    EXPECT_NEAR(scaled[m], 1.45 * 210 * 0.1983, 1e-9) << "month " << m;
  }
}

TEST(HoursScaledCost, anHourlyRentalScalesWhollyAndAReservedOneNotAtAll) {
  // On demand: 2.31 x 210 h = 485.10 a month, all of it. Reserved: every hour of the month is
  // billed whatever the use, so nothing scales.
  const Case c = worked_example();
  const OptionInputs rental = hourly_rental();
  const CashFlow cf = option_cash_flow(rental, c.workload, c.site, c.finance);
  const auto scaled = hours_scaled_costs(rental, c.workload, c.site, c.finance, cf);
  for (size_t m = 1; m <= 36; ++m) EXPECT_NEAR(scaled[m], 2.31 * 210, 1e-9) << "month " << m;
  OptionInputs reserved = rental;
  reserved.term = RentTerm::reserved_1y;
  const CashFlow reserved_cf = option_cash_flow(reserved, c.workload, c.site, c.finance);
  for (double x : hours_scaled_costs(reserved, c.workload, c.site, c.finance, reserved_cf)) {
    EXPECT_NEAR(x, 0.0, 1e-9);
  }
}

TEST(HoursScaledCost, theTotalAtOtherHoursIsTheFixedPartPlusTheScaledPartInProportion) {
  // The property the workbook's break-even formula uses: total(h) = (T - W) + W x h / h0 for
  // 0 < h <= 24, with a demand in tokens, growth (units added), idle power and VAT.
  Case c = worked_example();
  c.workload.tokens_per_day = 900000;
  c.workload.growth_per_month = 0.05;
  c.finance.vat_rate = 0.19;
  c.finance.vat_reclaimable = false;
  OptionInputs rig = owned_rig();
  rig.powered_off_when_idle = false;
  rig.idle_power_w = 150;
  for (const OptionInputs& option : {rig, hourly_rental()}) {
    const CashFlow cf = option_cash_flow(option, c.workload, c.site, c.finance);
    const double total = sum(cf.total);
    const double scaled = sum(hours_scaled_costs(option, c.workload, c.site, c.finance, cf));
    EXPECT_GT(scaled, 0.0) << option.id;
    for (double h : {0.5, 3.0, 7.5, 17.0, 24.0}) {
      const CashFlow at =
          option_cash_flow(option, at_hours_per_day(c.workload, h), c.site, c.finance);
      const double expected = total - scaled + scaled * h / c.workload.hours_per_day;
      EXPECT_NEAR(sum(at.total), expected, 1e-9 * std::abs(expected)) << option.id << " " << h;
    }
  }
}

TEST(HoursScaledCost, noHoursOfUseScaleNothing) {
  Case c = worked_example();
  c.workload.hours_per_day = 0;
  const OptionInputs rig = owned_rig();
  const CashFlow cf = option_cash_flow(rig, c.workload, c.site, c.finance);
  for (double x : hours_scaled_costs(rig, c.workload, c.site, c.finance, cf)) EXPECT_EQ(x, 0.0);
}

TEST(TokensServed, theMonthsAddUpToTheTokensOfTheCostPerMillion) {
  // 480,000 output tokens a day x 21 days = 10.08 M a month; 36 months: 362.88 M (the README's
  // 30-person example). Cost per million = total / 362.88.
  PlanInputs in;
  in.model.id = "m";
  in.model.params_b = 8;
  in.model.active_params_b = 8;
  in.model.layers = 32;
  in.model.hidden = 4096;
  in.model.heads = 32;
  in.model.kv_heads = 8;
  in.model.head_dim = 128;
  in.model.max_context = 8192;
  in.model.vocab_size = 128256;
  in.quant.id = "Q4_K_M";
  in.quant.bits_per_weight = 4.89;
  const Case c = worked_example();
  in.workload = c.workload;
  in.workload.context_tokens = 4096;
  in.workload.tokens_per_day = 480000;
  in.site = c.site;
  in.finance = c.finance;
  in.options = {hourly_rental()};
  const Plan plan = make_plan(in);
  const OptionResult& r = plan.options.front();
  ASSERT_EQ(r.tokens_served.size(), 37u);
  EXPECT_EQ(r.tokens_served[0], 0.0);
  for (size_t m = 1; m <= 36; ++m) EXPECT_NEAR(r.tokens_served[m], 480000.0 * 21, 1e-6);
  ASSERT_TRUE(r.cost_per_million_tokens);
  EXPECT_NEAR(*r.cost_per_million_tokens, r.total_cost / 362.88, 1e-9 * r.total_cost);
}

}  // namespace
}  // namespace gputco
