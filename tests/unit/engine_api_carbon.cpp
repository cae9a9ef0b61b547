// Pay-per-token API options, energy and carbon per option, and the break-even volume
// (issue #8): hand-computed values.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "engine/base/error.hpp"
#include "engine/plan/plan.hpp"
#include "engine/plan/sensitivity.hpp"
#include "tests/unit/engine_sensitivity_fixture.hpp"

namespace gputco {
namespace {

double sum(const std::vector<double>& row) {
  return std::accumulate(row.begin(), row.end(), 0.0);
}

Device card(double board_power_w) {
  Device d;
  d.id = "card";
  d.name = "Card";
  d.memory_nameplate_gb = 24;
  d.bandwidth_gbps = 936;
  d.board_power_w = board_power_w;
  return d;
}

OptionInputs api_option(double input_per_million, double output_per_million) {
  OptionInputs o;
  o.id = "api";
  o.kind = OptionKind::api;
  o.api_model = "hosted-70b";
  o.input_price_per_million = input_per_million;
  o.output_price_per_million = output_per_million;
  return o;
}

/// 100,000 output tokens a day, 4 prompt tokens per output token (500 requests of 800 prompt
/// and 200 output tokens), 20 days of use a month, 8 h a day.
WorkloadInputs token_mix() {
  WorkloadInputs w;
  w.hours_per_day = 8;
  w.days_per_month = 20;
  w.tokens_per_day = 100'000;
  w.input_tokens_per_output_token = 4;
  w.requests_per_day = 500;
  return w;
}

/// An on-demand rental "rent" of one 350 W card at 1.00 a device-hour, idling at 35 W.
OptionInputs rented_card() {
  OptionInputs rent;
  rent.id = "rent";
  rent.kind = OptionKind::rent_hourly;
  rent.device = card(350);
  rent.rate_per_gpu_hour = 1;
  rent.idle_power_w = 35;
  return rent;
}

FinanceInputs months(int n) {
  FinanceInputs f;
  f.horizon_months = n;
  f.discount_rate_per_year = 0;
  f.currency = "EUR";
  return f;
}

TEST(ApiCashFlow, feesAreTheTokenMixTimesThePrices) {
  // Input 100,000 x 4 = 400,000 tokens/day at 3.00 per million = 1.20; output 100,000 at
  // 15.00 per million = 1.50; 2.70 a day x 20 days = 54.00 a month, 648.00 over 12 months.
  const auto cf = option_cash_flow(api_option(3.0, 15.0), token_mix(), SiteInputs{}, months(12));
  EXPECT_DOUBLE_EQ(cf.rent[0], 0.0);
  for (size_t m = 1; m <= 12; ++m) EXPECT_NEAR(cf.rent[m], 54.0, 1e-9) << "month " << m;
  EXPECT_NEAR(sum(cf.total), 648.0, 1e-9);
  EXPECT_DOUBLE_EQ(sum(cf.capex) + sum(cf.energy) + sum(cf.energy_kwh) + sum(cf.co2e_kg), 0.0);
}

TEST(ApiCashFlow, priceTrendGrowthAndVatApplyLikeOtherOptions) {
  // Trend -20 %/year: month 13 pays 54.00 x 0.8 = 43.20. Growth 10 %/month: month 2 pays
  // 54.00 x 1.1 = 59.40. VAT 21 % not reclaimable: 0.21 x 54.00 = 11.34 in month 1.
  auto f = months(24);
  f.api_price_trend_per_year = -0.2;
  auto cf = option_cash_flow(api_option(3.0, 15.0), token_mix(), SiteInputs{}, f);
  EXPECT_NEAR(cf.rent[1], 54.0, 1e-9);
  EXPECT_NEAR(cf.rent[13], 43.2, 1e-9);

  auto w = token_mix();
  w.growth_per_month = 0.1;
  cf = option_cash_flow(api_option(3.0, 15.0), w, SiteInputs{}, months(2));
  EXPECT_NEAR(cf.rent[2], 59.4, 1e-9);

  auto vat = months(1);
  vat.vat_rate = 0.21;
  vat.vat_reclaimable = false;
  cf = option_cash_flow(api_option(3.0, 15.0), token_mix(), SiteInputs{}, vat);
  EXPECT_NEAR(cf.vat[1], 11.34, 1e-9);
  EXPECT_NEAR(cf.total[1], 65.34, 1e-9);
}

TEST(ApiCashFlow, feesDoNotDependOnHoursPerDayAtAFixedVolume) {
  auto w = token_mix();
  const auto at8 = option_cash_flow(api_option(3.0, 15.0), w, SiteInputs{}, months(3));
  w.hours_per_day = 2;
  const auto at2 = option_cash_flow(api_option(3.0, 15.0), w, SiteInputs{}, months(3));
  EXPECT_EQ(at8.total, at2.total);
  // The crossover sweep moves the volume with the hours (at_hours_per_day): 4 h is half.
  const auto half = option_cash_flow(api_option(3.0, 15.0), at_hours_per_day(token_mix(), 4),
                                     SiteInputs{}, months(3));
  EXPECT_NEAR(sum(half.total), 0.5 * sum(at8.total), 1e-9);
}

TEST(Energy, a450WCardEightHoursADayAtAStatedIntensity) {
  // DOMAIN E3: 450 W x 8 h/day = 3.6 kWh/day; 365 days = 1,314 kWh a year. At 300 g CO2e/kWh:
  // 1,314 x 300 / 1000 = 394.2 kg CO2e. The money at 0.20/kWh: 262.80 (unchanged).
  OptionInputs own;
  own.id = "own";
  own.device = card(450);
  own.price_per_gpu = 1600;
  WorkloadInputs w;
  w.hours_per_day = 8;
  w.days_per_month = 365.0 / 12.0;
  SiteInputs site{0.20, 1.0};
  site.grid_g_co2e_per_kwh = 300;
  const auto cf = option_cash_flow(own, w, site, months(12));
  EXPECT_NEAR(sum(cf.energy_kwh), 1314.0, 1e-9);
  EXPECT_DOUBLE_EQ(sum(cf.idle_kwh), 0.0);  // powered off when idle: the default
  EXPECT_NEAR(sum(cf.co2e_kg), 394.2, 1e-9);
  EXPECT_NEAR(sum(cf.energy), 262.8, 1e-9);
}

TEST(Energy, idlePowerWhenTheRigStaysOnAndPue) {
  // On all month (730 h): idle hours = 730 - 8 x 365/12 = 486.667 h a month at 30 W =
  // 14.6 kWh; x PUE 1.2 = 17.52 kWh a month, 210.24 kWh a year. Load: 1,314 x 1.2 = 1,576.8.
  // Money at 0.20/kWh: (1,576.8 + 210.24) x 0.20 = 357.408. CO2e at 300 g: 536.112 kg.
  OptionInputs own;
  own.id = "own";
  own.device = card(450);
  own.idle_power_w = 30;
  own.powered_off_when_idle = false;
  WorkloadInputs w;
  w.hours_per_day = 8;
  w.days_per_month = 365.0 / 12.0;
  SiteInputs site{0.20, 1.2};
  site.grid_g_co2e_per_kwh = 300;
  const auto cf = option_cash_flow(own, w, site, months(12));
  EXPECT_NEAR(cf.idle_kwh[1], 17.52, 1e-9);
  EXPECT_NEAR(sum(cf.idle_kwh), 210.24, 1e-9);
  EXPECT_NEAR(sum(cf.energy_kwh), 1576.8 + 210.24, 1e-9);
  EXPECT_NEAR(sum(cf.energy), 357.408, 1e-9);
  EXPECT_NEAR(sum(cf.co2e_kg), 536.112, 1e-9);
}

TEST(Energy, rentalsAtTheDataCentrePueAndUnknownIntensity) {
  // On demand: 350 W x 8 h x 20 days = 56 kWh a month of device energy, x 1.58 (default data
  // centre PUE) = 88.48 kWh. Reserved (billed all month): the same load part plus idle
  // (730 - 160) h x 35 W x 1.58 = 31.521 kWh.
  OptionInputs rent = rented_card();
  WorkloadInputs w = token_mix();
  w.tokens_per_day.reset();
  auto cf = option_cash_flow(rent, w, SiteInputs{}, months(1));
  EXPECT_NEAR(cf.energy_kwh[1], 88.48, 1e-9);
  EXPECT_DOUBLE_EQ(cf.energy[1], 0.0);  // the energy is paid in the rent
  EXPECT_DOUBLE_EQ(cf.co2e_kg[1], 0.0);
  rent.term = RentTerm::reserved_1y;
  cf = option_cash_flow(rent, w, SiteInputs{}, months(1));
  EXPECT_NEAR(cf.idle_kwh[1], 570 * 0.035 * 1.58, 1e-9);
  EXPECT_NEAR(cf.energy_kwh[1], 88.48 + 31.521, 1e-9);
}

TEST(Energy, anOwnedUnitSwitchedOffOutsideTheHoursOfUseIdlesThroughThem) {
  // newcomer6 H1: switched off outside the hours of use (the default), a unit is still on
  // through them. Load 0.25 (100,000 tokens/day / (50,000 tokens/h x 8 h)), 160 h of use a
  // month (8 h x 20 days). Load: 0.25 x 450 W x 160 h = 18 kWh; idle: (1 x 160 - 0.25 x 160)
  // = 120 h x 30 W = 3.6 kWh. Money at 0.20/kWh: 21.6 x 0.20 = 4.32 a month.
  OptionInputs own;
  own.id = "own";
  own.device = card(450);
  own.capacity_tokens_per_hour = 50'000;
  own.idle_power_w = 30;
  SiteInputs site{0.20, 1.0};
  auto cf = option_cash_flow(own, token_mix(), site, months(1));
  EXPECT_NEAR(cf.idle_kwh[1], 3.6, 1e-9);
  EXPECT_NEAR(cf.energy_kwh[1], 21.6, 1e-9);
  EXPECT_NEAR(cf.energy[1], 4.32, 1e-9);
  // Left on all month (730 h): idle (730 - 40) h x 30 W = 20.7 kWh.
  own.powered_off_when_idle = false;
  cf = option_cash_flow(own, token_mix(), site, months(1));
  EXPECT_NEAR(cf.idle_kwh[1], 20.7, 1e-9);
  EXPECT_NEAR(cf.energy[1], (18 + 20.7) * 0.20, 1e-9);
}

TEST(Energy, anAlwaysOnRentalIdlesThroughTheHoursItIsBilledFor) {
  // Issue #21: an always-on rental is billed 1 instance x 160 h of availability; busy 0.25 x
  // 160 = 40 h. Load: 0.35 kW x 40 h x 1.58 = 22.12 kWh; idle: 120 h x 35 W x 1.58 = 6.636
  // kWh. Autoscaled without a minimum runs ceil(0.25) = 1 whole instance for the 8 h of use
  // (issue #43: the load is hourly), 20 days x 8 h = 160 h, 120 of them idle: the same bill
  // and energy; with min_instances = 1 as well.
  OptionInputs rent = rented_card();
  rent.capacity_tokens_per_hour = 50'000;
  auto cf = option_cash_flow(rent, token_mix(), SiteInputs{}, months(1));
  EXPECT_NEAR(cf.rent[1], 160, 1e-9);
  EXPECT_NEAR(cf.idle_kwh[1], 6.636, 1e-9);
  EXPECT_NEAR(cf.energy_kwh[1], 22.12 + 6.636, 1e-9);
  rent.hourly_billing.billing = Billing::autoscaled;
  cf = option_cash_flow(rent, token_mix(), SiteInputs{}, months(1));
  EXPECT_NEAR(cf.rent[1], 160, 1e-9);
  EXPECT_NEAR(cf.idle_kwh[1], 6.636, 1e-9);
  EXPECT_NEAR(cf.energy_kwh[1], 22.12 + 6.636, 1e-9);
  rent.hourly_billing.min_instances = 1;
  cf = option_cash_flow(rent, token_mix(), SiteInputs{}, months(1));
  EXPECT_NEAR(cf.idle_kwh[1], 6.636, 1e-9);
}

TEST(BreakEvenVolume, ownedRigAgainstTheApi) {
  // One unit serves 36,000 tokens/hour; 10 h/day x 30 days; 12 months; capex 1000.
  // API: 10 per million output tokens, no input tokens: 12 x 30 x t x 10 / 1e6 = 0.0036 t.
  // Energy: load t / 360,000 x 0.35 kW x 0.20 x 300 h x 12 = 0.0007 t.
  // 1000 + 0.0007 t = 0.0036 t  ->  t = 1000 / 0.0029 = 344,827.6 tokens/day (< 360,000).
  OptionInputs own;
  own.id = "own";
  own.device = card(350);
  own.price_per_gpu = 1000;
  own.capacity_tokens_per_hour = 36'000;
  WorkloadInputs w;
  w.hours_per_day = 10;
  w.days_per_month = 30;
  w.tokens_per_day = 100'000;
  w.input_tokens_per_output_token = 0;
  const SiteInputs site{0.20, 1.0};
  const auto t = break_even_tokens_per_day(own, api_option(0, 10), w, site, months(12));
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(*t, 1000.0 / 0.0029, 1e-3);
  // A cheap API (1 per million) stays cheaper up to one unit's capacity: never.
  EXPECT_FALSE(break_even_tokens_per_day(own, api_option(0, 1), w, site, months(12)));
  // An api option has no break-even against itself.
  EXPECT_FALSE(break_even_tokens_per_day(api_option(0, 1), api_option(0, 1), w, site, months(12)));
}

TEST(BreakEvenVolume, hourlyRentalBilledAlwaysOnBreaksEvenWhereTheApiCostsItsHours) {
  // Always on: 1.00 per hour x 300 h = 300 a month whatever the volume, up to one instance's
  // 36,000 tokens/h x 10 h = 360,000 a day. An API at 10 per million costs 30 days x t x 10e-6
  // = 0.0003 t a month: 108 at most, never 300. At 50 per million, 0.0015 t = 300 at t =
  // 200,000 tokens a day.
  OptionInputs rent;
  rent.id = "rent";
  rent.kind = OptionKind::rent_hourly;
  rent.device = card(350);
  rent.rate_per_gpu_hour = 1;
  rent.capacity_tokens_per_hour = 36'000;
  WorkloadInputs w;
  w.hours_per_day = 10;
  w.days_per_month = 30;
  w.tokens_per_day = 100'000;
  w.input_tokens_per_output_token = 0;
  EXPECT_FALSE(break_even_tokens_per_day(rent, api_option(0, 10), w, SiteInputs{}, months(12)));
  const auto t = break_even_tokens_per_day(rent, api_option(0, 50), w, SiteInputs{}, months(12));
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(*t, 200'000.0, 1e-3);
  // Autoscaled without a minimum: nothing billed at zero volume, one whole instance for the
  // 10 h of use at any volume above it (issue #43: the load is hourly), 300 a month like the
  // always-on bill: the same crossing, 200,000 a day. Both 0 at zero volume, but the API
  // cheaper just above it: not "no dearer from 0".
  rent.hourly_billing.billing = Billing::autoscaled;
  const auto scaled =
      break_even_tokens_per_day(rent, api_option(0, 50), w, SiteInputs{}, months(12));
  ASSERT_TRUE(scaled.has_value());
  EXPECT_NEAR(*scaled, 200'000.0, 1e-3);
}

PlanInputs plan_with_api() {
  PlanInputs in = test::tiny_plan();
  in.workload.tokens_per_day = 100'000;
  in.workload.input_tokens_per_output_token = 4;
  in.workload.requests_per_day = 500;
  auto api = api_option(3.0, 15.0);
  api.tokens_per_minute_limit = 1000;
  api.requests_per_minute_limit = 100;
  in.options.push_back(api);
  in.site.grid_g_co2e_per_kwh = 250;
  return in;
}

TEST(PlanWithApi, everyOptionHasTheSameMetricsAndTheApiIsRecommendable) {
  const Plan plan = make_plan(plan_with_api());
  ASSERT_EQ(plan.options.size(), 3u);
  const auto& api = plan.options[2];
  EXPECT_EQ(api.kind, OptionKind::api);
  EXPECT_TRUE(api.feasible);
  // 2.70 a day x 30 days x 12 months = 972.00; 100,000 x 30 x 12 = 36 M output tokens.
  EXPECT_NEAR(api.total_cost, 972.0, 1e-9);
  ASSERT_TRUE(api.cost_per_million_tokens.has_value());
  EXPECT_NEAR(*api.cost_per_million_tokens, 27.0, 1e-9);
  EXPECT_FALSE(api.energy_kwh_total.has_value());
  EXPECT_FALSE(api.co2e_kg_total.has_value());
  EXPECT_NE(api.co2e_unknown_reason.find("unknown"), std::string::npos);
  EXPECT_EQ(plan.api_reference_option_id, "api");
  // The owned card (capex 1000, free power, one unit far above the demand) against the API's
  // 972 per 100,000 tokens/day: 1000 / 0.00972 = 102,880.66 tokens/day.
  ASSERT_TRUE(plan.options[0].break_even_tokens_per_day.has_value());
  EXPECT_NEAR(*plan.options[0].break_even_tokens_per_day, 1000.0 / 0.00972, 1e-3);
  EXPECT_FALSE(api.break_even_tokens_per_day.has_value());
  // 500,000 tokens over 600 minutes = 833 tokens/min: within 1000. 500 requests / 600 min =
  // 0.83 requests/min: within 100.
  ASSERT_TRUE(api.peak_tokens_per_minute.has_value());
  EXPECT_NEAR(*api.peak_tokens_per_minute, 500'000.0 / 600.0, 1e-9);
  EXPECT_FALSE(api.rate_limit_exceeded);
  // The owned option's emissions at the site's 250 g/kWh; the rental's are unknown.
  const auto& own = plan.options[0];
  ASSERT_TRUE(own.energy_kwh_total && own.co2e_kg_total);
  EXPECT_NEAR(*own.co2e_kg_total, *own.energy_kwh_total * 0.25, 1e-9);
  ASSERT_TRUE(own.co2e_kg_per_million_tokens.has_value());
  EXPECT_NEAR(*own.co2e_kg_per_million_tokens, *own.co2e_kg_total / 36.0, 1e-9);
  EXPECT_TRUE(plan.options[1].energy_kwh_total.has_value());
  EXPECT_FALSE(plan.options[1].co2e_kg_total.has_value());
}

TEST(PlanWithApi, rateLimitExceededIsFlaggedNotRefused) {
  auto in = plan_with_api();
  in.options[2].tokens_per_minute_limit = 500;
  const Plan plan = make_plan(in);
  EXPECT_TRUE(plan.options[2].rate_limit_exceeded);
  EXPECT_NE(plan.options[2].note.find("rate limit"), std::string::npos) << plan.options[2].note;
  EXPECT_TRUE(plan.recommendation.has_value());
}

TEST(PlanWithApi, anApiOptionNeedsAStatedVolume) {
  auto in = plan_with_api();
  in.workload.tokens_per_day.reset();
  EXPECT_THROW(make_plan(in), EngineError);
  in = plan_with_api();
  in.workload.input_tokens_per_output_token.reset();
  EXPECT_THROW(make_plan(in), EngineError);
}

TEST(PlanWithApi, sweepAndSensitivityCarryTheApiOption) {
  auto in = plan_with_api();
  const Plan plan = make_plan(in);
  SensitivityOptions options;
  options.sweep_step_hours_per_day = 4;
  options.draws = 0;
  const Sensitivity s = analyse(in, plan, options);
  ASSERT_FALSE(s.utilization_sweep.empty());
  for (const auto& point : s.utilization_sweep) {
    ASSERT_EQ(point.total_cost.size(), 3u);
    // The API's fees move with the volume, which moves with the hours (10 h in the plan).
    EXPECT_NEAR(point.total_cost[2], 972.0 * point.hours_per_day / 10.0, 1e-9);
  }
  // Without a device rental, owning is compared with the API, with an API price bar.
  in.options.erase(in.options.begin() + 1);
  const Plan own_or_api = make_plan(in);
  const Sensitivity t = analyse(in, own_or_api, options);
  EXPECT_EQ(t.rented_option_id, "api");
  bool api_bar = false;
  for (const auto& bar : t.tornado) api_bar = api_bar || bar.key == "output_price_per_million";
  EXPECT_TRUE(api_bar);
}

}  // namespace
}  // namespace gputco

namespace gputco {
namespace {

TEST(PlanWithApi, monteCarloMovesApiPricesWithTheRentalDraw) {
  // With every input fixed (zero-width distributions) the draws reproduce the plan; with the
  // rental rate drawn uniformly at exactly -30 % (low = high = -0.3), the API's total is 70 %
  // of the plan's: 972 x 0.7 = 680.40.
  PlanInputs in = plan_with_api();
  const Plan plan = make_plan(in);
  const auto pair = comparison(in, plan);
  ASSERT_TRUE(pair.has_value());
  RiskModel fixed;
  fixed.purchase_price = {};
  fixed.resale = {};
  fixed.tariff = {};
  fixed.hours_per_day = {};
  fixed.rental_rate = {};
  fixed.maintenance = {};
  fixed.failure_rate = {};
  RiskResult r = monte_carlo(in, plan, *pair, 10, 1, fixed);
  ASSERT_EQ(r.options.size(), 3u);
  EXPECT_NEAR(r.options[2].p50_total_cost, 972.0, 1e-9);
  fixed.rental_rate = {Distribution::uniform, -0.3, 0, -0.3, 0};
  r = monte_carlo(in, plan, *pair, 10, 1, fixed);
  EXPECT_NEAR(r.options[2].p50_total_cost, 680.4, 1e-9);
}

}  // namespace
}  // namespace gputco
