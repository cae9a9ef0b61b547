// No NaN or infinity reaches a report (issue 20): the annuity at a rate that 1 + r rounds
// away, and the last guard on every plan, Monte Carlo and sensitivity run.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "engine/finance/finance.hpp"
#include "engine/plan/figure_check.hpp"
#include "engine/plan/plan.hpp"

namespace gputco {
namespace {

TEST(AnnuityAtANegligibleRate, isTheZeroRateAnnuity) {
  // loan_rate = 1e-17 a year: r = 8.3e-19 a month, and 1 + r == 1 in a double, so
  // r P / (1 - (1 + r)^-n) was 0 / 0. Below 1e-9 a month the instalment is P / n:
  // 12,000 / 36 = 333.33..., and after 12 of them 12,000 - 12 x 333.33 = 8,000 is owed.
  for (const double rate : {1e-17 / 12, 1e-12, -1e-12, 9.99e-10}) {
    EXPECT_DOUBLE_EQ(annuity_payment(12000, rate, 36), 12000.0 / 36) << rate;
    EXPECT_NEAR(annuity_balance(12000, rate, 36, 12), 8000, 1e-9) << rate;
  }
  // At 1e-9 a month the annuity formula holds, as the spreadsheet's PMT computes it: finite,
  // within a millionth of P / n (the exact instalment is r (n + 1) / 2 = 1.85e-8 of it above;
  // 1 + r keeps r to about 1e-7 of itself, so the formula is that close).
  const double at_limit = annuity_payment(12000, 1e-9, 36);
  EXPECT_TRUE(std::isfinite(at_limit));
  EXPECT_NEAR(at_limit / (12000.0 / 36), 1, 1e-6);
}

TEST(AnnuityAtANegligibleRate, aLoanOptionHasFiniteFlows) {
  OptionInputs own;
  own.id = "own";
  own.kind = OptionKind::buy;
  own.device.id = "card";
  own.device.memory_nameplate_gb = 24;
  own.device.bandwidth_gbps = 936;
  own.device.board_power_w = 350;
  own.price_per_gpu = 12000;
  own.financing = Financing::loan;
  own.loan_rate_per_year = 1e-17;
  own.loan_term_months = 36;
  WorkloadInputs w;
  w.hours_per_day = 0;
  FinanceInputs f;
  f.horizon_months = 12;
  const CashFlow cf = option_cash_flow(own, w, SiteInputs{0, 1}, f);
  // -12,000 at month 0, 333.33 a month, and the 8,000 still owed at month 12.
  EXPECT_DOUBLE_EQ(cf.financing[0], -12000);
  EXPECT_DOUBLE_EQ(cf.financing[1], 12000.0 / 36);
  EXPECT_NEAR(cf.financing[12], 12000.0 / 36 + 8000, 1e-9);
  for (double v : cf.total) EXPECT_TRUE(std::isfinite(v));
}

TEST(FigureGuard, namesTheFirstFigureThatIsNotANumber) {
  Plan plan;
  plan.horizon_months = 3;
  OptionResult option;
  option.id = "rig";
  option.cash_flow.financing = {0, 1, 2, std::numeric_limits<double>::quiet_NaN()};
  plan.options.push_back(option);
  try {
    check_finite_figures(plan);
    FAIL() << "no FigureError";
  } catch (const FigureError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("option rig: cash flow row financing, month 3 is nan", 0),
              0u)
        << e.what();
  }
  plan.options[0].cash_flow.financing[3] = 3;
  plan.options[0].cost_per_million_tokens = std::numeric_limits<double>::infinity();
  try {
    check_finite_figures(plan);
    FAIL() << "no FigureError";
  } catch (const FigureError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("option rig: cost per million tokens is inf", 0), 0u)
        << e.what();
  }
  plan.options[0].cost_per_million_tokens.reset();  // "n/a" is not a figure
  EXPECT_NO_THROW(check_finite_figures(plan));
}

TEST(FigureGuard, coversTheMonteCarloAndTheSensitivityRun) {
  RiskResult risk;
  risk.options.push_back({"rig", 1, std::nan(""), 3});
  EXPECT_THROW(check_finite_figures(risk), FigureError);
  Sensitivity s;
  s.utilization_sweep.push_back({2, {1.0, -std::numeric_limits<double>::infinity()}});
  EXPECT_THROW(check_finite_figures(s), FigureError);
}

}  // namespace
}  // namespace gputco
