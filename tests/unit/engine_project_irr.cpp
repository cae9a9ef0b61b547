// Project and equity IRR (issue #40 item 3): a loan's IRR is the return on the down payment
// (the equity IRR); the project IRR beside it is the IRR of the hardware as if bought for
// cash. Both worked by hand below.
#include <gtest/gtest.h>

#include "engine/plan/plan.hpp"
#include "tests/unit/engine_sensitivity_fixture.hpp"

namespace gputco {
namespace {

/// tiny_plan's card bought at 3,000 against its rental at 1.00 an hour for 10 h x 30 days =
/// 300 a month, over 12 months; no energy (tariff 0), no resale.
PlanInputs bought_at_3000(Financing financing) {
  PlanInputs in = test::tiny_plan();
  in.options[0].price_per_gpu = 3000;
  in.options[0].host_cost_entered = true;
  in.options[0].financing = financing;
  in.options[0].down_payment_fraction = 0.2;
  in.options[0].loan_rate_per_year = 0.12;
  in.options[0].loan_term_months = 12;
  return in;
}

TEST(ProjectIrr, aLoansIrrIsTheEquityIrrWithTheProjectIrrBesideIt) {
  const Plan plan = make_plan(bought_at_3000(Financing::loan));
  const OptionResult& own = plan.options.at(0);
  ASSERT_EQ(plan.baseline_option_id, "rent");
  EXPECT_NEAR(plan.options.at(1).total_cost, 3600, 1e-9) << "300 a month for 12 months";
  // Project: -3,000 at month 0, +300 in months 1-12: 3,000 = 300 x annuity(r, 12), annuity
  // 10 at r = 2.922854 % a month, (1.02922854)^12 - 1 = 41.2999 % a year.
  ASSERT_TRUE(own.project_irr.has_value()) << own.project_irr_na_reason;
  EXPECT_NEAR(*own.project_irr, 0.4129990, 1e-6);
  // Equity: 600 down at month 0; 2,400 borrowed at 1 % a month over 12 months, PMT = 2,400 x
  // 0.01 / (1 - 1.01^-12) = 213.2371; +300 - 213.2371 = 86.7629 a month: 600 = 86.7629 x
  // annuity(r, 12) at r = 9.698807 % a month, 203.6847 % a year.
  EXPECT_EQ(own.irr_basis, "equity");
  ASSERT_TRUE(own.irr.has_value()) << own.irr_na_reason;
  EXPECT_NEAR(*own.irr, 2.0368465, 1e-6);
}

TEST(ProjectIrr, boughtForCashTheIrrIsTheProjectIrr) {
  const Plan plan = make_plan(bought_at_3000(Financing::cash));
  const OptionResult& own = plan.options.at(0);
  EXPECT_EQ(own.irr_basis, "project");
  ASSERT_TRUE(own.irr.has_value());
  EXPECT_NEAR(*own.irr, 0.4129990, 1e-6);
  EXPECT_FALSE(own.project_irr.has_value()) << "irr is the project IRR already";
  // The rental is not compared: no basis.
  EXPECT_EQ(plan.options.at(1).irr_basis, "");
}

}  // namespace
}  // namespace gputco
