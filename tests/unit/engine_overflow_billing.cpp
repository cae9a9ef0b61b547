// Overflow rented by an owned option (overflow = rent, a blend) is billed as its rental bills
// its instances (issue #21): always on, the instances the peak leaves over for every hour of
// availability; autoscaled, the rental's minimum and granularity over what each stretch leaves
// over. Hand-computed cases.
#include <gtest/gtest.h>

#include "engine/finance/billing.hpp"
#include "engine/money/billing_description.hpp"
#include "engine/money/cash_flow.hpp"
#include "engine/plan/plan.hpp"
#include "tests/unit/engine_blend_fixture.hpp"

namespace gputco {
namespace {

/// 10 h a day, 30 days a month (300 h of use = of availability), `tokens` output tokens a day:
/// the load of one owned unit of 1e6 tokens/h is tokens / 1e7.
PlanInputs blend(double tokens, const HourlyBilling& billing) {
  PlanInputs in = test::blend_plan(tokens, 2);
  // As fast as the owned unit: 1 instance per unit of load.
  OptionInputs rent = test::overflow_rental("card", 1e6);
  rent.hourly_billing = billing;
  in.options = {test::owned_renting_overflow(), rent};
  prepare_plan_inputs(in);  // links the overflow: rate 4.00 x 1 / 1, the rental's billing
  return in;
}

CashFlow owned_flow(const PlanInputs& in) {
  return option_cash_flow(in.options[0], in.workload, SiteInputs{}, in.finance);
}

HourlyBilling autoscaled(int min_instances, BillingGranularity granularity) {
  HourlyBilling b;
  b.billing = Billing::autoscaled;
  b.min_instances = min_instances;
  b.granularity = granularity;
  return b;
}

TEST(OverflowBilling, theOverflowRentalIsLinkedWithItsBilling) {
  const PlanInputs in = blend(15e6, autoscaled(2, BillingGranularity::minute));
  EXPECT_EQ(in.options[0].overflow_billing.billing, Billing::autoscaled);
  EXPECT_EQ(in.options[0].overflow_billing.min_instances, 2);
  EXPECT_EQ(in.options[0].overflow_billing.granularity, BillingGranularity::minute);
  EXPECT_DOUBLE_EQ(in.options[0].overflow_rate_per_hour, 4.0);
}

TEST(OverflowBilling, alwaysOnBillsTheWholeInstancesThePeakLeavesOverForEveryHour) {
  // Month 1: load 15e6 / 1e7 = 1.5 on 1 owned unit: 0.5 left over x 1 instance per unit of
  // load = 0.5 instance -> ceil = 1 instance x 300 h x 4.00 = 1,200 (per load-hour, as
  // before: 0.5 x 300 x 4.00 = 600).
  // Month 2 (growth 60 %): load 2.4, 1.4 left over -> 2 instances x 300 h x 4.00 = 2,400
  // (per load-hour 1.4 x 300 x 4.00 = 1,680).
  PlanInputs in = blend(15e6, HourlyBilling{});
  in.workload.growth_per_month = 0.6;
  const CashFlow cf = owned_flow(in);
  EXPECT_DOUBLE_EQ(cf.units[2], 1.0);
  EXPECT_NEAR(cf.overflow_load[1], 0.5, 1e-12);
  EXPECT_NEAR(cf.overflow_load[2], 1.4, 1e-12);
  EXPECT_DOUBLE_EQ(cf.rent[1], 1200.0);
  EXPECT_DOUBLE_EQ(cf.rent[2], 2400.0);
  // Around the clock: 1 instance x 730 h (the 730-hour month) x 4.00 = 2,920 in month 1.
  in.workload.availability = Availability::around_the_clock;
  EXPECT_DOUBLE_EQ(owned_flow(in).rent[1], 2920.0);
}

TEST(OverflowBilling, autoscaledBillsItsMinimumAndWholeInstancesHourByHour) {
  // Load 32.5e6 / 1e7 = 3.25 on 1 owned unit: 2.25 instances left over, ceil = 3 whole
  // instances each hour of use (issue #43). Min 1, per hour: 1 x 300 h + 30 days x (3 - 1) x
  // 10 h = 300 + 600 = 900 instance-hours x 4.00 = 3,600.
  EXPECT_DOUBLE_EQ(owned_flow(blend(32.5e6, autoscaled(1, BillingGranularity::hour))).rent[1],
                   3600.0);
  // Min 0, per second: 30 x 3 x 10 h = 900, x 4.00 = 3,600 too: the minimum is among the
  // instances the hours need (before issue #43: 2.25 x 300 h = 675, the 0.25 packed).
  EXPECT_NEAR(owned_flow(blend(32.5e6, autoscaled(0, BillingGranularity::second))).rent[1], 3600.0,
              1e-9);
}

TEST(OverflowBilling, aMonthTheOwnedUnitCarriesRentsNothing) {
  // Load 0.8 on 1 owned unit: no overflow, no rental started, its minimum not billed either.
  EXPECT_DOUBLE_EQ(owned_flow(blend(8e6, HourlyBilling{})).rent[1], 0.0);
  EXPECT_DOUBLE_EQ(owned_flow(blend(8e6, autoscaled(2, BillingGranularity::hour))).rent[1], 0.0);
  // Exactly one unit of load (1e7 / 1e7): 0 left over, nothing rented.
  EXPECT_DOUBLE_EQ(owned_flow(blend(1e7, HourlyBilling{})).rent[1], 0.0);
}

TEST(OverflowBilling, billedOverflowInstanceHoursOverAShapedDay) {
  // A day of two stretches: 2 h at 3 x the mean, 6 h at 1/3 (2 x 3 + 6 / 3 = 8 = the hours).
  // Mean load 1, 1 owned unit, 0.5 rental instance per unit of load: the peak leaves
  // (3 - 1) x 0.5 = 1 instance, the rest 0. Always on: 1 x A = 1 x 160 = 160.
  // Autoscaled per hour, min 0: 20 days x (1 x RU(2 h)) = 40.
  DailyLoadShape shape;
  shape.count = 2;
  shape.stretches[0] = {2, 3};
  shape.stretches[1] = {6, 1.0 / 3};
  shape.peak_multiplier = 3;
  shape.flat = false;
  EXPECT_DOUBLE_EQ(billed_overflow_instance_hours(HourlyBilling{}, 1, 1, 0.5, shape, 20, 160),
                   160.0);
  EXPECT_DOUBLE_EQ(billed_overflow_instance_hours(autoscaled(0, BillingGranularity::hour), 1, 1,
                                                  0.5, shape, 20, 160),
                   40.0);
}

/// The billing sentence and instance-hours every report shows for `in`'s owned option.
OptionResult described(const PlanInputs& in) {
  OptionResult r;
  r.cash_flow = owned_flow(in);
  describe_overflow_billing(in.options[0], in.options[1], in.workload, in.finance, r);
  return r;
}

TEST(OverflowBilling, theBlendSaysHowItsOverflowIsBilledAndHowManyHours) {
  // As in alwaysOnBills... above: 1 instance x 300 h in month 1, 2 x 300 h in month 2 =
  // 900 instance-hours, the hours the rent row's 1,200 + 2,400 = 3,600 pay for at 4.00.
  PlanInputs in = blend(15e6, HourlyBilling{});
  in.workload.growth_per_month = 0.6;
  const OptionResult r = described(in);
  EXPECT_DOUBLE_EQ(r.billed_instance_hours, 900.0);
  EXPECT_EQ(r.billing,
            "overflow rented from rent, always on: 1 instance(s) at the peak from month 1, up to "
            "2 by month 2, billed for every hour of availability (300.0 h in month 1), busy or "
            "not; none in a month the owned units carry alone; 900 instance-hours over the "
            "horizon");
  // Spot at goodput 0.8: the same hours, and the sentence says the rent divides them.
  in.options[1].term = RentTerm::spot;
  in.options[1].goodput = 0.8;
  const OptionResult spot = described(in);
  EXPECT_DOUBLE_EQ(spot.billed_instance_hours, 900.0);
  EXPECT_NE(spot.billing.find("900 instance-hours over the horizon, / goodput 0.80"),
            std::string::npos)
      << spot.billing;
  // Autoscaled, min 1, per hour: 900 instance-hours a month (autoscaledBills... above) x 2.
  const OptionResult scaled = described(blend(32.5e6, autoscaled(1, BillingGranularity::hour)));
  EXPECT_DOUBLE_EQ(scaled.billed_instance_hours, 1800.0);
  EXPECT_NE(scaled.billing.find("autoscaled hour by hour (min 1 instance(s) for every hour of "
                                "availability in a month it overflows, above it the whole "
                                "instances each hour's overflow needs, billed per hour): 3 "
                                "instance(s) at the peak from month 1; none"),
            std::string::npos)
      << scaled.billing;
  // Autoscaled claims no "billed for every hour": only its minimum is.
  EXPECT_EQ(scaled.billing.find("every hour of availability ("), std::string::npos);
}

TEST(OverflowBilling, aBlendThatNeverOverflowsSaysSo) {
  const OptionResult r = described(blend(8e6, autoscaled(2, BillingGranularity::hour)));
  EXPECT_DOUBLE_EQ(r.billed_instance_hours, 0.0);
  EXPECT_NE(r.billing.find("never needed within the horizon"), std::string::npos) << r.billing;
}

}  // namespace
}  // namespace gputco
