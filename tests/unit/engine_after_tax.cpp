// The after-tax view (issue #40): the tax saved each plan year at the rate on the deductible
// costs (operating expenses, interest, the tax depreciation schedule, the disposal against the
// tax written-down value), settled in the year's last month; the after-tax cash flow and NPV
// and the recommendation on it. Every figure below is worked by hand in its comment.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "engine/base/error.hpp"
#include "engine/plan/plan.hpp"
#include "tests/unit/engine_books_fixture.hpp"
#include "tests/unit/engine_sensitivity_fixture.hpp"

namespace gputco {
namespace {

constexpr double kCent = 0.005;

using test::sum;

/// A UK purchase: one 8,000 device and a 2,000 host, maintenance 6 % a year (50 a month),
/// 30 % resold at the horizon (3,000); 36 months, no energy (no hours of use).
PlanInputs uk_purchase(double discount_rate) {
  PlanInputs in = test::tiny_plan();
  in.workload.hours_per_day = 0;
  in.finance.horizon_months = 36;
  in.finance.discount_rate_per_year = discount_rate;
  in.finance.currency = "GBP";
  // Full expensing (Finance (No. 2) Act 2023, s. 7): 100 % of the devices in the year bought,
  // a one-year straight line; the host in the main pool at the 18 % writing-down allowance
  // (Capital Allowances Act 2001, s. 56): 9 / 50 = 18 % of the balance a year, no switch.
  in.finance.tax_devices.method = TaxDepreciationMethod::straight_line;
  in.finance.tax_devices.life_years = 1;
  in.finance.tax_host.method = TaxDepreciationMethod::declining_balance;
  in.finance.tax_host.life_years = 50;
  in.finance.tax_host.factor = 9;
  in.finance.tax_host.switch_to_straight_line = false;
  in.finance.tax_rate = 0.25;  // UK main rate of corporation tax from April 2023
  OptionInputs own = test::owned_ten_thousand();
  own.host_cost_entered = true;
  in.options = {own};
  return in;
}

TEST(AfterTax, aUkFullExpensingPurchaseAt25PercentSavesTaxYearByYear) {
  const Plan plan = make_plan(uk_purchase(0));
  const OptionResult& own = plan.options.at(0);
  ASSERT_TRUE(own.after_tax.has_value());
  const ProfitAndLoss& p = own.profit_and_loss;
  // Year 1: the devices' 8,000 in full, the host 2,000 x 18 % = 360, maintenance 600:
  // deductible 8,960, tax saved 0.25 x 8,960 = 2,240.
  EXPECT_NEAR(p.tax_depreciation_devices[0], 8000, kCent);
  EXPECT_NEAR(p.tax_depreciation_host[0], 360, kCent);
  EXPECT_NEAR(p.tax_deductible[0], 8960, kCent);
  // Year 2: the host 1,640 x 18 % = 295.20, maintenance 600: 895.20, saved 223.80.
  EXPECT_NEAR(p.tax_depreciation_host[1], 295.20, kCent);
  EXPECT_NEAR(p.tax_deductible[1], 895.20, kCent);
  // Year 3: the host 1,344.80 x 18 % = 242.064; 1,102.736 left on the tax books against 3,000
  // of resale: a taxable gain of 1,897.264; 600 + 242.064 - 1,897.264 = -1,055.20: tax paid
  // 263.80.
  EXPECT_NEAR(p.tax_depreciation_host[2], 242.064, 1e-9);
  EXPECT_NEAR(p.tax_written_down_value[2], 1102.736, 1e-9);
  EXPECT_NEAR(p.tax_disposal[2], -1897.264, 1e-9);
  EXPECT_NEAR(p.tax_deductible[2], -1055.20, 1e-9);
  const AfterTax& a = *own.after_tax;
  ASSERT_EQ(a.tax_by_year.size(), 3u);
  EXPECT_NEAR(a.tax_by_year[0], -2240.00, kCent);
  EXPECT_NEAR(a.tax_by_year[1], -223.80, kCent);
  EXPECT_NEAR(a.tax_by_year[2], 263.80, kCent);
  // Settled in each year's last month, months 12, 24 and 36; nothing in the others.
  ASSERT_EQ(a.tax.size(), 37u);
  EXPECT_NEAR(a.tax[12], -2240.00, kCent);
  EXPECT_NEAR(a.tax[24], -223.80, kCent);
  EXPECT_NEAR(a.tax[36], 263.80, kCent);
  EXPECT_NEAR(sum(a.tax), -2200.00, kCent);
  // Pre-tax 10,000 + 36 x 50 - 3,000 = 8,800; after tax 8,800 - 0.25 x 8,800 = 6,600 (every
  // flow deductible over the horizon); at a zero rate the NPVs are the totals.
  EXPECT_NEAR(own.total_cost, 8800, kCent);
  EXPECT_NEAR(a.total_cost, 6600, kCent);
  EXPECT_NEAR(a.npv, 6600, kCent);
  EXPECT_NEAR(a.total[12], 50 - 2240.00, kCent);
}

TEST(AfterTax, theNpvMovesByTheTaxDiscountedFromEachYearsEnd) {
  // At 10 % a year the after-tax NPV is the pre-tax NPV plus each year's tax discounted from
  // its month 12, 24, 36: -2,240 / 1.1 - 223.80 / 1.21 + 263.80 / 1.331 = -2,036.363636 -
  // 184.958678 + 198.196844 = -2,023.125470.
  const Plan plan = make_plan(uk_purchase(0.10));
  const OptionResult& own = plan.options.at(0);
  ASSERT_TRUE(own.after_tax.has_value());
  EXPECT_NEAR(own.after_tax->npv - own.npv, -2023.125470, 1e-6);
}

TEST(AfterTax, aRentalAt25PercentCostsThreeQuartersOfItsPreTaxCost) {
  // Everything a rental pays is deductible in the year it is paid: 46 a month for 24 months,
  // 552 a year, tax saved 0.25 x 552 = 138 at months 12 and 24; after tax 0.75 x 1,104 = 828.
  PlanInputs in = test::tiny_plan();
  in.finance.horizon_months = 24;
  in.finance.tax_rate = 0.25;
  OptionInputs rent;
  rent.id = "monthly";
  rent.kind = OptionKind::rent_monthly;
  rent.device = test::books_card();
  rent.price_per_month = 46;
  in.options = {rent};
  const Plan plan = make_plan(in);
  const OptionResult& r = plan.options.at(0);
  ASSERT_TRUE(r.after_tax.has_value());
  EXPECT_NEAR(r.total_cost, 1104, kCent);
  EXPECT_NEAR(r.after_tax->tax_by_year[0], -138, kCent);
  EXPECT_NEAR(r.after_tax->tax_by_year[1], -138, kCent);
  EXPECT_NEAR(r.after_tax->total_cost, 828, kCent);
  EXPECT_NEAR(r.after_tax->total_cost, 0.75 * r.total_cost, 1e-9);
  // At a zero discount rate the NPV scales alike.
  EXPECT_NEAR(r.after_tax->npv, 0.75 * r.npv, 1e-9);
}

/// One card bought at 1,000 (tax: straight line over 2 years, 500 a year) against a monthly
/// server at 46; 24 months at 10 % a year.
PlanInputs own_or_rent(std::optional<double> tax_rate) {
  PlanInputs in = test::tiny_plan();
  in.finance.horizon_months = 24;
  in.finance.discount_rate_per_year = 0.10;
  in.finance.tax_devices.life_years = 2;
  in.finance.tax_rate = tax_rate;
  OptionInputs own = in.options.at(0);
  own.host_cost_entered = true;
  OptionInputs rent;
  rent.id = "monthly";
  rent.kind = OptionKind::rent_monthly;
  rent.device = test::books_card();
  rent.price_per_month = 46;
  in.options = {own, rent};
  return in;
}

TEST(AfterTax, theRecommendationFlipsWhenTheRentsEarlierShieldOutweighsThePreTaxGap) {
  // Pre-tax: own 1,000 at month 0; the rent 46 x sum over m = 1..24 of 1.1^(-m/12) = 46 x
  // 21.764568 = 1,001.170 (1.17 dearer): own is recommended.
  // Tax saved per unit of rate: own 500 / 1.1 + 500 / 1.21 = 867.768595; the rent 552 / 1.1 +
  // 552 / 1.21 = 958.016529. At 25 %: own 1,000 - 216.942149 = 783.057851; the rent
  // 1,001.170113 - 239.504132 = 761.665981: the rent is recommended. The flip needs a rate
  // above 1.170113 / (958.016529 - 867.768595) = 1.30 %: at 1 % own stays.
  const Plan pre_tax = make_plan(own_or_rent(std::nullopt));
  EXPECT_NEAR(pre_tax.options[0].npv, 1000, kCent);
  EXPECT_NEAR(pre_tax.options[1].npv, 1001.170113, 1e-5);
  EXPECT_EQ(pre_tax.recommendation, "own");
  EXPECT_FALSE(pre_tax.tax_rate.has_value());
  EXPECT_FALSE(pre_tax.pre_tax_recommendation.has_value());
  EXPECT_FALSE(pre_tax.options[0].after_tax.has_value());

  const Plan taxed = make_plan(own_or_rent(0.25));
  EXPECT_NEAR(taxed.options[0].after_tax->npv, 783.057851, 1e-5);
  EXPECT_NEAR(taxed.options[1].after_tax->npv, 761.665981, 1e-5);
  EXPECT_EQ(taxed.recommendation, "monthly");
  EXPECT_EQ(taxed.pre_tax_recommendation, "own");
  EXPECT_NE(taxed.recommendation_reason.find("after-tax NPV"), std::string::npos)
      << taxed.recommendation_reason;
  // The pre-tax figures stay beside the after-tax ones.
  EXPECT_NEAR(taxed.options[0].npv, 1000, kCent);

  const Plan low = make_plan(own_or_rent(0.01));
  EXPECT_NEAR(low.options[0].after_tax->npv, 1000 - 8.677686, 1e-5);
  EXPECT_NEAR(low.options[1].after_tax->npv, 1001.170113 - 9.580165, 1e-5);
  EXPECT_EQ(low.recommendation, "own");
}

TEST(AfterTax, aLoanDeductsItsInterestNotItsPrincipal) {
  // 10,000 bought on a loan: the P&L's deductible holds the interest, never the principal;
  // the tax by year is -rate x (operating + interest + tax depreciation + tax disposal).
  PlanInputs in = uk_purchase(0);
  in.options[0].financing = Financing::loan;
  in.options[0].loan_rate_per_year = 0.06;
  in.options[0].loan_term_months = 36;
  in.options[0].down_payment_fraction = 0.2;
  const Plan plan = make_plan(in);
  const OptionResult& own = plan.options.at(0);
  const ProfitAndLoss& p = own.profit_and_loss;
  for (size_t y = 0; y < 3; ++y) {
    EXPECT_NEAR(p.tax_deductible[y],
                p.operating_expenses[y] + p.interest[y] + p.tax_depreciation[y] + p.tax_disposal[y],
                1e-9);
    EXPECT_NEAR(own.after_tax->tax_by_year[y], -0.25 * p.tax_deductible[y], 1e-9);
  }
  // Over the horizon: 8,800 as paid in cash plus the interest, a quarter of it saved.
  EXPECT_NEAR(sum(own.after_tax->tax), -0.25 * (8800 + sum(p.interest)), 1e-6);
}

TEST(AfterTax, aRateOfOneOrMoreIsRefused) {
  PlanInputs in = uk_purchase(0);
  in.finance.tax_rate = 1.0;
  EXPECT_THROW(make_plan(in), EngineError);
  in.finance.tax_rate = -0.1;
  EXPECT_THROW(make_plan(in), EngineError);
}

}  // namespace
}  // namespace gputco
