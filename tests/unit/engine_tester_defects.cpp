// A tester's defects, fixed as a kind: prefill in the device time a workload needs, break-even
// and payback without an initial outlay, hours of use capped at the month's hours, unknown
// board power, an api option's load. Hand-computed values.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "engine/plan/plan.hpp"
#include "tests/unit/engine_sensitivity_fixture.hpp"

namespace gputco {
namespace {

bool any_contains(const std::vector<std::string>& lines, const std::string& part) {
  for (const auto& line : lines) {
    if (line.find(part) != std::string::npos) return true;
  }
  return false;
}

// --- 1. Prefill shares the device's time with decode ---------------------------------------

TEST(PrefillCapacity, decodeAndPrefillShareTheDeviceTime) {
  // 100 output tokens/s of decode, 1000 prompt tokens/s of prefill, 4 input tokens per output
  // token: 1/100 + 4/1000 = 0.014 s of device time per output token; 3600 / 0.014 = 257,142.86.
  EXPECT_NEAR(capacity_tokens_per_hour(100, 1000, 4), 3600.0 / 0.014, 1e-6);
  // No input tokens, or prefill unknown (0): decode only, 100 x 3600 = 360,000.
  EXPECT_DOUBLE_EQ(capacity_tokens_per_hour(100, 1000, 0), 360000.0);
  EXPECT_DOUBLE_EQ(capacity_tokens_per_hour(100, 0, 4), 360000.0);
  EXPECT_DOUBLE_EQ(capacity_tokens_per_hour(0, 1000, 4), 0.0);
}

TEST(PrefillCapacity, promptLengthFromRequestsElseContext) {
  WorkloadInputs w;
  w.context_tokens = 16384;
  w.tokens_per_day = 250000;              // 5000 requests x 50 output tokens
  w.input_tokens_per_output_token = 240;  // 12000 / 50
  w.requests_per_day = 5000;
  // 250,000 x 240 / 5000 = 12,000 prompt tokens per request.
  EXPECT_EQ(prefill_prompt_tokens(w), 12000);
  w.requests_per_day.reset();
  EXPECT_EQ(prefill_prompt_tokens(w), 16384);  // unknown: the context, the conservative end
}

TEST(PrefillCapacity, aStatedPromptLengthWinsOverTheContextWithTokensPerDay) {
  // Newcomer3 M2: 480,000 output tokens a day, 1500 prompt and 400 output tokens per request
  // (3.75 input per output), no requests_per_day (a tokens_per_day sweep drops it): the prompt
  // is the stated 1500, not the 16,384-token context.
  WorkloadInputs w;
  w.context_tokens = 16384;
  w.tokens_per_day = 480000;
  w.input_tokens_per_output_token = 3.75;
  w.prompt_tokens_per_request = 1500;
  EXPECT_EQ(prefill_prompt_tokens(w), 1500);
  // The same demand in requests: 1200 x 400 = 480,000; 480,000 x 3.75 / 1200 = 1500 either way.
  w.requests_per_day = 1200;
  EXPECT_EQ(prefill_prompt_tokens(w), 1500);
  // Beyond the context: capped at it; 0: at least 1 token.
  w.prompt_tokens_per_request = 20000;
  EXPECT_EQ(prefill_prompt_tokens(w), 16384);
  w.prompt_tokens_per_request = 0;
  EXPECT_EQ(prefill_prompt_tokens(w), 1);
}

PlanInputs prompt_heavy_plan(double fp16_tflops) {
  PlanInputs in = test::tiny_plan();
  for (auto& o : in.options) o.device.fp16_tflops = fp16_tflops;
  in.workload.tokens_per_day = 100000;
  in.workload.input_tokens_per_output_token = 20;
  in.workload.requests_per_day = 1000;  // 100 output and 2,000 prompt tokens per request
  return in;
}

TEST(PrefillCapacity, loadRentAndEnergyCountThePrompts) {
  PlanInputs in = prompt_heavy_plan(71);
  // Autoscaled: whole instances hour by hour (issue #43).
  in.options[1].hourly_billing.billing = Billing::autoscaled;
  const Plan plan = make_plan(in);
  const OptionResult& own = plan.options[0];
  const OptionResult& rent = plan.options[1];
  const double decode = own.speed.aggregate_tokens_per_s;
  const double prefill = own.speed.prefill_tokens_per_s;
  ASSERT_GT(prefill, 0);
  // Device-seconds a day: 100,000 x (1 / decode + 20 / prefill); over 10 h x 3600 s: the load.
  const double load = 100000 * (1 / decode + 20 / prefill) / (10 * 3600.0);
  EXPECT_NEAR(own.cash_flow.load[1], load, 1e-12 * load);
  // Decode alone would be 100,000 / (decode x 36,000): the prompts double it here.
  EXPECT_GT(load, 1.5 * 100000 / (decode * 36000));
  // Rent: 1.00/h x 10 h x 30 days x ceil(load) whole instances (the rental's load is the
  // same prompts' over its own capacity, the same card here); the owned energy counts the
  // prompts too (tariff 0 here, so the kWh: load x 350 W x 300 h / 1000 = 105 x load kWh a
  // month).
  EXPECT_NEAR(rent.cash_flow.load[1], load, 1e-12 * load);
  EXPECT_DOUBLE_EQ(rent.cash_flow.rent[1], 300 * std::ceil(load));
  EXPECT_NEAR(own.cash_flow.energy_kwh[1], 105 * load, 1e-9 * load);
  EXPECT_TRUE(own.warnings.empty());
}

TEST(PrefillCapacity, unknownComputeIsSaidNotCountedAsZero) {
  const Plan plan = make_plan(prompt_heavy_plan(0));
  const OptionResult& own = plan.options[0];
  // Decode only: 100,000 / (decode x 3600 x 10).
  EXPECT_NEAR(own.cash_flow.load[1], 100000 / (own.speed.aggregate_tokens_per_s * 36000), 1e-12);
  EXPECT_TRUE(
      any_contains(own.warnings, "prefill not counted: FP16 throughput unknown for rtx-3090"));
}

// --- 2. Break-even month, payback and IRR without an initial outlay --------------------------

TEST(BreakEven, monthZeroTieIsNoBreakEven) {
  CashFlow owned, rented;
  owned.cumulative = {0, 10, 20};
  rented.cumulative = {0, 5, 25};
  // Month 0: 0 = 0 is a tie before anything happened; month 1 owning is above (10 > 5);
  // month 2 it falls below (20 <= 25): the break-even month is 2.
  EXPECT_EQ(break_even_month(owned, rented), 2);
  // Never above: nothing to break even.
  owned.cumulative = {0, 1, 2};
  rented.cumulative = {0, 5, 10};
  EXPECT_FALSE(break_even_month(owned, rented));
}

TEST(BreakEven, paybackNeedsAnInitialOutlay) {
  EXPECT_FALSE(has_initial_outlay({0, -10, 20}));
  EXPECT_FALSE(payback_months({0, -10, 20}));
  EXPECT_FALSE(payback_months({5, 10, 20}));
  // -100 at month 0, +60 a month: running -40 after month 1, +20 after month 2; within month 2
  // at 40 / 60: 1 + 0.6667 = 1.6667 months.
  ASSERT_TRUE(payback_months({-100, 60, 60}));
  EXPECT_NEAR(*payback_months({-100, 60, 60}), 1 + 40.0 / 60.0, 1e-12);
}

TEST(BreakEven, leaseGetsNoPaybackNoIrrAndNoMonthZero) {
  PlanInputs in = test::tiny_plan();
  in.options[1].rate_per_gpu_hour = 0.1;  // rent: 0.1 x 300 h = 30 a month, 360 a year
  in.options[0].financing = Financing::lease;
  in.options[0].lease_rate_per_month = 0.05;  // 0.05 x 1000 = 50 a month, 600 a year
  in.options[0].lease_term_months = 12;
  const Plan plan = make_plan(in);
  const OptionResult& lease = plan.options[0];
  EXPECT_DOUBLE_EQ(lease.total_cost, 600.0);
  EXPECT_DOUBLE_EQ(plan.options[1].total_cost, 360.0);
  EXPECT_FALSE(lease.break_even_month);  // dearer every month after 0: never
  EXPECT_FALSE(lease.payback_months);
  EXPECT_FALSE(lease.irr);
  EXPECT_NE(lease.comparison_na_reason.find("no initial outlay (a lease)"), std::string::npos);
  EXPECT_FALSE(lease.never_dearer_than_baseline);
}

TEST(BreakEven, noHoursOfUseGivesNoPaybackOrIrr) {
  PlanInputs in = test::tiny_plan();
  in.workload.hours_per_day = 0;  // the rental costs 0; owning 1000 for nothing
  const Plan plan = make_plan(in);
  const OptionResult& own = plan.options[0];
  EXPECT_FALSE(own.irr);
  EXPECT_FALSE(own.payback_months);
  EXPECT_NE(own.comparison_na_reason.find("costs nothing"), std::string::npos);
  EXPECT_FALSE(own.cost_per_million_tokens);
  EXPECT_FALSE(own.co2e_kg_per_million_tokens);
}

// --- 3. Hours of use never exceed the hours of the month -------------------------------------

TEST(HoursOfUse, cappedAtTheMonthUnderTheConvention) {
  PlanInputs in = test::tiny_plan();
  in.workload.hours_per_day = 24;
  in.workload.days_per_month = 31;
  // 730 convention: 730 / 24 = 30.4167 days, 730 h of use (not 744).
  EXPECT_NEAR(days_of_use(in.workload, in.finance, 1), 730.0 / 24.0, 1e-12);
  // The hours a month the plan reports (JSON hours_per_month) are the capped 730 too (was 744).
  for (const auto& r : make_plan(in).options) EXPECT_NEAR(r.hours_per_month, 730.0, 1e-9) << r.id;
  in.workload.hours_per_month_convention = HoursConvention::calendar;
  in.finance.start_year = 2027;
  in.finance.start_month = 1;
  // Calendar, February 2027 (month 2): 28 days, 672 h.
  EXPECT_DOUBLE_EQ(days_of_use(in.workload, in.finance, 2), 28.0);
  EXPECT_DOUBLE_EQ(days_of_use(in.workload, in.finance, 1), 31.0);
  const Plan plan = make_plan(in);
  EXPECT_DOUBLE_EQ(plan.timeline.hours_of_use[2], 672.0);
  // On demand at 1.00/h bills the 672 h of February, not 744.
  EXPECT_DOUBLE_EQ(plan.options[1].cash_flow.rent[2], 672.0);
  // The owned card's energy counts the same 672 h: 0.35 kW x 672 h = 235.2 kWh.
  EXPECT_NEAR(plan.options[0].cash_flow.energy_kwh[2], 235.2, 1e-9);
  EXPECT_TRUE(any_contains(plan.warnings, "hours of use capped"));
}

TEST(HoursOfUse, noWarningWithinTheMonth) {
  const Plan plan = make_plan(test::tiny_plan());  // 10 h x 30 days
  EXPECT_TRUE(plan.warnings.empty());
  EXPECT_DOUBLE_EQ(plan.timeline.hours_of_use[1], 300.0);
}

// A horizon past the hardware's useful life says that no replacement is bought (a newcomer
// planned 600 months on one used RTX 3090 without a word); within it, nothing is said.
TEST(HoursOfUse, aHorizonPastTheUsefulLifeSaysNothingIsReplaced) {
  PlanInputs in = test::tiny_plan();  // 12 months, useful life 36
  const auto said = [](const OptionResult& r) { return any_contains(r.warnings, "useful life"); };
  Plan plan = make_plan(in);
  EXPECT_FALSE(said(plan.options[0]));
  in.finance.horizon_months = 60;
  plan = make_plan(in);
  EXPECT_TRUE(any_contains(plan.options[0].warnings,
                           "in service for all 60 months, past its useful life of 36 months"));
  EXPECT_FALSE(said(plan.options[1]));  // the rental: the provider replaces its cards
}

// A demand that takes ten thousand GPUs or more is said to be checked (a newcomer's 1e12
// tokens a day bought 117,668 RTX 3090s without a word). Hand-computed: 1,000 tokens an hour
// per card x 10 hours = 10,000 tokens a card-day; 1e8 tokens a day = 10,000 cards; 9.99e7 =
// 9,990 cards, below the line.
TEST(HoursOfUse, aDemandOfTenThousandGpusIsSaidToBeChecked) {
  PlanInputs in = test::tiny_plan();
  for (auto& o : in.options) o.capacity_tokens_per_hour = 1000;
  const auto said = [](const OptionResult& r) {
    return any_contains(r.warnings, "check tokens_per_day or requests_per_day");
  };
  in.workload.tokens_per_day = 9.99e7;
  Plan plan = make_plan(in);
  EXPECT_FALSE(said(plan.options[0]));
  in.workload.tokens_per_day = 1e8;
  plan = make_plan(in);
  EXPECT_TRUE(any_contains(plan.options[0].warnings,
                           "the demand takes up to 10000 GPUs (10000 units of 1 x rtx-3090)"));
  EXPECT_TRUE(said(plan.options[1]));
}

// --- 4. Unknown board power is unknown energy, never 0 ---------------------------------------

TEST(UnknownPower, energyAndCo2eUnknownAndSaid) {
  PlanInputs in = test::tiny_plan();
  for (auto& o : in.options) o.device.board_power_w = 0;
  in.site.grid_g_co2e_per_kwh = 300;
  const Plan plan = make_plan(in);
  for (const auto& r : plan.options) {
    EXPECT_TRUE(r.power_unknown) << r.id;
    EXPECT_FALSE(r.energy_kwh_total) << r.id;
    EXPECT_FALSE(r.co2e_kg_total) << r.id;
    EXPECT_FALSE(r.co2e_kg_per_million_tokens) << r.id;
    EXPECT_NE(r.energy_unknown_reason.find("no board power for rtx-3090"), std::string::npos);
  }
  EXPECT_TRUE(any_contains(plan.options[0].warnings, "energy cost not included"));
}

TEST(UnknownPower, recommendationSaysEnergyIsLeftOut) {
  PlanInputs in = test::tiny_plan();
  in.options[0].device.board_power_w = 0;
  in.options[1].rate_per_gpu_hour = 10;  // renting 36,000 a year: owning (1000) is chosen
  const Plan plan = make_plan(in);
  ASSERT_EQ(plan.recommendation, std::optional<std::string>("own"));
  EXPECT_NE(plan.recommendation_reason.find("energy cost is not included"), std::string::npos);
}

// --- 5. An api option has no load of ours --------------------------------------------------

TEST(ApiLoad, isZeroNotTheTokensPerDay) {
  PlanInputs in = test::tiny_plan();
  in.workload.tokens_per_day = 480000;
  in.workload.input_tokens_per_output_token = 3.75;
  OptionInputs api;
  api.id = "api";
  api.kind = OptionKind::api;
  api.input_price_per_million = 0.3;
  api.output_price_per_million = 0.6;
  in.options.push_back(api);
  const Plan plan = make_plan(in);
  for (double load : plan.options[2].cash_flow.load) EXPECT_EQ(load, 0.0);
  // Its fees still follow the demand: 30 days x (480,000 x 3.75 x 0.3 + 480,000 x 0.6) / 1e6
  // = 30 x (0.54 + 0.288) = 24.84 a month.
  EXPECT_NEAR(plan.options[2].cash_flow.rent[1], 24.84, 1e-9);
}

}  // namespace
}  // namespace gputco
