// A blend's energy and CO2e include its rented overflow (issue #21 finding H1), computed as
// the overflow rental computes its own (engine/money/energy.cpp energy_rows, billed by use): busy
// instance-hours / goodput x the rented device's power x its PUE, at its grid intensity.
// Hand-computed cases.
#include <gtest/gtest.h>

#include "engine/money/cash_flow.hpp"
#include "engine/money/energy.hpp"
#include "engine/plan/plan.hpp"
#include "tests/unit/engine_blend_fixture.hpp"

namespace gputco {
namespace {

/// 10 h a day, 30 days a month (300 h of use), 15e6 output tokens a day, one month: one owned
/// unit of 1e6 tokens/h carries load 15e6 / (1e6 x 10) = 1.5, so 0.5 is left over. The
/// rental is twice as fast (2e6 tokens/h): 0.5 x 1e6 / 2e6 = 0.25 instances busy each hour of
/// use. Owned: 400 W board + 100 W host at the site's PUE 1.0 and 300 g/kWh; rented: 2 x
/// 700 W at PUE 1.5, goodput 0.8, 500 g/kWh.
PlanInputs blend() {
  PlanInputs in = test::blend_plan(15e6, 1);
  in.site.pue = 1.0;
  in.site.grid_g_co2e_per_kwh = 300;
  OptionInputs own = test::owned_renting_overflow();
  own.device.board_power_w = 400;
  own.host_power_w = 100;
  OptionInputs rent = test::overflow_rental("big-card", 2e6);
  rent.device.board_power_w = 700;
  rent.count = 2;
  rent.goodput = 0.8;
  rent.pue = 1.5;
  rent.grid_g_co2e_per_kwh = 500;
  in.options = {own, rent};
  prepare_plan_inputs(in);  // links the overflow: its power, goodput, PUE and intensity
  return in;
}

/// The owned option's result as make_plan fills its energy and carbon: its cash flow, then
/// energy_and_carbon (`tokens` = 300 h x 1.5e6 tokens/h = 4.5e8 output tokens).
OptionResult owned_result(const PlanInputs& in) {
  OptionResult r;
  r.id = in.options[0].id;
  r.feasible = true;
  r.cash_flow = option_cash_flow(in.options[0], in.workload, in.site, in.finance);
  energy_and_carbon(in.options[0], in.site, 4.5e8, r);
  return r;
}

TEST(OverflowEnergy, theRentalsFiguresAreLinked) {
  const PlanInputs in = blend();
  const OptionInputs& own = in.options[0];
  EXPECT_EQ(own.overflow_device_id, "big-card");
  EXPECT_DOUBLE_EQ(own.overflow_power_w, 1400.0);  // 2 x 700 W
  EXPECT_DOUBLE_EQ(own.overflow_goodput, 0.8);
  EXPECT_DOUBLE_EQ(own.overflow_pue, 1.5);
  EXPECT_EQ(own.overflow_grid_g_co2e_per_kwh, std::optional<double>(500.0));
}

TEST(OverflowEnergy, theBlendsRowsAddTheOverflowAtTheRentalsPowerPueAndIntensity) {
  const PlanInputs in = blend();
  const CashFlow cf = option_cash_flow(in.options[0], in.workload, in.site, in.finance);
  // Owned: the unit serves 1 of the 1.5 load: 1 x 0.5 kW x 300 h x PUE 1.0 = 150 kWh,
  // x 300 g = 45 kg.
  // Overflow: 0.5 load x 0.5 instances per load = 0.25 instances x 300 h = 75 instance-hours
  // / goodput 0.8 = 93.75 x 1.4 kW x PUE 1.5 = 196.875 kWh, x 500 g = 98.4375 kg.
  EXPECT_NEAR(cf.overflow_load[1], 0.5, 1e-12);
  EXPECT_NEAR(cf.overflow_kwh[1], 196.875, 1e-9);
  EXPECT_NEAR(cf.overflow_co2e_kg[1], 98.4375, 1e-9);
  EXPECT_NEAR(cf.energy_kwh[1], 150.0 + 196.875, 1e-9);
  EXPECT_NEAR(cf.co2e_kg[1], 45.0 + 98.4375, 1e-9);
}

TEST(OverflowEnergy, theOverflowPartEqualsWhatTheRentalComputesForTheSameLoad) {
  // The rental carrying the same 0.25 instances (0.5 x 1e6 x 10 = 5e6 tokens a day) on its
  // own: its energy row is the blend's overflow row.
  PlanInputs in = blend();
  const CashFlow blend_cf = option_cash_flow(in.options[0], in.workload, in.site, in.finance);
  in.workload.tokens_per_day = 5e6;
  prepare_plan_inputs(in);
  const CashFlow rent_cf = option_cash_flow(in.options[1], in.workload, in.site, in.finance);
  EXPECT_NEAR(rent_cf.load[1], 0.25, 1e-12);
  EXPECT_NEAR(rent_cf.energy_kwh[1], blend_cf.overflow_kwh[1], 1e-9);
  EXPECT_NEAR(rent_cf.co2e_kg[1], blend_cf.overflow_co2e_kg[1], 1e-9);
}

TEST(OverflowEnergy, anAlwaysOnOverflowIdlesThroughTheHoursItIsBilledFor) {
  // The rental idles at 2 x 70 W. Always on (the default), the overflow is billed 1 instance
  // (0.25 rounded up) x 300 h of availability, 75 of them busy: 225 idle instance-hours /
  // goodput 0.8 x 0.14 kW x PUE 1.5 = 59.0625 kWh on top of the 196.875 busy (above), as the
  // rental carrying the same load alone counts its own.
  PlanInputs in = blend();
  in.options[1].idle_power_w = 140;
  prepare_plan_inputs(in);
  EXPECT_DOUBLE_EQ(in.options[0].overflow_idle_power_w, 140.0);
  const CashFlow blend_cf = option_cash_flow(in.options[0], in.workload, in.site, in.finance);
  EXPECT_NEAR(blend_cf.overflow_kwh[1], 196.875 + 59.0625, 1e-9);
  in.workload.tokens_per_day = 5e6;
  prepare_plan_inputs(in);
  const CashFlow rent_cf = option_cash_flow(in.options[1], in.workload, in.site, in.finance);
  EXPECT_NEAR(rent_cf.energy_kwh[1], blend_cf.overflow_kwh[1], 1e-9);
}

TEST(OverflowEnergy, thePlansTotalsIncludeTheOverflowAndSplitIt) {
  const OptionResult own = owned_result(blend());
  ASSERT_TRUE(own.energy_kwh_total && own.co2e_kg_total && own.overflow_energy);
  EXPECT_NEAR(*own.energy_kwh_total, 346.875, 1e-9);  // 150 + 196.875 (above)
  EXPECT_NEAR(*own.co2e_kg_total, 143.4375, 1e-9);    // 45 + 98.4375
  EXPECT_EQ(own.overflow_energy->option_id, "rent");
  EXPECT_NEAR(own.overflow_energy->owned_kwh, 150.0, 1e-9);
  EXPECT_NEAR(own.overflow_energy->overflow_kwh, 196.875, 1e-9);
  EXPECT_NEAR(*own.overflow_energy->owned_co2e_kg, 45.0, 1e-9);
  EXPECT_NEAR(*own.overflow_energy->overflow_co2e_kg, 98.4375, 1e-9);
  EXPECT_EQ(own.overflow_energy->overflow_grid_g_co2e_per_kwh, std::optional<double>(500.0));
  // 143.4375 kg / 4.5e8 tokens x 1e6 = 0.31875 kg per million tokens.
  EXPECT_NEAR(*own.co2e_kg_per_million_tokens, 0.31875, 1e-12);
  // The rental itself carries no split.
  OptionResult rental;
  const PlanInputs in = blend();
  rental.cash_flow = option_cash_flow(in.options[1], in.workload, in.site, in.finance);
  energy_and_carbon(in.options[1], in.site, 4.5e8, rental);
  EXPECT_FALSE(rental.overflow_energy);
}

TEST(OverflowEnergy, anUnknownRentalIntensityMakesTheBlendsCo2eUnknownNotAGuess) {
  PlanInputs in = blend();
  in.options[1].grid_g_co2e_per_kwh = std::nullopt;
  in.options[1].carbon_unknown_reason =
      "unknown: the catalog has no grid carbon intensity for the provider's region 'global'";
  prepare_plan_inputs(in);
  const OptionResult own = owned_result(in);
  ASSERT_TRUE(own.energy_kwh_total);
  EXPECT_NEAR(*own.energy_kwh_total, 346.875, 1e-9);  // the energy is known
  EXPECT_FALSE(own.co2e_kg_total);
  EXPECT_FALSE(own.co2e_kg_per_million_tokens);
  EXPECT_EQ(own.co2e_unknown_reason,
            "unknown: the overflow rented from rent (197 kWh) has no carbon intensity: the "
            "catalog has no grid carbon intensity for the provider's region 'global'; the "
            "owned units alone: 0.045 t");
  ASSERT_TRUE(own.overflow_energy);
  EXPECT_FALSE(own.overflow_energy->overflow_co2e_kg);
  EXPECT_NEAR(*own.overflow_energy->owned_co2e_kg, 45.0, 1e-9);
}

TEST(OverflowEnergy, noOverflowRentedCostsNoCarbonEvenWithAnUnknownIntensity) {
  // 8e6 tokens a day: load 0.8 on one unit, nothing left over: 0 kWh rented, CO2e known.
  PlanInputs in = blend();
  in.workload.tokens_per_day = 8e6;
  in.options[1].grid_g_co2e_per_kwh = std::nullopt;
  prepare_plan_inputs(in);
  const OptionResult own = owned_result(in);
  ASSERT_TRUE(own.co2e_kg_total && own.overflow_energy);
  EXPECT_DOUBLE_EQ(own.overflow_energy->overflow_kwh, 0.0);
  // 0.8 x 0.5 kW x 300 h x 1.0 = 120 kWh x 300 g = 36 kg.
  EXPECT_NEAR(*own.co2e_kg_total, 36.0, 1e-9);
}

TEST(OverflowEnergy, anUnknownRentalBoardPowerMakesTheBlendsEnergyUnknown) {
  PlanInputs in = blend();
  in.options[1].device.board_power_w = 0;
  prepare_plan_inputs(in);
  const OptionResult own = owned_result(in);
  EXPECT_FALSE(own.energy_kwh_total);
  EXPECT_FALSE(own.co2e_kg_total);
  EXPECT_EQ(own.energy_unknown_reason,
            "unknown: the catalog has no board power for big-card, the device of the overflow "
            "rental rent");
}

}  // namespace
}  // namespace gputco
