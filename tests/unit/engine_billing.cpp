// Billing of hourly rentals (issue #21): always on for the hours of availability, or
// autoscaled with a minimum and the provider's granularity; hand-computed cases and the
// property that a stated demand never bills less than the hours of availability.
#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "engine/finance/billing.hpp"
#include "engine/finance/finance.hpp"
#include "engine/finance/load_shape.hpp"
#include "engine/money/cash_flow.hpp"
#include "engine/money/timeline.hpp"

namespace gputco {
namespace {

OptionInputs rental(double rate, int count = 1) {
  OptionInputs o;
  o.id = "rent";
  o.kind = OptionKind::rent_hourly;
  o.device.id = "card";
  o.device.board_power_w = 300;
  o.count = count;
  o.rate_per_gpu_hour = rate;
  o.capacity_tokens_per_hour = 10'000;
  return o;
}

/// 8 h a day, 20 days a month, 200,000 output tokens a day: the load of one instance of
/// 10,000 tokens/h is 200,000 / (10,000 x 8) = 2.5.
WorkloadInputs office_hours() {
  WorkloadInputs w;
  w.hours_per_day = 8;
  w.days_per_month = 20;
  w.tokens_per_day = 200'000;
  return w;
}

FinanceInputs months(int n) {
  FinanceInputs f;
  f.horizon_months = n;
  f.discount_rate_per_year = 0;
  return f;
}

double sum(const std::vector<double>& xs) {
  return std::accumulate(xs.begin(), xs.end(), 0.0);
}

TEST(Billing, alwaysOnBillsThePeakInstancesForEveryHourOfAvailability) {
  // Load 2.5 -> 3 instances; 8 h x 20 days = 160 h of availability; 2.00 x 1 device x 3 x
  // 160 = 960 a month, 11,520 over 12 months (by busy hours it was 2.5 x 160 x 2 = 800).
  const CashFlow cf = option_cash_flow(rental(2.0), office_hours(), SiteInputs{}, months(12));
  EXPECT_DOUBLE_EQ(cf.load[1], 2.5);
  EXPECT_DOUBLE_EQ(cf.rent[1], 960.0);
  EXPECT_DOUBLE_EQ(sum(cf.rent), 11'520.0);
}

TEST(Billing, alwaysOnAroundTheClockBillsEveryHourOfTheMonth) {
  // 24x7 at the 730-hour month: 3 instances x 730 h x 2.00 x 2 devices = 8,760 a month.
  WorkloadInputs w = office_hours();
  w.availability = Availability::around_the_clock;
  const CashFlow cf = option_cash_flow(rental(2.0, 2), w, SiteInputs{}, months(3));
  EXPECT_DOUBLE_EQ(cf.rent[1], 8'760.0);
}

TEST(Billing, spotAlwaysOnAddsTheWorkInterruptionsLose) {
  // 960 / goodput 0.8 = 1,200 a month.
  OptionInputs o = rental(2.0);
  o.term = RentTerm::spot;
  o.goodput = 0.8;
  const CashFlow cf = option_cash_flow(o, office_hours(), SiteInputs{}, months(1));
  EXPECT_DOUBLE_EQ(cf.rent[1], 1'200.0);
}

TEST(Billing, autoscaledBillsTheMinimumAllMonthAndWholeInstancesHourByHour) {
  // Min 1 instance 24/7 (730 h); a load of 2.5 runs ceil(2.5) = 3 instances each of the 8 h of
  // use, 2 above the minimum: 2 x 8 = 16 instance-hours a day x 20 days = 320 (issue #43; the
  // bill before packed the half instance into 4 h: 240). (730 + 320) x 2.00 = 2,100 a month.
  OptionInputs o = rental(2.0);
  o.hourly_billing = {Billing::autoscaled, 1, BillingGranularity::hour};
  WorkloadInputs w = office_hours();
  w.availability = Availability::around_the_clock;
  const CashFlow cf = option_cash_flow(o, w, SiteInputs{}, months(2));
  EXPECT_DOUBLE_EQ(cf.rent[1], 2'100.0);
  EXPECT_DOUBLE_EQ(cf.rent[2], 2'100.0);
  // Per second the same: the instances run whole hours (the load is hourly).
  o.hourly_billing.granularity = BillingGranularity::second;
  EXPECT_DOUBLE_EQ(option_cash_flow(o, w, SiteInputs{}, months(1)).rent[1], 2'100.0);
}

TEST(Billing, autoscaledRoundsAPartHourUpToTheGranularity) {
  // h = 7.5 h, load 1.3, no minimum: 2 whole instances for the 7.5 h of use.
  HourlyBilling b{Billing::autoscaled, 0, BillingGranularity::hour};
  // Per hour: 7.5 h rounds up to 8; 2 x 8 = 16 instance-hours a day; 10 days = 160.
  EXPECT_DOUBLE_EQ(billed_instance_hours(b, 1.3, 7.5, 10, 75), 160.0);
  // Per minute: 7.5 h = 450 min exactly: 2 x 7.5 x 10 = 150.
  b.granularity = BillingGranularity::minute;
  EXPECT_DOUBLE_EQ(billed_instance_hours(b, 1.3, 7.5, 10, 75), 150.0);
  // Per second: a load of 0.1 still runs a whole instance; 1.0001 h = 3,600.36 s -> 3,601 s a
  // day, 1 day: 3,601 / 3,600 h.
  b.granularity = BillingGranularity::second;
  EXPECT_DOUBLE_EQ(billed_instance_hours(b, 0.1, 1.0001, 1, 1.0001), 3601.0 / 3600.0);
  // No demand and no minimum: nothing billed (scaled to zero); a rounding residue of a load
  // is no instance.
  EXPECT_DOUBLE_EQ(billed_instance_hours(b, 0, 8, 20, 160), 0.0);
  EXPECT_DOUBLE_EQ(billed_instance_hours(b, 1e-12, 8, 20, 160), 0.0);
}

/// 24 h of use, the peak hour at 3 x the mean: as a peak_factor, or as the hourly profile of
/// the same day (hour 12 with 3/24 of the demand, the 23 others 21/24 / 23 each).
std::vector<double> peak_profile() {
  std::vector<double> shares(24, 21.0 / 24.0 / 23.0);
  shares[12] = 3.0 / 24.0;
  return shares;
}

TEST(HourlyBill, aPeakFactorBillsWholeInstancesHourByHour) {
  // The case: mean load L = 2.66 (one instance's capacity), peak factor 3, 24 h a day,
  // 30 days, 720 h of availability, min 0. The peak hour needs ceil(3 x 2.66) = ceil(7.98) =
  // 8 instances; the 23 others carry (24 - 3) / 23 x 2.66 = 2.4287 each, ceil = 3 instances:
  // any autoscaler keeps a third instance up all 23 hours (the bill before packed its 0.43
  // into 0.4287 x 23 = 9.86 instance-hours a day). A day: 8 x 1 + 3 x 23 = 77 instance-hours;
  // 30 days: 2,310.
  const HourlyBilling b{Billing::autoscaled, 0, BillingGranularity::second};
  const DailyLoadShape peak = daily_load_shape(24, 3, {});
  EXPECT_DOUBLE_EQ(billed_instance_hours(b, 2.66, peak, 30, 720), 2'310.0);
  // With one instance kept up: 1 x 720 + 30 x ((8 - 1) x 1 + (3 - 1) x 23) = 720 + 1,590 =
  // 2,310: the same, the minimum is among the instances the hours need.
  const HourlyBilling one{Billing::autoscaled, 1, BillingGranularity::second};
  EXPECT_DOUBLE_EQ(billed_instance_hours(one, 2.66, peak, 30, 720), 2'310.0);
  // Always on: the peak's 8 instances every hour of availability, 8 x 720 = 5,760.
  EXPECT_DOUBLE_EQ(billed_instance_hours(HourlyBilling{}, 2.66, peak, 30, 720), 5'760.0);
}

TEST(HourlyBill, aPeakFactorAndTheSameDayAsAProfileBillTheSame) {
  // The same day said two ways: the bill may not depend on the way (issue #43: the profile
  // cost 24 % more). By hand as above: 2,310 instance-hours in 30 days, both ways; at mean
  // loads from 0.05 to 10 the two agree exactly.
  const DailyLoadShape by_factor = daily_load_shape(24, 3, {});
  const DailyLoadShape by_profile = daily_load_shape(24, 1, peak_profile());
  EXPECT_DOUBLE_EQ(by_profile.peak_multiplier, 3.0);
  for (const auto& b :
       {HourlyBilling{Billing::autoscaled, 0, BillingGranularity::second},
        HourlyBilling{Billing::autoscaled, 2, BillingGranularity::hour}, HourlyBilling{}}) {
    for (double load = 0.05; load <= 10; load += 0.05) {
      ASSERT_NEAR(billed_instance_hours(b, load, by_factor, 30, 720),
                  billed_instance_hours(b, load, by_profile, 30, 720), 1e-9)
          << "load " << load;
    }
  }
  EXPECT_DOUBLE_EQ(billed_instance_hours({Billing::autoscaled, 0, BillingGranularity::second}, 2.66,
                                         by_profile, 30, 720),
                   2'310.0);
}

TEST(Billing, alwaysOnInstancesNeverBelowOneAndWholeLoadsStayWhole) {
  EXPECT_DOUBLE_EQ(always_on_instances(0), 1.0);
  EXPECT_DOUBLE_EQ(always_on_instances(0.01), 1.0);
  EXPECT_DOUBLE_EQ(always_on_instances(2.0 + 1e-12), 2.0);  // rounding residue, no 3rd
  EXPECT_DOUBLE_EQ(always_on_instances(2.01), 3.0);
  EXPECT_DOUBLE_EQ(round_up_to_period(0.25, BillingGranularity::hour), 1.0);
  EXPECT_DOUBLE_EQ(round_up_to_period(0.25, BillingGranularity::minute), 0.25);
}

// Measured goal (issue #21): stating a demand never makes an always-on rental cheaper than
// billing it for its hours of availability (one instance for every hour the service must be
// reachable), nor than the busy hours it serves (the bill before issue #21), over random
// rentals and workloads.
TEST(Billing, aStatedDemandNeverBillsLessThanTheHoursOfAvailability) {
  std::mt19937 rng(21);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 2000; ++trial) {
    OptionInputs o = rental(0.1 + 10 * unit(rng), 1 + static_cast<int>(8 * unit(rng)));
    if (unit(rng) < 0.3) {
      o.term = RentTerm::spot;
      o.goodput = 0.5 + 0.5 * unit(rng);
    }
    o.capacity_tokens_per_hour = 1e3 + 1e6 * unit(rng);
    WorkloadInputs w;
    w.hours_per_day = 0.5 + 23.5 * unit(rng);
    w.days_per_month = 1 + 29 * unit(rng);
    w.growth_per_month = -0.05 + 0.15 * unit(rng);
    w.availability = unit(rng) < 0.5 ? Availability::hours_of_use : Availability::around_the_clock;
    w.tokens_per_day = 1e7 * unit(rng) * unit(rng);
    FinanceInputs f = months(1 + static_cast<int>(47 * unit(rng)));
    f.rent_trend_per_year = -0.3 + 0.5 * unit(rng);
    const CashFlow cf = option_cash_flow(o, w, SiteInputs{}, f);
    for (int m = 1; m <= f.horizon_months; ++m) {
      const auto i = static_cast<size_t>(m);
      const double per_hour =
          o.rate_per_gpu_hour * o.count / o.goodput * trend_factor(f.rent_trend_per_year, m);
      const double availability_bill = per_hour * availability_hours(w, f, m);
      const double busy_bill = per_hour * w.hours_per_day * days_of_use(w, f, m) * cf.load[i];
      ASSERT_GE(cf.rent[i], availability_bill * (1 - 1e-12)) << "trial " << trial << " m " << m;
      ASSERT_GE(cf.rent[i], busy_bill * (1 - 1e-12)) << "trial " << trial << " m " << m;
    }
  }
}

}  // namespace
}  // namespace gputco
