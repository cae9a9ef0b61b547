// MonthFactors reused from call to call (issue #19): set_workload_factors keeps the hours and
// days rows while their calendar is the same, and the factors it leaves are bit for bit the
// fresh month_factors of the same inputs, whatever the previous call's inputs were.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "engine/money/month_factors.hpp"
#include "tests/unit/engine_sensitivity_fixture.hpp"

namespace gputco {
namespace {

/// Equal sizes and equal bits (EXPECT_EQ on doubles would take -0.0 for 0.0).
bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

/// Every row of `got` against `expected`, by name.
void expect_same_factors(const MonthFactors& got, const MonthFactors& expected,
                         const std::string& what) {
  EXPECT_TRUE(same_bits(got.discount_factor, expected.discount_factor)) << what;
  EXPECT_TRUE(same_bits(got.rent_trend, expected.rent_trend)) << what;
  EXPECT_TRUE(same_bits(got.tariff_trend, expected.tariff_trend)) << what;
  EXPECT_TRUE(same_bits(got.api_trend, expected.api_trend)) << what;
  EXPECT_TRUE(same_bits(got.hours_in_month, expected.hours_in_month)) << what;
  EXPECT_TRUE(same_bits(got.days_of_use, expected.days_of_use)) << what;
  EXPECT_TRUE(same_bits(got.hours_of_use, expected.hours_of_use)) << what;
  EXPECT_TRUE(same_bits(got.availability_hours, expected.availability_hours)) << what;
  EXPECT_TRUE(same_bits(got.growth, expected.growth)) << what;
  EXPECT_EQ(got.shape.peak_multiplier, expected.shape.peak_multiplier) << what;
  EXPECT_EQ(got.shape.count, expected.shape.count) << what;
}

TEST(MonthFactors, keptCalendarRowsGiveTheFreshFactorsBitForBit) {
  PlanInputs plan = test::tiny_plan();
  FinanceInputs finance = plan.finance;
  finance.horizon_months = 30;
  finance.discount_rate_per_year = 0.07;
  finance.start_year = 2027;
  finance.start_month = 11;
  const SiteInputs& site = plan.site;
  WorkloadInputs w = plan.workload;
  w.days_per_month = 21;
  w.growth_per_month = 0.02;
  // One MonthFactors through a sequence of inputs, as a Monte Carlo thread reuses its own;
  // each step changes what a draw moves (the hours) or what the kept rows depend on.
  MonthFactors reused;
  set_finance_factors(site, finance, reused);
  struct Step {
    std::string what;
    void (*change)(WorkloadInputs&, FinanceInputs&);
  };
  const std::vector<Step> steps = {
      {"first call", [](WorkloadInputs&, FinanceInputs&) {}},
      {"hours 7.5", [](WorkloadInputs& x, FinanceInputs&) { x.hours_per_day = 7.5; }},
      {"hours 13.25", [](WorkloadInputs& x, FinanceInputs&) { x.hours_per_day = 13.25; }},
      {"calendar months",
       [](WorkloadInputs& x, FinanceInputs&) {
         x.hours_per_month_convention = HoursConvention::calendar;
       }},
      {"hours 9 on calendar months",
       [](WorkloadInputs& x, FinanceInputs&) { x.hours_per_day = 9; }},
      {"start a month later", [](WorkloadInputs&, FinanceInputs& f) { f.start_month = 12; }},
      {"start a year later", [](WorkloadInputs&, FinanceInputs& f) { f.start_year = 2028; }},
      {"28 days", [](WorkloadInputs& x, FinanceInputs&) { x.days_per_month = 28; }},
      {"days follow the convention",
       [](WorkloadInputs& x, FinanceInputs&) { x.days_follow_convention = true; }},
      {"around the clock",
       [](WorkloadInputs& x, FinanceInputs&) { x.availability = Availability::around_the_clock; }},
      {"hours 3 around the clock", [](WorkloadInputs& x, FinanceInputs&) { x.hours_per_day = 3; }},
      {"720 h months",
       [](WorkloadInputs& x, FinanceInputs&) {
         x.hours_per_month_convention = HoursConvention::h720;
         x.days_follow_convention = false;
         x.availability = Availability::hours_of_use;
       }},
      {"a shorter horizon", [](WorkloadInputs&, FinanceInputs& f) { f.horizon_months = 12; }},
      {"peak hour and hours 11",
       [](WorkloadInputs& x, FinanceInputs&) {
         x.peak_factor = 1.8;
         x.hours_per_day = 11;
       }},
  };
  for (const Step& step : steps) {
    step.change(w, finance);
    set_finance_factors(site, finance, reused);
    set_workload_factors(w, finance, reused);
    const MonthFactors fresh = month_factors(w, site, finance);
    expect_same_factors(reused, fresh, step.what);
  }
  // The last step's values by hand: 720 h months, 28 days of use, 11 h a day.
  EXPECT_EQ(reused.hours_in_month.size(), 13u);
  EXPECT_EQ(reused.hours_in_month[0], 0);
  EXPECT_EQ(reused.hours_in_month[5], 720);
  EXPECT_EQ(reused.days_of_use[5], 28);
  EXPECT_EQ(reused.hours_of_use[5], 11 * 28);
  EXPECT_EQ(reused.availability_hours[5], 11 * 28);
  // Around the clock on calendar months starting 2028-12: month 3 is February 2029, 28 days.
  w.hours_per_month_convention = HoursConvention::calendar;
  w.availability = Availability::around_the_clock;
  finance.start_year = 2028;
  finance.start_month = 12;
  set_workload_factors(w, finance, reused);
  EXPECT_EQ(reused.hours_in_month[3], 28 * 24);
  EXPECT_EQ(reused.availability_hours[3], 28 * 24);
  EXPECT_EQ(reused.hours_of_use[3], 11 * 28);
  expect_same_factors(reused, month_factors(w, site, finance), "February 2029");
}

}  // namespace
}  // namespace gputco
