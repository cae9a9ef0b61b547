// Financial arithmetic (engine/finance/finance.hpp), each case with the spreadsheet function that
// gives the same value for the same inputs (Excel and LibreOffice agree on all of them).
#include <gtest/gtest.h>

#include <cmath>

#include "engine/base/error.hpp"
#include "engine/finance/finance.hpp"

namespace gputco {
namespace {

TEST(Annuity, instalmentOfAThreeYearLoan) {
  // 10,000 at 6 % a year nominal, 36 monthly instalments: r = 0.005.
  // Spreadsheet: =PMT(0.06/12, 36, -10000) = 304.2193745
  EXPECT_NEAR(annuity_payment(10000, 0.005, 36), 304.2193745, 1e-6);
  // A zero rate repays the principal evenly: =PMT(0, 12, -1200) = 100
  EXPECT_DOUBLE_EQ(annuity_payment(1200, 0, 12), 100);
  // One period: the principal plus one period's interest. =PMT(0.01, 1, -500) = 505
  EXPECT_NEAR(annuity_payment(500, 0.01, 1), 505, 1e-9);
}

TEST(Annuity, balanceOwedAfterSomeInstalments) {
  // After 12 of 36 instalments: =-FV(0.005, 12, -PMT(0.005,36,-10000), 10000) = 6864.0610
  EXPECT_NEAR(annuity_balance(10000, 0.005, 36, 12), 6864.061049, 1e-5);
  EXPECT_DOUBLE_EQ(annuity_balance(10000, 0.005, 36, 0), 10000);
  EXPECT_NEAR(annuity_balance(10000, 0.005, 36, 36), 0, 1e-9);
  EXPECT_DOUBLE_EQ(annuity_balance(10000, 0.005, 36, 48), 0);
  // Zero rate: 1200 - 3 x 100 = 900. =-FV(0, 3, -100, 1200) = 900
  EXPECT_DOUBLE_EQ(annuity_balance(1200, 0, 12, 3), 900);
}

TEST(Annuity, rejectsInputsOutsideTheDomain) {
  EXPECT_THROW(annuity_payment(-1, 0.01, 12), EngineError);
  EXPECT_THROW(annuity_payment(100, -1, 12), EngineError);
  EXPECT_THROW(annuity_payment(100, 0.01, 0), EngineError);
  EXPECT_THROW(annuity_payment(std::nan(""), 0.01, 12), EngineError);
  EXPECT_THROW(annuity_balance(100, 0.01, 12, -1), EngineError);
}

TEST(StraightLine, depreciationPerPeriod) {
  // =SLN(3000, 0, 36) = 83.3333; =SLN(10000, 1000, 5) = 1800
  EXPECT_NEAR(straight_line_depreciation(3000, 0, 36), 83.333333333, 1e-8);
  EXPECT_DOUBLE_EQ(straight_line_depreciation(10000, 1000, 5), 1800);
  EXPECT_THROW(straight_line_depreciation(1000, 0, 0), EngineError);
}

TEST(PresentValue, firstFlowUndiscounted) {
  // =-1000 + NPV(10%, 300, 400, 500) = -21.0368 (the spreadsheet NPV discounts its first
  // argument by one period, so month 0 stays outside it).
  EXPECT_NEAR(net_present_value({-1000, 300, 400, 500}, 0.10), -21.0368144, 1e-6);
  EXPECT_DOUBLE_EQ(net_present_value({1, 2, 3}, 0), 6);
  EXPECT_THROW(net_present_value({1}, -1), EngineError);
}

TEST(InternalRateOfReturn, matchesTheSpreadsheet) {
  // =IRR({-1000, 300, 400, 500}) = 8.8963 %
  const auto irr = internal_rate_of_return({-1000, 300, 400, 500});
  ASSERT_TRUE(irr.has_value());
  EXPECT_NEAR(*irr, 0.0889633947, 1e-9);
  EXPECT_NEAR(net_present_value({-1000, 300, 400, 500}, *irr), 0, 1e-6);
  // =IRR({-100, 110}) = 10 %
  EXPECT_NEAR(*internal_rate_of_return({-100, 110}), 0.10, 1e-10);
  // Monthly: 1,200 now, 110 a month for a year. =IRR(...) = 1.4977 % a month;
  // annualised (1 + 0.014977)^12 - 1 = 19.53 % (=(1+IRR(...))^12-1).
  std::vector<double> monthly = {-1200};
  monthly.resize(13, 110);
  const auto m = internal_rate_of_return(monthly);
  ASSERT_TRUE(m.has_value());
  EXPECT_NEAR(*m, 0.0149766646, 1e-9);
  EXPECT_NEAR(annual_from_monthly(*m), 0.195288358, 1e-8);
}

TEST(InternalRateOfReturn, aLongStreamGivesItsLowestRootNotMinus100Percent) {
  // Was -100 %: over 600 periods the NPV near -99 % is inf - inf (NaN), taken for a sign
  // change. -1000, then 300 x +150, then 299 x -100: roots at -0.1303100549 % and 15 % a
  // period (a dense scan with bisection, Python, 2026-12-02); the lowest is the IRR.
  std::vector<double> long_stream{-1000};
  long_stream.insert(long_stream.end(), 300, 150.0);
  long_stream.insert(long_stream.end(), 299, -100.0);
  const auto lowest = internal_rate_of_return(long_stream);
  ASSERT_TRUE(lowest.has_value());
  EXPECT_NEAR(*lowest, -0.001303100549, 1e-10);
}

TEST(InternalRateOfReturn, notAvailableWithoutASignChange) {
  EXPECT_FALSE(internal_rate_of_return({100, 200, 300}).has_value());
  EXPECT_FALSE(internal_rate_of_return({-100, -200}).has_value());
  EXPECT_FALSE(internal_rate_of_return({}).has_value());
  EXPECT_FALSE(internal_rate_of_return({0, 0}).has_value());
  // Money back that never covers the outlay, even at -99 %: no root in range.
  EXPECT_FALSE(internal_rate_of_return({-100, 0.5}).has_value());
}

TEST(InternalRateOfReturn, lowestRootWhenTheFlowsChangeSignTwice) {
  // -100, +230, -132 has roots at 10 % and 20 %; =IRR(...) with its default guess of 10 %
  // gives 10 %; we give the lowest root.
  const auto irr = internal_rate_of_return({-100, 230, -132});
  ASSERT_TRUE(irr.has_value());
  EXPECT_NEAR(*irr, 0.10, 1e-9);
}

TEST(Rates, monthlyAndAnnualAreInverse) {
  EXPECT_NEAR(monthly_from_annual(0.12), std::pow(1.12, 1.0 / 12) - 1, 1e-15);
  EXPECT_NEAR(annual_from_monthly(monthly_from_annual(0.08)), 0.08, 1e-14);
}

TEST(Factors, trendsAndGrowthStartAtMonthOne) {
  // Month 1 pays today's price; month 13 a year's trend: -15 % a year -> 0.85.
  EXPECT_DOUBLE_EQ(trend_factor(-0.15, 0), 1);
  EXPECT_DOUBLE_EQ(trend_factor(-0.15, 1), 1);
  EXPECT_NEAR(trend_factor(-0.15, 13), 0.85, 1e-12);
  EXPECT_NEAR(trend_factor(0.05, 7), std::pow(1.05, 0.5), 1e-12);
  // Growth +3 % a month: month 1 is 1, month 3 is 1.03^2.
  EXPECT_DOUBLE_EQ(growth_factor(0.03, 1), 1);
  EXPECT_NEAR(growth_factor(0.03, 3), 1.0609, 1e-12);
}

}  // namespace
}  // namespace gputco
